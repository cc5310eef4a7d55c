/** The catalog-choice report: per-agent and brand tables, summary lines, and three figures. */
import type { AgentChoiceAnalysis, ChoiceAnalysis } from "../choice/index.ts";
import { coefficient, LOCKED_FIT_LABEL } from "../choice/index.ts";
import type { LogitFit } from "../logit/index.ts";
import { intervalChart, labelledScatter, panelChart, wrapLabel } from "./charts.ts";
import { dollars, fixed, percent, pValue, sig, stars } from "./format.ts";
import { markdownTable } from "./markdown.ts";
import type { VegaLiteSpec } from "./svg.ts";

export interface Table {
  header: string[];
  rows: string[][];
}

function beta(fit: LogitFit | undefined, name: string): string {
  const c = fit ? coefficient(fit, name) : undefined;
  return c ? `${sig(c.estimate)}${stars(c.p)}` : "–";
}

function wtpCell(a: AgentChoiceAnalysis, analysis: ChoiceAnalysis, form: "log" | "linear"): string {
  const w = a.wtp?.[form];
  if (!w) return "–";
  const boot = analysis.bootstrap?.agents.find((b) => b.agent === a.agent);
  const interval = form === "log" ? boot?.wtpLog : boot?.wtpLinear;
  const [low, high] = interval ? [interval.low, interval.high] : [w.ciLow, w.ciHigh];
  const flag = w.priceDecreasesUtility ? "" : " (β_price ≥ 0)";
  return `${dollars(w.estimate, false)} [${dollars(low, false)}, ${dollars(high, false)}]${flag}`;
}

function statusCell(a: AgentChoiceAnalysis): string {
  if (a.status === "locked")
    return `LOCKED (${a.triage.verdict.replace("locked-", "")})${a.lockedFit ? ` — ${LOCKED_FIT_LABEL}` : ""}`;
  if (a.status === "no-data") return "no data";
  const fit = a.binary?.log;
  if (fit && fit.status !== "ok") return `not identified: ${fit.problem}`;
  return a.wellIdentified ? "engaged" : "engaged (weak)";
}

/** One row per agent: triage, β_price by form, β_review, fit, WTP with interval, mean booked price. */
export function choiceAgentTable(analysis: ChoiceAnalysis): Table {
  const interval = analysis.bootstrap ? `${Math.round(analysis.bootstrap.level * 100)}% boot.` : "95% delta";
  const header = [
    "agent",
    "status",
    "first-shown",
    "non-resp.",
    "β ln p",
    "β price ($)",
    "β deciles D10",
    "β review",
    "R² (log)",
    "AIC lin − log",
    "form",
    `WTP log @${dollars(analysis.referencePrice, false)} [${interval}]`,
    `WTP linear [${interval}]`,
    "booked $",
  ];
  const rows = analysis.agents.map((a) => {
    const b = a.binary;
    const log = b?.log;
    const aicGap =
      b && b.linear.status === "ok" && b.log.status === "ok" ? fixed(b.linear.aic - b.log.aic, 1) : "–";
    return [
      a.agent,
      statusCell(a),
      percent(a.triage.firstShownRate),
      String(a.triage.nonResponses),
      beta(log, "lnPrice"),
      beta(b?.linear, "price"),
      beta(b?.deciles, "priceD10"),
      beta(log, "review"),
      log?.status === "ok" ? fixed(log.pseudoR2, 3) : "–",
      aicGap,
      b?.formChoice ?? "–",
      wtpCell(a, analysis, "log"),
      wtpCell(a, analysis, "linear"),
      dollars(a.booking.meanPrice),
    ];
  });
  return { header, rows };
}

/** Chain premiums (utils vs an otherwise comparable independent hotel) per engaged agent. */
export function choiceBrandTable(analysis: ChoiceAnalysis): Table {
  const withBrand = analysis.agents.filter((a) => a.brand);
  const chains = ["Hilton", "Marriott", "IHG", "Hyatt", "Wyndham"];
  return {
    header: ["agent", ...chains, "controls"],
    rows: withBrand.map((a) => [
      a.agent,
      ...chains.map((c) => {
        const p = a.brand?.premiums?.find((x) => x.chain === c);
        return p ? `${sig(p.estimate)}${stars(p.p)}` : "–";
      }),
      a.brand?.premiums
        ? `deciles, stars, bed, cancel., breakfast, review${a.brand.neighborhoodControls ? ", neighborhood" : ""}`
        : a.brand?.fit.status === "not-identified"
          ? `not identified: ${a.brand.fit.problem}`
          : "–",
    ]),
  };
}

/** Why an agent has no triage verdict: nothing usable, or no A/B answer to a binary or ternary task. */
function noDataReason(a: AgentChoiceAnalysis): string {
  const t = a.triage;
  return t.nonResponses === t.trials
    ? `${a.agent}: no usable answer, ${t.nonResponses} of ${t.trials} trials non-responses`
    : `${a.agent}: no binary or ternary answer booking A or B to triage`;
}

