/**
 * The shop analysis as tables (terminal and markdown alike): outcomes, pass^k, violations, search
 * behaviour, the logit, the price-equivalents, the funnel, money and dominance — one row per agent
 * (or per coefficient for one agent's fit) — and, with offers in the design, the negotiation tables.
 */
import { dollars, fixed, percent, sig, stars } from "../report/format.ts";
import { normalQuantile } from "../stats/index.ts";
import type { ShopAgentAnalysis, ShopAnalysis } from "./analyze.ts";
import { descriptionTables } from "./arms-tables.ts";
import { type ShopTable, shareCell } from "./cells.ts";
import { MIN_VARYING_SITUATIONS, type PriceEquivalent } from "./logit.ts";
import { negotiationTables } from "./negotiation-tables.ts";

export { type ShopTable, shareCell };

/** "$-31 [-52, -10]" with the bootstrap interval when there is one. */
export function peCell(pe: PriceEquivalent | undefined, which: "delta" | "bootstrap" = "delta"): string {
  if (!pe) return "–";
  const iv = which === "bootstrap" && pe.bootstrap ? pe.bootstrap : { low: pe.low, high: pe.high };
  return `${dollars(pe.dollars, false)} [${dollars(iv.low, false)}, ${dollars(iv.high, false)}]`;
}

/** WTP per review point with its cluster-robust delta-method interval. */
function wtpCell(w: { estimate: number; se: number; robustSe?: number }, level: number): string {
  const z = normalQuantile(1 - (1 - level) / 2);
  const se = w.robustSe ?? w.se;
  return `${dollars(w.estimate, false)} [${dollars(w.estimate - z * se, false)}, ${dollars(w.estimate + z * se, false)}]`;
}

function logitNote(a: ShopAgentAnalysis): string {
  const l = a.logit;
  return l.status === "ok"
    ? `${l.situations} choice sets on ${l.tasks} tasks`
    : `${l.status.replace("-", " ")} (${l.problem})`;
}

export function outcomesTable(analysis: ShopAnalysis): ShopTable {
  return {
    title:
      "Task success (booked an admissible listing, or gave up when none existed; 95% task-clustered intervals)",
    header: [
      "agent",
      "episodes",
      "success",
      "open",
      "dominance",
      "needle",
      "infeasible",
      "correct give-up",
      "false give-up",
      "invalid",
    ],
    rows: analysis.agents.map((a) => {
      const o = a.outcomes;
      return [
        a.agent,
        String(a.episodes),
        shareCell(o.success),
        percent(o.byFamily.open.estimate),
        percent(o.byFamily.dominance.estimate),
        percent(o.byFamily.needle.estimate),
        percent(o.byFamily.infeasible.estimate),
        percent(o.correctGiveUp.estimate),
        percent(o.falseGiveUp.estimate),
        percent(o.nonResponse.estimate),
      ];
    }),
    note:
      analysis.agentErrors > 0
        ? `${analysis.agentErrors} episodes whose agent failed (missing data) are left out of every figure.`
        : undefined,
  };
}

export function passKTable(analysis: ShopAnalysis): ShopTable {
  const maxK = Math.max(0, ...analysis.agents.map((a) => a.passK.length));
  return {
    title: `pass^k: the chance that k trials of a task all succeed (C(c,k)/C(n,k) per task; task-bootstrap ${Math.round(100 * analysis.level)}% intervals)`,
    header: ["agent", ...Array.from({ length: maxK }, (_, i) => `k=${i + 1}`)],
    rows: analysis.agents.map((a) => [
      a.agent,
      ...Array.from({ length: maxK }, (_, i) => {
        const p = a.passK[i];
        if (!p) return "–";
        if (p.low === null)
          return `${percent(p.estimate)}${p.tasks < 2 ? ` (${p.tasks} task, no interval)` : ""}`;
        return `${percent(p.estimate)} [${(100 * p.low).toFixed(1)}, ${(100 * p.high!).toFixed(1)}]`;
      }),
    ]),
  };
}

export function violationsTable(analysis: ShopAnalysis): ShopTable {
  return {
    title: "Constraint violations: of the bookings on requests with the constraint, the share that broke it",
    header: ["agent", "price cap", "min stars", "area", "amenities", "invalid calls / episode"],
    rows: analysis.agents.map((a) => {
      const v = a.outcomes.violations;
      return [
        a.agent,
        shareCell(v.price),
        shareCell(v.stars),
        shareCell(v.area),
        shareCell(v.amenities),
        fixed(a.outcomes.meanInvalidCalls),
      ];
    }),
  };
}

export function behaviourTable(analysis: ShopAnalysis): ShopTable {
  return {
    title: "Search behaviour (per episode; filters: share of episodes using each at least once)",
    header: [
      "agent",
      "calls",
      "messages",
      "searches",
      "views",
      "parallel msgs",
      "area",
      "max price",
      "min stars",
      "amenities",
      "booked position",
      "page 1",
      "rank 1",
      "satisficing",
    ],
    rows: analysis.agents.map((a) => {
      const b = a.behaviour;
      return [
        a.agent,
        fixed(b.meanCalls, 1),
        fixed(b.meanMessages, 1),
        fixed(b.meanSearches, 1),
        fixed(b.meanViews, 1),
        percent(b.parallelMessageShare),
        percent(b.filters.area),
        percent(b.filters.maxPrice),
        percent(b.filters.minStars),
        percent(b.filters.amenities),
        fixed(b.booked.meanPosition, 1),
        percent(b.booked.firstPage),
        percent(b.booked.rankOne),
        percent(b.booked.satisficing),
      ];
    }),
    note: "sorts are in the JSON (--json); satisficing = booked the first admissible listing it was shown.",
  };
}

