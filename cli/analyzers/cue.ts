import { writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  analyzeCue,
  type CueAnalysis,
  cueObservations,
  DEFAULT_CUE_ANALYSIS,
} from "../../analysis/cue/index.ts";
import { percent } from "../../analysis/report/format.ts";
import { renderSvg } from "../../analysis/report/svg.ts";
import { nonNegativeInt, parseOption } from "../options.ts";
import { renderTable } from "../table.ts";
import { cueFigures, cueMarkdown } from "./cue-report.ts";
import {
  additivityTables,
  agentLines,
  categoryLines,
  ceilingSentence,
  ceilingTable,
  conditionTable,
  intervalText,
  paraphraseTable,
  type Table,
} from "./cue-tables.ts";
import type { AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

const rate = z.coerce
  .number({ error: "expected a number" })
  .min(0, "expected a rate between 0 and 1")
  .max(1, "expected a rate between 0 and 1");

const text = (t: Table) => renderTable(t.header, t.rows);

/** How many of a category's ranked conditions the headline shows. */
const HEADLINE_TOP = 3;

/**
 * Per agent and category: the conditions with the largest price-equivalents (censored and
 * unidentified ones are not ranked), with their pair-clustered intervals.
 */
export function cueHeadline(analysis: CueAnalysis): Headline {
  const rows = analysis.agents.flatMap((a) =>
    a.categories.flatMap((cat) =>
      cat.ranking.slice(0, HEADLINE_TOP).flatMap((name, i) => {
        const c = cat.conditions.find((x) => x.condition === name);
        if (c?.pe.kind !== "point") return [];
        return [
          {
            agent: a.agent,
            category: cat.category,
            rank: i + 1,
            condition: c.condition,
            priceEquivalent: c.pe.value,
            interval: c.interval?.pooled ?? null,
            intervalNote: c.intervalNote,
            gMax: c.curve.at(-1)?.premium ?? 0,
          },
        ];
      }),
    ),
  );
  const excluded = analysis.agents.filter((a) => a.excluded);
  const lines = [
    "cue injection, top price-equivalents (the premium at which the cued copy stops winning half the time):",
    ...(rows.length > 0
      ? renderTable(
          ["agent", "category", "rank", "condition", "PE", `${Math.round(100 * analysis.options.level)}% CI`],
          rows.map((r) => [
            r.agent,
            r.category,
            String(r.rank),
            r.condition,
            percent(r.priceEquivalent),
            intervalText(r.interval, r.gMax, r.intervalNote),
          ]),
        ).split("\n")
      : ["no condition has a point price-equivalent (censored or not identified: see bazaar analyze)"]),
    ...excluded.map((a) => `${a.agent}: ${a.exclusionNote}`),
  ];
  return { lines, json: { top: rows.map(({ gMax: _, ...r }) => r), excluded: excluded.map((a) => a.agent) } };
}

export const cueAnalyzer: EnvironmentAnalyzer = {
  env: "cue",
  async analyze(input): Promise<AnalyzeOutput> {
    const o = input.options;
    const analysis = analyzeCue(cueObservations(input.records()), {
      bootstrap:
        o.bootstrap === undefined
          ? DEFAULT_CUE_ANALYSIS.bootstrap
          : parseOption("bootstrap", nonNegativeInt, o.bootstrap),
      seed: typeof o.bootstrapSeed === "string" ? o.bootstrapSeed : DEFAULT_CUE_ANALYSIS.seed,
      maxNonResponseRate:
        o.maxNonResponse === undefined
          ? DEFAULT_CUE_ANALYSIS.maxNonResponseRate
          : parseOption("max-non-response", rate, o.maxNonResponse),
    });
    const runId = input.run.id;
    const lines: string[] = [`cue run ${runId}`];
    for (const a of analysis.agents) {
      lines.push("", ...agentLines(a));
      for (const cat of a.categories) {
        lines.push(
          "",
          `== ${a.agent} · ${cat.category} (${cat.pairs.length} pairs) ==`,
          ...categoryLines(cat),
        );
        lines.push(
          "",
          "conditions by price-equivalent (‡ PE ≤ 0, † no crossing in the sweep, n.i. not identified):",
        );
        lines.push(text(conditionTable(cat)));
        lines.push(
          "",
          "equal-price rate vs price-equivalent:",
          text(ceilingTable(cat)),
          ceilingSentence(cat),
        );
        const add = additivityTables(cat);
        if (add)
          lines.push("", "additivity (2³ factorial):", text(add.cells), "", text(add.tests), add.verdict);
        const para = paraphraseTable(cat);
        if (para) lines.push("", "instruction paraphrases:", text(para.table), ...para.notes);
      }
    }
    // Figures are rendered only for a report: Vega takes a moment per chart.
    const figures = typeof o.report === "string" ? cueFigures(analysis) : [];
    const svgs = await Promise.all(figures.map((f) => renderSvg(f.spec)));
    return {
      headline: cueHeadline(analysis),
      json: { run: runId, env: "cue", ...analysis },
      text: lines.join("\n"),
      figures: () => cueFigures(analysis),
      writeReport(dir) {
        const written: string[] = [];
        figures.forEach((f, i) => {
          writeFileSync(path.join(dir, f.file), svgs[i] as string);
          written.push(f.file);
        });
        writeFileSync(path.join(dir, "report.md"), cueMarkdown(runId, analysis, figures));
        written.push("report.md");
        return written;
      },
    };
  },
};