/** The cross-agent findings, one line each. */
export function choiceSummaryLines(analysis: ChoiceAnalysis): string[] {
  const lines = [`Convention: ${analysis.convention.label}.`];
  const locked = analysis.agents.filter((a) => a.status === "locked");
  const engaged = analysis.agents.filter((a) => a.status === "engaged");
  const noData = analysis.agents.filter((a) => a.status === "no-data");
  const fitted = locked.some((a) => a.lockedFit);
  const unmatched = analysis.agents.filter((a) => a.triage.unmatchedPairAnswers > 0);
  lines.push(
    `Triage: ${engaged.length} engaged, ${locked.length} position-locked (|first-shown rate − 0.5| > 0.35)${locked.length ? `: ${locked.map((a) => `${a.agent} ${percent(a.triage.firstShownRate)}`).join(", ")}` : ""}${noData.length ? `, ${noData.length} not triaged (${noData.map(noDataReason).join("; ")})` : ""}; ${fitted ? `locked agents' binary fits are shown as the reference's table has them, labelled "${LOCKED_FIT_LABEL}", and enter no cross-agent figure` : "locked agents get no preference estimates"}.`,
  );
  if (unmatched.length > 0)
    lines.push(
      `First-shown rates count answers that match no task, as the reference's triage does: ${unmatched.map((a) => `${a.agent} ${a.triage.unmatchedPairAnswers.toLocaleString("en-US")} of ${a.triage.pairAnswers.toLocaleString("en-US")}`).join(", ")}; no fit reads them.`,
    );
  lines.push(
    `Price deciles: cut points ${analysis.decileEdges.map((e) => sig(e, 4)).join(", ")} (pooled option prices, reused for every agent).`,
  );
  const cm = analysis.crossModel;
  const neg = cm.negativePriceResponse;
  if (cm.engaged > 0)
    lines.push(
      `Price response: ${neg.agents.length} of ${cm.engaged} engaged agents have β ln p < 0 at p < ${neg.alpha}${neg.lnPrice ? `, from ${fixed(neg.lnPrice.min.value, 2)} (${neg.lnPrice.min.agent}) to ${fixed(neg.lnPrice.max.value, 2)} (${neg.lnPrice.max.agent})` : ""}; AIC rule among them: linear ${neg.forms.linear}, log ${neg.forms.log}, tie ${neg.forms.tie}.`,
    );
  const ref = dollars(analysis.referencePrice, false);
  if (cm.wtpLog)
    lines.push(
      `WTP per review point (log form at ${ref}) over ${cm.wtpLog.agents} well-identified agents (β ln p and β review at p < 0.001): ${dollars(cm.wtpLog.min.value, false)} (${cm.wtpLog.min.agent}) to ${dollars(cm.wtpLog.max.value, false)} (${cm.wtpLog.max.agent}), median ${dollars(cm.wtpLog.median, false)}, spread ${fixed(cm.wtpLog.spread, 1)}×${cm.wtpLinear ? `; linear form ${dollars(cm.wtpLinear.min.value, false)} to ${dollars(cm.wtpLinear.max.value, false)}, spread ${fixed(cm.wtpLinear.spread, 1)}×` : ""}.`,
    );
  if (cm.bookedPrice)
    lines.push(
      `Mean booked nightly price over the ${cm.bookedPrice.agents} engaged agents: ${dollars(cm.bookedPrice.min.value)} (${cm.bookedPrice.min.agent}) to ${dollars(cm.bookedPrice.max.value)} (${cm.bookedPrice.max.agent}).`,
    );
  const boot = analysis.bootstrap;
  const mc = (se: number | null | undefined, digits: number) =>
    se === null || se === undefined ? "" : ` ± ${fixed(se, digits)}`;
  if (boot) {
    lines.push(
      `Bootstrap: ${boot.draws} draws over ${boot.clusters} unique binary option sets, shared by all engaged agents; failed refits ${boot.agents.reduce((s, a) => s + a.failedLog + a.failedLinear, 0)}. "± x" is the Monte Carlo error (how far another seed would typically move the figure).`,
    );
    lines.push(
      `Rank stability (mean Spearman of per-draw vs full-sample ranks): |β ln p| ${fixed(boot.priceRank.meanSpearman, 3)}${mc(boot.priceRank.monteCarloSe, 4)} over ${boot.priceRank.agents} agents; WTP ${fixed(boot.wtpRank.meanSpearman, 3)}${mc(boot.wtpRank.monteCarloSe, 4)} over ${boot.wtpRank.agents} well-identified agents.`,
    );
    for (const s of [boot.wtpSpreadLog, boot.wtpSpreadLinear]) {
      lines.push(
        `WTP spread (${s.form} form, max/min over ${s.agents} well-identified agents): ${fixed(s.point, 1)}× [${fixed(s.interval?.low, 1)}×${mc(s.monteCarlo?.intervalLowSe, 1)}, ${fixed(s.interval?.high, 1)}×${mc(s.monteCarlo?.intervalHighSe, 1)}]; ${s.separablePairs}${mc(s.monteCarlo?.separablePairsSe, 1)} of ${s.pairs} pairs have non-overlapping intervals.`,
      );
    }
  }
  const m = analysis.multiplicity;
  lines.push(
    `Multiplicity: of ${m.tests.length} coefficient tests, ${m.significant} have p < ${m.alpha}, ${m.survivesBonferroni} survive Bonferroni and ${m.survivesBh} Benjamini–Hochberg; of ${m.strongClaims} at p < 0.001, Bonferroni loses ${m.strongLostBonferroni} and BH ${m.strongLostBh}${m.claimed > 0 ? `; of the ${m.claimed} the WTP findings rest on (β ln p and β review of the well-identified agents), Bonferroni loses ${m.claimedLostBonferroni} and BH ${m.claimedLostBh}` : ""}.`,
  );
  const fa = analysis.formatAgreement;
  if (fa.agents.length > 0)
    lines.push(
      `Binary vs ternary (${fa.agents.length} agents): Spearman ρ ${fixed(fa.spearmanLog, 2)} (log price), ${fixed(fa.spearmanLinear, 2)} (linear).`,
    );
  const hits = analysis.agents.filter((a) => a.fiveHitRate);
  if (hits.length > 0)
    lines.push(
      `Five-option tasks predicted by binary utilities: ${hits.map((a) => `${a.agent} ${percent(a.fiveHitRate!.hitRate)}`).join(", ")} (chance ${percent(hits[0]!.fiveHitRate!.chance)}).`,
    );
  const pb = analysis.providerBrand;
  if (pb)
    lines.push(
      `Brand correlation within providers ${fixed(pb.withinMeanR, 3)} vs across ${fixed(pb.acrossMeanR, 3)} (permutation p = ${pValue(pb.p)}${mc(pb.monteCarloSe, 3)}, ${pb.permutations} permutations).`,
    );
  return lines;
}

