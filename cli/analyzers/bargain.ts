import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  analyzeBargain,
  type BargainAnalysis,
  bargainFigures,
  bargainTables,
  type SessionInput,
  type Table,
} from "../../analysis/bargain/index.ts";
import { fallbackText } from "../../analysis/bargain/narrator.ts";
import { pct } from "../../analysis/bargain/tables.ts";
import type { BargainTrialRecord } from "../../environments/bargain/record.ts";
import { renderAction } from "../../environments/bargain/text.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { parseOption, positiveInt } from "../options.ts";
import { renderTable } from "../table.ts";
import { DEFAULT_PAIRED_RESAMPLES } from "./options.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

function markdownTable(t: Table): string {
  const cell = (c: string) => c.replaceAll("|", "\\|");
  const numeric = t.header.map(
    (_, i) => t.rows.length > 0 && t.rows.every((r) => /^[-$\d.,%–]+$/.test(r[i] ?? "")),
  );
  return [
    `| ${t.header.map(cell).join(" | ")} |`,
    `|${numeric.map((n) => (n ? " ---: " : " --- ")).join("|")}|`,
    ...t.rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** One session, message by message, as `--transcript` prints it. */
export function transcriptText(r: BargainTrialRecord): string {
  const head = [
    `session ${r.seq} (${r.trialKey}) · ${r.buyer} vs ${r.seller} · ${r.interest}`,
    `${r.product.title} (${r.scenarioId}) · listed $${r.listedPrice} · budget B $${r.budget} · cost C $${r.cost}`,
    `outcome: ${r.outcome} (${r.endedBy}${r.endedBySide ? ` by the ${r.endedBySide}` : ""})` +
      (r.dealPrice !== null ? ` at $${r.dealPrice}` : "") +
      (r.invalidReason ? ` — ${r.invalidReason}` : ""),
    "",
  ];
  const lines = r.transcript.map((m) => {
    const action =
      m.action === "invalid"
        ? "[invalid]"
        : renderAction(m.role, m.action, m.price, r.scenarioId).replace(/ \(1x .*\)$/, "");
    const extra = [
      m.tokens ? `${m.tokens.input}+${m.tokens.output} tokens` : "",
      m.ms !== undefined ? `${m.ms} ms` : "",
    ]
      .filter(Boolean)
      .join(", ");
    const said = `turn ${m.turn} · ${m.role.padEnd(6)} ${action.padEnd(18)} ${m.talk}${extra ? `  (${extra})` : ""}`;
    const note = m.note ? `\n    note: ${m.note}` : "";
    return m.action === "invalid" && m.raw !== undefined
      ? `${said}${note}\n    raw: ${JSON.stringify(m.raw)}`
      : `${said}${note}`;
  });
  return [...head, ...lines].join("\n");
}

function findSession(records: Iterable<Record<string, unknown>>, which: string): BargainTrialRecord {
  for (const r of records)
    if (String(r.seq) === which || r.trialKey === which) return r as unknown as BargainTrialRecord;
  throw new UserError(
    `--transcript: the run has no session ${which}`,
    "give a session's seq number or trial key",
  );
}

/**
 * Per buyer over every seller: the deal rate over valid sessions and the buyer's sum of normalized
 * profits (SNP); then each OG-Narrator buyer against each plain buyer on the same scenarios, all
 * sellers pooled, with the paired bootstrap intervals — the comparison the paper is about. A buyer
 * with an LLM narrator also shows how many of its turns fell back to the template line, and a
 * sentence when most did (those numbers are then the template narrator's).
 */
export function bargainHeadline(analysis: BargainAnalysis): Headline {
  const buyers = analysis.byBuyer.map((b) => ({
    buyer: b.buyer,
    sessions: b.summary.ALL.sessions,
    valid: b.summary.ALL.valid,
    dealRateValid: b.summary.ALL.dealRateValid,
    buyerSnp: b.summary.ALL.buyer.snp,
    narratorTurns: b.narratorTurns,
    narratorFallbacks: b.narratorFallbacks,
  }));
  // The column only where a buyer has an LLM narrator: a template narrator has nothing to fall back from.
  const narrated = buyers.some((b) => b.narratorTurns !== null);
  const narratorCell = (b: (typeof buyers)[number]) =>
    !narrated
      ? []
      : b.narratorTurns === null
        ? [""]
        : [fallbackText({ turns: b.narratorTurns, fallbacks: b.narratorFallbacks ?? 0 })];
  const comparisons = analysis.comparisons
    .filter((c) => c.seller === null)
    .map((c) => ({
      treatment: c.treatment,
      control: c.control,
      scenarios: c.scenarios,
      pairs: c.pairs,
      level: c.level,
      intervalNote: c.intervalNote,
      dealRateValid: c.metrics.dealRateValid,
      buyerSnp: c.metrics.buyerSnp,
    }));
  const signed = (x: number | null, digits: number, scale = 1) =>
    x === null ? "–" : `${x * scale >= 0 ? "+" : "−"}${Math.abs(x * scale).toFixed(digits)}`;
  const iv = (v: { interval: { low: number; high: number } | null }, digits: number, scale = 1) =>
    v.interval
      ? ` [${signed(v.interval.low, digits, scale)}, ${signed(v.interval.high, digits, scale)}]`
      : "";
  const lines = [
    `bargaining, ${analysis.sessions.toLocaleString("en-US")} sessions on ${analysis.scenarios.total} scenarios (all sellers pooled):`,
    ...renderTable(
      ["buyer", "sessions", "deal rate (valid)", "buyer SNP", ...(narrated ? ["narrator fallbacks"] : [])],
      buyers.map((b) => [
        b.buyer,
        String(b.sessions),
        pct(b.dealRateValid),
        signed(b.buyerSnp, 1),
        ...narratorCell(b),
      ]),
    ).split("\n"),
    ...comparisons.map(
      (c) =>
        `${c.treatment} − ${c.control} (paired on ${c.scenarios} scenario${c.scenarios === 1 ? "" : "s"}, ${c.intervalNote ? "no interval: resampling scenarios needs 2 or more" : `${Math.round(100 * c.level)}% intervals`}): ` +
        `deal rate ${signed(c.dealRateValid.difference, 1, 100)} pts${iv(c.dealRateValid, 1, 100)}, ` +
        `buyer SNP ${signed(c.buyerSnp.difference, 1)}${iv(c.buyerSnp, 1)}`,
    ),
    ...analysis.notes,
  ];
  return { lines, json: { buyers, comparisons } };
}

/** `bazaar analyze <run>` for bargaining runs: the paper's metrics per pairing, and OG vs plain. */
export const bargainAnalyzer: EnvironmentAnalyzer = {
  env: "bargain",
  analyze(input: AnalyzeInput): AnalyzeOutput {
    const o = input.options as { pairedResamples?: string; transcript?: string };
    if (o.transcript !== undefined) {
      const session = findSession(input.records(), String(o.transcript));
      return {
        headline: { lines: [], json: null },
        json: session,
        text: transcriptText(session),
        writeReport: () => [],
      };
    }
    const resamples =
      o.pairedResamples === undefined
        ? DEFAULT_PAIRED_RESAMPLES
        : parseOption("paired-resamples", positiveInt, o.pairedResamples);
    const sessions = (function* () {
      for (const r of input.records()) yield r as unknown as SessionInput;
    })();
    const analysis = analyzeBargain(sessions, { resamples, seed: input.run.id });
    const tables = bargainTables(analysis);
    const intro = [
      `run ${input.run.id}: ${analysis.sessions} sessions on ${analysis.scenarios.total} scenarios ` +
        `(${analysis.scenarios.MI} mutual interest, ${analysis.scenarios.CI} conflicting interest)`,
      `buyers: ${analysis.buyers.join(", ")} · sellers: ${analysis.sellers.join(", ")}`,
      ...analysis.notes,
    ];
    const text = [
      ...intro,
      ...tables.map((t) => `\n${t.title}\n${renderTable(t.header, t.rows)}${t.note ? `\n${t.note}` : ""}`),
    ].join("\n");
    return {
      headline: bargainHeadline(analysis),
      json: { run: input.run.id, env: "bargain", ...analysis },
      text,
      figures: () => bargainFigures(analysis),
      writeReport(dir: string): string[] {
        const figures = bargainFigures(analysis);
        const md = [
          `# Bargaining run ${input.run.id}`,
          intro.join("  \n"),
          ...figures.map((f) => `![${f.title}](${f.file})`),
          ...tables.map((t) => [`## ${t.title}`, ...(t.note ? [t.note] : []), markdownTable(t)].join("\n\n")),
        ].join("\n\n");
        const file = path.join(dir, "bargain-report.md");
        writeFileSync(file, `${md}\n`);
        for (const f of figures) writeFileSync(path.join(dir, f.file), f.svg);
        return [file, ...figures.map((f) => path.join(dir, f.file))];
      },
    };
  },
};
