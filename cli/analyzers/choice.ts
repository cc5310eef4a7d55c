import { writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { UnmatchedAnswers } from "../../analysis/choice/index.ts";
import {
  analyzeChoice,
  type ChoiceAnalysis,
  type ChoiceTrial,
  choiceTrialsFromRecords,
  coefficient,
  DEFAULT_CONVENTION,
  DEFAULT_REFERENCE_PRICE,
  REFERENCE_CONVENTION,
} from "../../analysis/choice/index.ts";
import {
  choiceAgentTable,
  choiceBrandTable,
  choiceFigures,
  choiceReport,
  choiceSummaryLines,
  dollars,
  markdownDocument,
  percent,
  renderSvg,
  sig,
} from "../../analysis/report/index.ts";
import { isPriceBenchRun, priceBenchRunInfo } from "../../datasets/pricebench/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import type { Store } from "../../environments/store/index.ts";
import { choiceOf, nonNegativeInt, parseOption } from "../options.ts";
import { renderTable } from "../table.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

const CONVENTIONS = ["auto", "default", "reference", "both"] as const;
const positiveDollars = z.coerce.number({ error: "expected a number" }).positive("expected a price above 0");

/** The runs named by --with-runs: ids, or patterns where * matches any text. */
function matchRuns(store: Store, spec: string | undefined, main: string): string[] {
  if (!spec) return [];
  const all = store.listRuns().map((r) => r.id);
  const ids = new Set<string>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!part.includes("*")) {
      requireRun(store, part);
      ids.add(part);
      continue;
    }
    const re = new RegExp(
      `^${part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    const hits = all.filter((id) => re.test(id));
    if (hits.length === 0)
      throw new UserError(`--with-runs: no run matches "${part}"`, `runs there: ${all.join(", ")}`);
    for (const h of hits) ids.add(h);
  }
  ids.delete(main);
  return [...ids];
}

/** The provider an agent's model comes from, by its name (as the reference groups models). */
export function providerOf(agent: string): string | undefined {
  const name = agent.replace(/^(pricebench|openai):/, "").toLowerCase();
  const rules: [RegExp, string][] = [
    [/^(openai)?gpt|^o\d/, "OpenAI"],
    [/^claude/, "Anthropic"],
    [/^qwen/, "Alibaba"],
    [/^gemma|^gemini/, "Google"],
    [/^llama/, "Meta"],
    [/^phi/, "Microsoft"],
    [/^mistral/, "Mistral"],
    [/^deepseek/, "DeepSeek"],
  ];
  return agent.startsWith("sim:") ? undefined : rules.find(([re]) => re.test(name))?.[1];
}

interface Gathered {
  trials: ChoiceTrial[];
  /** Agents whose runs are PriceBench imports. */
  imported: Set<string>;
  runIds: string[];
  /** What imported runs' configs say: the model's display name and provider, set-apart rows. */
  displayNames: Record<string, string>;
  providers: Record<string, string>;
  unmatched: Record<string, UnmatchedAnswers[]>;
}

function gather(input: AnalyzeInput, runIds: string[]): Gathered {
  const trials: ChoiceTrial[] = [];
  const imported = new Set<string>();
  const seen = new Map<string, string>();
  const displayNames: Record<string, string> = {};
  const providers: Record<string, string> = {};
  const unmatched: Record<string, UnmatchedAnswers[]> = {};
  for (const id of runIds) {
    const run = id === input.run.id ? input.run : requireRun(input.store, id);
    if (run.env !== "choice")
      throw new UserError(
        `run ${id} is a ${run.env} run, not a choice run`,
        "--with-runs takes choice runs only",
      );
    const records = id === input.run.id ? input.records() : trialRecords(input.store, id);
    const mine = choiceTrialsFromRecords(records);
    // The same agent label in two runs is two data sets: keep them apart.
    const labels = new Set(mine.map((t) => t.agent));
    for (const label of labels) {
      const owner = seen.get(label);
      if (owner === undefined) {
        seen.set(label, id);
        continue;
      }
      for (const t of mine) if (t.agent === label) t.agent = `${label}@${id}`;
    }
    if (isPriceBenchRun(run.config)) {
      const info = priceBenchRunInfo(run.config);
      for (const agent of new Set(mine.map((t) => t.agent))) {
        imported.add(agent);
        if (info.displayName) displayNames[agent] = info.displayName;
        if (info.provider) providers[agent] = info.provider;
        if (info.oddRows.length > 0)
          unmatched[agent] = info.oddRows.map((o) => ({ swap: o.swap, letters: o.letters }));
      }
    }
    trials.push(...mine);
  }
  return { trials, imported, runIds, displayNames, providers, unmatched };
}

function textOf(title: string, a: ChoiceAnalysis): string {
  const agents = choiceAgentTable(a);
  const brand = choiceBrandTable(a);
  return [
    `== ${title} ==`,
    ...choiceSummaryLines(a).map((l) => `• ${l}`),
    "",
    renderTable(agents.header, agents.rows),
    "",
    "Brand premiums (utils vs an independent hotel; * p<.05 ** p<.01 *** p<.001):",
    renderTable(brand.header, brand.rows),
  ].join("\n");
}

/**
 * Per agent: how often it booked the first-shown option, β ln p with its 95% CI, willingness to pay
 * per review point (log form at the reference price, with the bootstrap interval when there is one)
 * and the mean booked price — the figures PriceBench leads with.
 */
export function choiceHeadline(analysis: ChoiceAnalysis): Headline {
  const interval = analysis.bootstrap ? `${Math.round(analysis.bootstrap.level * 100)}% boot.` : "95% delta";
  const agents = analysis.agents.map((a) => {
    const lnp = a.binary ? coefficient(a.binary.log, "lnPrice") : undefined;
    const w = a.wtp?.log ?? null;
    const boot = analysis.bootstrap?.agents.find((b) => b.agent === a.agent)?.wtpLog;
    return {
      agent: a.agent,
      status: a.status,
      trials: a.triage.trials,
      firstShownRate: a.triage.firstShownRate,
      betaLnPrice: lnp ? { estimate: lnp.estimate, ciLow: lnp.ciLow, ciHigh: lnp.ciHigh } : null,
      wtpPerReviewPoint: w
        ? {
            estimate: w.estimate,
            low: boot ? boot.low : w.ciLow,
            high: boot ? boot.high : w.ciHigh,
            interval: boot ? "bootstrap" : "delta",
            referencePrice: analysis.referencePrice,
          }
        : null,
      meanBookedPrice: a.booking.meanPrice,
    };
  });
  const status = (a: (typeof agents)[number]) =>
    a.status === "locked"
      ? "position-locked"
      : a.status === "no-data"
        ? "no data"
        : a.betaLnPrice
          ? "engaged"
          : "not identified";
  const lines = renderTable(
    [
      "agent",
      "trials",
      "status",
      "first-shown",
      "β ln p [95% CI]",
      `WTP per review point @${dollars(analysis.referencePrice, false)} [${interval}]`,
      "mean booked",
    ],
    agents.map((a) => [
      a.agent,
      a.trials.toLocaleString("en-US"),
      status(a),
      percent(a.firstShownRate),
      a.betaLnPrice
        ? `${sig(a.betaLnPrice.estimate)} [${sig(a.betaLnPrice.ciLow)}, ${sig(a.betaLnPrice.ciHigh)}]`
        : "–",
      a.wtpPerReviewPoint
        ? `${dollars(a.wtpPerReviewPoint.estimate, false)} [${dollars(a.wtpPerReviewPoint.low, false)}, ${dollars(a.wtpPerReviewPoint.high, false)}]`
        : "–",
      dollars(a.meanBookedPrice),
    ]),
  ).split("\n");
  return {
    lines: [`catalog choice (${analysis.convention.label}):`, ...lines],
    json: { convention: analysis.convention.label, agents },
  };
}

/** `bazaar analyze <run>` for catalog-choice runs: the PriceBench estimates for every agent. */
export const choiceAnalyzer: EnvironmentAnalyzer = {
  env: "choice",
  async analyze(input: AnalyzeInput): Promise<AnalyzeOutput> {
    const o = input.options;
    const draws = o.bootstrap === undefined ? 500 : parseOption("bootstrap", nonNegativeInt, o.bootstrap);
    const referencePrice =
      o.referencePrice === undefined
        ? DEFAULT_REFERENCE_PRICE
        : parseOption("reference-price", positiveDollars, o.referencePrice);
    const convention = parseOption("convention", choiceOf(CONVENTIONS), o.convention ?? "auto");
    const seed = typeof o.bootstrapSeed === "string" ? o.bootstrapSeed : "bazaar-choice";
    const runIds = [input.run.id, ...matchRuns(input.store, o.withRuns as string | undefined, input.run.id)];
    const gathered = gather(input, runIds);
    const { trials, imported } = gathered;
    if (trials.length === 0)
      throw new UserError(`run ${input.run.id} has no stored trials yet`, "run it first");
    const agents = [...new Set(trials.map((t) => t.agent))];
    const providers = Object.fromEntries(
      agents.flatMap((a) => {
        const p = gathered.providers[a] ?? providerOf(a);
        return p ? [[a, p]] : [];
      }),
    );
    const common = {
      unmatchedAnswers: gathered.unmatched,
      bootstrapDraws: draws,
      seed,
      referencePrice,
      neighborhoodControls: o.neighborhoods === true,
      providers,
    };
    const analyses: { key: "default" | "reference"; title: string; analysis: ChoiceAnalysis }[] = [];
    const wantDefault = convention !== "reference";
    const wantReference =
      convention === "reference" || convention === "both" || (convention === "auto" && imported.size > 0);
    if (wantDefault)
      analyses.push({
        key: "default",
        title: DEFAULT_CONVENTION.label,
        analysis: analyzeChoice(trials, { ...common, convention: DEFAULT_CONVENTION }),
      });
    if (wantReference) {
      // Every agent, imported or not: a run on the release's tasks (`run choice --tasks`) is placed
      // among the release's models in the reference's convention too.
      analyses.push({
        key: "reference",
        title: REFERENCE_CONVENTION.label,
        analysis: analyzeChoice(trials, { ...common, convention: REFERENCE_CONVENTION }),
      });
    }
    // Beside imported models, the user's own are the ones to find at a glance.
    const figureOptions = {
      names: gathered.displayNames,
      highlight: new Set(imported.size > 0 ? agents.filter((a) => !imported.has(a)) : []),
    };
    const specs = () =>
      analyses.flatMap(({ key, analysis }) =>
        choiceFigures(analysis, key === "default" ? "" : `-${key}`, figureOptions),
      );
    const figures = o.report
      ? await Promise.all(specs().map(async (f) => ({ ...f, svg: await renderSvg(f.spec) })))
      : [];
    return {
      headline: choiceHeadline(analyses[0]!.analysis),
      json: { runs: runIds, analyses: Object.fromEntries(analyses.map((a) => [a.key, a.analysis])) },
      text: analyses.map((a) => textOf(a.title, a.analysis)).join("\n\n"),
      figures: specs,
      writeReport(dir: string): string[] {
        const files: string[] = [];
        for (const f of figures) {
          writeFileSync(path.join(dir, f.file), f.svg);
          files.push(f.file);
        }
        const sections = analyses.map(({ key, title, analysis }) => ({
          heading: title,
          body: choiceReport(
            analysis,
            figures.filter((f) =>
              key === "default" ? !f.file.includes("-reference") : f.file.includes("-reference"),
            ),
          ),
        }));
        const md = markdownDocument(`Catalog choice: ${runIds.join(", ")}`, sections);
        writeFileSync(path.join(dir, "report.md"), md);
        return ["report.md", ...files];
      },
    };
  },
};