export interface Figure {
  file: string;
  title: string;
  spec: VegaLiteSpec;
}

export interface FigureOptions {
  /** Display names of agents (e.g. "GPT-5.4" for pricebench:gpt-5_4); others show their id. */
  names?: Readonly<Record<string, string>>;
  /** The user's own models: highlighted in every figure, placed first. */
  highlight?: ReadonlySet<string>;
}

/**
 * Price-decile utility curves (one panel per engaged agent), the price–quality map (labels that do
 * not collide, iso-WTP guides) and the WTP ranking with intervals. Position-locked agents are left
 * out (a locked fit is not a preference); the user's own models are highlighted.
 */
export function choiceFigures(analysis: ChoiceAnalysis, suffix = "", opts: FigureOptions = {}): Figure[] {
  const highlight = opts.highlight ?? new Set<string>();
  const yours = (agent: string) => highlight.has(agent);
  const nameOf = (agent: string) => `${opts.names?.[agent] ?? agent}${yours(agent) ? " (yours)" : ""}`;
  const engaged = analysis.agents.filter((a) => a.status === "engaged" && a.binary);
  const locked = analysis.agents.filter((a) => a.status === "locked").length;
  const lnp = (a: AgentChoiceAnalysis) => coefficient(a.binary!.log, "lnPrice")?.estimate ?? 0;
  const byPrice = [...engaged].sort(
    (a, b) => Number(yours(b.agent)) - Number(yours(a.agent)) || lnp(a) - lnp(b),
  );
  const panelOf = (agent: string) => wrapLabel(nameOf(agent), 22).join("|");
  const curveOf = (a: AgentChoiceAnalysis) => {
    const fit = a.binary!.deciles;
    if (fit.status !== "ok") return [];
    return analysis.decileMedians.map((x, d) => ({
      x,
      y: d === 0 ? 0 : (coefficient(fit, `priceD${d + 1}`)?.estimate ?? Number.NaN),
    }));
  };
  const reference = byPrice.find((a) => yours(a.agent));
  const referenceCurve = reference ? curveOf(reference) : [];
  const withCurves = byPrice.filter((a) => curveOf(a).length > 0);
  const curves = withCurves.flatMap((a) => [
    ...curveOf(a).map((p) => ({
      panel: panelOf(a.agent),
      ...p,
      role: "own" as const,
      highlight: yours(a.agent),
    })),
    ...(reference && a !== reference
      ? referenceCurve.map((p) => ({ panel: panelOf(a.agent), ...p, role: "reference" as const }))
      : []),
  ]);
  const notShown =
    locked > 0
      ? ` ${locked} position-locked agent${locked === 1 ? "" : "s"} not shown (not a preference).`
      : "";
  const map = engaged.flatMap((a) => {
    const p = coefficient(a.binary!.log, "lnPrice");
    const r = coefficient(a.binary!.log, "review");
    return p && r
      ? [
          {
            x: p.estimate,
            y: r.estimate,
            // A WTP needs a price weight below zero; otherwise say why there is none.
            label: `${nameOf(a.agent)} ${p.estimate < 0 ? dollars(a.wtp?.log?.estimate, false) : "(β ln p ≥ 0)"}`,
            group: a.wellIdentified ? "well identified" : "weak (p ≥ 0.001)",
            highlight: yours(a.agent),
          },
        ]
      : [];
  });
  const ranking = engaged.flatMap((a) => {
    const w = a.wtp?.log;
    if (!w || !a.wellIdentified) return [];
    const boot = analysis.bootstrap?.agents.find((b) => b.agent === a.agent)?.wtpLog;
    return [
      {
        label: nameOf(a.agent),
        estimate: w.estimate,
        low: boot?.low ?? w.ciLow,
        high: boot?.high ?? w.ciHigh,
        highlight: yours(a.agent),
        valueLabel: dollars(w.estimate, false),
      },
    ];
  });
  const ref = dollars(analysis.referencePrice, false);
  const interval = analysis.bootstrap
    ? `${Math.round(analysis.bootstrap.level * 100)}% pair-clustered bootstrap intervals, ${analysis.bootstrap.draws} draws`
    : "95% delta-method intervals";
  const prices = analysis.decileMedians.filter(Number.isFinite);
  const logScale = ranking.every((r) => r.low > 0 && r.estimate > 0);
  const ticks = [50, 100, 200, 400, 800, 1600].filter(
    (t) => prices.length > 0 && t >= Math.min(...prices) * 0.8 && t <= Math.max(...prices) * 1.25,
  );
  const guides = [100, 250, 500, 1000].map((w) => ({
    slope: -w / analysis.referencePrice,
    label: `${dollars(w, false)}`,
  }));
  return [
    {
      file: `decile-curves${suffix}.svg`,
      title: "Price-decile utility curves",
      spec: panelChart({
        title: "Utility by price decile, relative to the cheapest (D1 = 0)",
        subtitle: [
          `One panel per engaged agent, most price-sensitive first (by β ln p); shared axes; pooled decile cut points.`,
          `${reference ? `Dashed orange in every panel: ${nameOf(reference.agent)}.` : ""}${notShown}`,
        ].filter((l) => l.trim() !== ""),
        points: curves,
        panels: withCurves.map((a) => panelOf(a.agent)),
        xTitle: "median price in decile",
        yTitle: "utility vs D1",
        logX: true,
        xTicks: ticks,
      }),
    },
    {
      file: `price-quality-map${suffix}.svg`,
      title: "Price–quality map",
      spec: labelledScatter({
        title: `Price vs quality weights; labels: WTP per review point at ${ref}`,
        subtitle: `Dashed rays: equal WTP per review point (β review = −β ln p × WTP / ${ref}).${notShown}`,
        points: map,
        xTitle: "β ln price (more negative: more price-sensitive)",
        yTitle: "β review score (per point on the 0–10 scale)",
        guides,
        groups: ["well identified", "weak (p ≥ 0.001)"],
      }),
    },
    {
      file: `wtp-ranking${suffix}.svg`,
      title: "WTP ranking",
      spec: intervalChart({
        title: `WTP per review point at ${ref}, ${ranking.length} well-identified agents`,
        subtitle: `${interval}${logScale ? "; log scale" : ""}.`,
        rows: ranking,
        xTitle: `dollars per review-score point${logScale ? " (log scale)" : ""}`,
        logX: logScale,
      }),
    },
  ];
}

/** A markdown section for one analysis (tables, findings, figure links). */
export function choiceReport(analysis: ChoiceAnalysis, figures: readonly Figure[]): string[] {
  const agents = choiceAgentTable(analysis);
  const brand = choiceBrandTable(analysis);
  return [
    ...choiceSummaryLines(analysis).map((l) => `- ${l}`),
    "### Per agent",
    markdownTable(agents.header, agents.rows),
    "Stars: * p < 0.05, ** p < 0.01, *** p < 0.001 (model-based SEs). β price is per dollar; WTP is dollars per review-score point (0–10 scale).",
    "### Brand premiums (utils vs an independent hotel)",
    brand.rows.length ? markdownTable(brand.header, brand.rows) : "No engaged agent with binary answers.",
    "### Figures",
    ...figures.map((f) => `![${f.title}](${f.file})`),
  ];
}
