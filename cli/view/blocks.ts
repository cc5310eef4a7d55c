/**
 * An analysis' text as the browser shows it: the very text `bazaar analyze` prints, with each table
 * that `renderTable` drew read back into its cells. A table is a header line, a rule of `─` runs
 * (one per column, two spaces apart) and rows padded to the same columns, so the rule's runs say
 * exactly where every cell starts and ends; everything else stays lines of text.
 */
import type { Block } from "./api-types.ts";

const RULE = /^─+(?: {2}─+)*$/;

/** Column spans [start, end) from a rule line. */
function spans(rule: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of rule.matchAll(/─+/g)) out.push([m.index, m.index + m[0].length]);
  return out;
}

function cells(line: string, cols: readonly [number, number][]): string[] {
  return cols.map(([start, end], i) =>
    // The last column runs to the end of the line (a row may be longer than the rule: never cut).
    (i === cols.length - 1 ? line.slice(start) : line.slice(start, end)).trim(),
  );
}

/** Whether a row fits the columns: nothing but spaces in the gaps between them. */
function fits(line: string, cols: readonly [number, number][]): boolean {
  // A row reaches past its first column (a short line after a table is a note, not a row).
  if (cols.length > 1 && line.length <= cols[0]![1]) return false;
  for (let i = 0; i + 1 < cols.length; i++) {
    const gap = line.slice(cols[i]![1], cols[i + 1]![0]);
    if (gap.trim() !== "") return false;
  }
  return line.trim() !== "";
}

/** The text's lines as blocks: tables where `renderTable` drew them, lines elsewhere. */
export function textBlocks(text: string | readonly string[]): Block[] {
  const lines = typeof text === "string" ? text.split("\n") : text.flatMap((l) => l.split("\n"));
  const blocks: Block[] = [];
  let pending: string[] = [];
  const flush = () => {
    while (pending.length > 0 && pending[0]!.trim() === "") pending.shift();
    while (pending.length > 0 && pending.at(-1)!.trim() === "") pending.pop();
    if (pending.length > 0) blocks.push({ kind: "text", lines: pending });
    pending = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const rule = lines[i + 1];
    const indent = rule === undefined ? "" : (/^ */.exec(rule)?.[0] ?? "");
    if (rule !== undefined && RULE.test(rule.slice(indent.length)) && lines[i]!.trim() !== "") {
      const cols = spans(rule.slice(indent.length));
      const header = cells(lines[i]!.slice(indent.length), cols);
      const rows: string[][] = [];
      let j = i + 2;
      while (j < lines.length && lines[j]!.startsWith(indent) && fits(lines[j]!.slice(indent.length), cols)) {
        rows.push(cells(lines[j]!.slice(indent.length), cols));
        j++;
      }
      flush();
      const numeric = header.map(
        (_, c) => rows.length > 0 && rows.every((r) => /^[-+]?[\d,./%]+$/.test(r[c] ?? "")),
      );
      blocks.push({ kind: "table", header, rows, numeric });
      i = j - 1;
      continue;
    }
    pending.push(lines[i]!);
  }
  flush();
  return blocks;
}
