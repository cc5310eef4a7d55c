/** Markdown tables and text for reports (GitHub-flavoured). */

/** A cell's text with the characters that would break a table row escaped. */
export function escapeCell(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * A pipe table. Columns whose every cell looks numeric are right-aligned (as the terminal tables).
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[-−+]?[$]?[\d,.]+(%|×)?$|^–$/.test(r[i] ?? "")),
  );
  const line = (cells: readonly string[]) => `| ${cells.map((c) => escapeCell(c)).join(" | ")} |`;
  const rule = `|${numeric.map((n) => (n ? " ---: " : " --- ")).join("|")}|`;
  return [line(header), rule, ...rows.map((r) => line(header.map((_, i) => r[i] ?? "")))].join("\n");
}

/** A markdown document from sections: `# title`, then each `## heading` with its paragraphs. */
export function markdownDocument(
  title: string,
  sections: readonly { heading: string; body: readonly string[] }[],
): string {
  return `${[`# ${title}`, ...sections.map((s) => [`## ${s.heading}`, ...s.body].join("\n\n"))].join("\n\n")}\n`;
}