export function priceEquivalentTable(analysis: ShopAnalysis): ShopTable {
  const names = ["sponsored", "endorsed", "scarcity", "discount", "rank1", "laterPage"];
  const label = ["sponsored", "Guest favourite", "scarcity", "was-price", "rank 1 (vs 2)", "later page"];
  return {
    title: `Price-equivalents at ${dollars(analysis.referencePrice, false)} a night: the premium at which the treated listing is booked as often (cluster-robust delta-method 95% CI)`,
    header: ["agent", "WTP / review pt", ...label, "fit"],
    rows: analysis.agents.map((a) => {
      const l = a.logit;
      if (l.status !== "ok") return [a.agent, "–", ...names.map(() => "–"), logitNote(a)];
      const w = l.wtpReview;
      return [
        a.agent,
        w ? wtpCell(w, analysis.level) : "–",
        ...names.map((n) => peCell(l.priceEquivalents.find((p) => p.name === n))),
        logitNote(a),
      ];
    }),
    note:
      analysis.agents
        .flatMap((a) => (a.logit.status === "ok" ? [] : [`${a.agent}: ${a.logit.reason}`]))
        .join("\n") || undefined,
  };
}

/** One agent's fit: every coefficient, cluster-robust SE, and its price-equivalent. */
export function logitTable(a: ShopAgentAnalysis): ShopTable | null {
  const l = a.logit;
  if (l.status !== "ok") return null;
  const pes = new Map([...l.priceEquivalents, ...l.rankCurve, ...l.armEquivalents].map((p) => [p.name, p]));
  return {
    title: `${a.agent}: conditional logit over the admissible listings shown (${logitNote(a)}; SEs clustered by task)`,
    header: ["covariate", "β", "robust SE", "z", "$ equivalent [95% CI]", "bootstrap CI"],
    rows: l.fit.coefficients.map((c) => [
      c.name,
      `${sig(c.estimate)}${stars(c.robustP ?? c.p)}`,
      sig(c.robustSe ?? c.se),
      fixed(c.robustZ ?? c.z),
      pes.has(c.name) ? peCell(pes.get(c.name)) : "",
      pes.get(c.name)?.bootstrap ? peCell(pes.get(c.name), "bootstrap") : "",
    ]),
    note:
      [
        l.dropped.length > 0
          ? `not in the fit (varying within fewer than ${MIN_VARYING_SITUATIONS} choice sets): ${l.dropped.map((d) => `${d} (${l.varying[d]})`).join(", ")}`
          : "",
        ...Object.entries(l.separated).map(
          ([arm, how]) =>
            `not in the fit: ${arm} (${how === "never-booked" ? "never booked" : "always booked"} in the ${l.varying[arm as keyof typeof l.varying]} choice sets where it varies: no finite estimate)`,
        ),
      ]
        .filter(Boolean)
        .join("\n") || undefined,
  };
}

export function funnelTable(analysis: ShopAnalysis): ShopTable {
  const maxRank = Math.max(0, ...analysis.agents.map((a) => a.funnel.byRank.length));
  return {
    title: "Funnel: P(viewed | shown) by position on the page and by tag, and P(booked | viewed)",
    header: [
      "agent",
      ...Array.from({ length: maxRank }, (_, i) => `rank ${i + 1}`),
      "sponsored",
      "not sponsored",
      "booked | viewed",
    ],
    rows: analysis.agents.map((a) => {
      const f = a.funnel;
      const sp = f.byTag.find((t) => t.tag === "sponsored")!;
      return [
        a.agent,
        ...Array.from({ length: maxRank }, (_, i) => percent(f.byRank[i]?.rate)),
        percent(sp.tagged.rate),
        percent(sp.untagged.rate),
        percent(f.bookedGivenViewed.rate),
      ];
    }),
  };
}

export function moneyTable(analysis: ShopAnalysis): ShopTable {
  return {
    title:
      "Money and rationality: price paid against the cheapest admissible and the best by the agent's own fitted tastes; dominated bookings",
    header: [
      "agent",
      "bookings",
      "mean paid",
      "over cheapest",
      "over best (own tastes)",
      "not best",
      "dominated booked (dominance tasks)",
      "dominated bookings",
    ],
    rows: analysis.agents.map((a) => [
      a.agent,
      String(a.money.bookings),
      dollars(a.money.meanPaid),
      dollars(a.money.meanOverCheapest),
      dollars(a.money.meanOverBest),
      percent(a.money.notBestShare),
      shareCell(a.dominance.bookedDominated),
      shareCell(a.dominance.dominatedBookings),
    ]),
  };
}

export function shopTables(analysis: ShopAnalysis): ShopTable[] {
  return [
    outcomesTable(analysis),
    passKTable(analysis),
    violationsTable(analysis),
    behaviourTable(analysis),
    priceEquivalentTable(analysis),
    ...analysis.agents.flatMap((a) => logitTable(a) ?? []),
    funnelTable(analysis),
    moneyTable(analysis),
    ...descriptionTables(analysis),
    ...(analysis.negotiation ? negotiationTables(analysis.negotiation) : []),
  ];
}
