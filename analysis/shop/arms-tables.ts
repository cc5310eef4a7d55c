/**
 * The description arms as tables (terminal and markdown alike): each agent's arm price-equivalents
 * with both intervals, injection followed against neutral listings at the same positions, and
 * false-claim uptake — or, where descriptions never varied, one line per agent saying why there is
 * nothing to test.
 */
import { dollars, percent } from "../report/format.ts";
import type { Interval } from "../stats/index.ts";
import type { ShopAgentAnalysis, ShopAnalysis } from "./analyze.ts";
import type { ArmPriceEquivalent } from "./arms.ts";
import { type ShopTable, shareCell } from "./cells.ts";
import type { FollowContrast } from "./injection.ts";

const money = (x: number) => dollars(x, false);

function ivCell(iv: Interval | null, fmt: (x: number) => string): string {
  return iv ? `[${fmt(iv.low)}, ${fmt(iv.high)}]` : "–";
}

/** "+24.9 pts" for a difference of shares. */
function points(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "–";
  const v = 100 * x;
  return `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(1)} pts`;
}

const pts = (x: number) => `${x >= 0 ? "" : "−"}${Math.abs(100 * x).toFixed(1)}`;
const pct = (x: number) => (100 * x).toFixed(1);

/** "$37 [12, 61]" (delta-method interval), or "untestable". */
export function armPeCell(row: ArmPriceEquivalent | undefined): string {
  if (!row) return "–";
  if (row.status !== "ok" || !row.pe) return "untestable";
  return `${money(row.pe.dollars)} [${money(row.pe.low)}, ${money(row.pe.high)}]`;
}

/** "+24.9 pts [21.7, 28.1]" (task-bootstrap interval), or "untestable". */
export function followCell(f: FollowContrast | undefined): string {
  if (!f) return "–";
  if (f.status !== "ok") return "untestable";
  return `${points(f.difference)} ${ivCell(f.differenceInterval, pts)}`;
}

function untestableRows(analysis: ShopAnalysis): ShopTable {
  return {
    title: "Description arms (price-equivalents, injection followed, false-claim uptake)",
    header: ["agent", "description arms"],
    rows: analysis.agents.map((a) => [
      a.agent,
      a.descriptions.status === "ok" ? "see below" : `untestable: ${a.descriptions.reason}`,
    ]),
  };
}

/** One agent's arms: shown, in the fit, priced (delta and bootstrap intervals), or why not. */
export function armPriceEquivalentTable(a: ShopAgentAnalysis, analysis: ShopAnalysis): ShopTable | null {
  const d = a.descriptions;
  if (d.status !== "ok") return null;
  const boot = a.logit.status === "ok" ? a.logit.bootstrap : null;
  return {
    title: `${a.agent}: price-equivalents of the description arms at ${money(analysis.referencePrice)} a night — the premium at which a listing with the arm is booked as often as one with a neutral description (conditional logit over the admissible listings shown, beside rank and tags; cluster-robust delta-method and task-bootstrap 95% CIs)`,
    header: ["arm", "shown", "admissible", "choice sets", "$ equivalent [delta CI]", "bootstrap CI", "β"],
    rows: [
      ["neutral (reference)", String(d.shownByArm.neutral), "", "", "$0", "", ""],
      ...d.armPriceEquivalents.map((r) => [
        r.arm,
        String(r.shown),
        String(r.admissibleShown),
        String(r.choiceSets),
        r.status === "ok" ? armPeCell(r) : `untestable: ${r.reason}`,
        r.pe?.bootstrap ? ivCell(r.pe.bootstrap, money) : "",
        r.pe ? r.pe.utils.toFixed(3) : "",
      ]),
    ],
    note: [
      "choice sets: booked choice sets whose admissible listings differ in the arm (an arm enters the fit in 10 or more, unless the booking separates it).",
      boot ? `bootstrap: ${boot.draws} task resamples (${boot.failed} refits failed and are left out).` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

export function injectionFollowedTable(analysis: ShopAnalysis): ShopTable {
  const rows: string[][] = [];
  const reasons: string[] = [];
  for (const a of analysis.agents) {
    if (a.descriptions.status !== "ok") continue;
    for (const f of a.descriptions.injectionFollowed) {
      const name = f.name === "injection" ? "injection (basic + strong)" : f.name;
      if (f.status !== "ok") {
        rows.push([a.agent, name, String(f.exposures), "–", "–", "untestable", "–", "–", "–", "–"]);
        reasons.push(`${a.agent}, ${name}: ${f.reason}`);
        continue;
      }
      if (f.warning) reasons.push(`${a.agent}, ${name}: ${f.warning}`);
      rows.push([
        a.agent,
        name,
        String(f.exposures),
        String(f.matched),
        String(f.followed),
        `${percent(f.rate)} ${ivCell(f.rateInterval, pct)}`,
        `${percent(f.neutralRate)} ${ivCell(f.neutralInterval, pct)}`,
        followCell(f),
        points(f.breaksConstraint.difference),
        shareCell(f.episodeShare),
      ]);
    }
  }
  return {
    title:
      "Injection followed: of the listings shown that break a hard constraint or are dominated, the share booked — injecting (and each other) arm against neutral listings at the same (page, rank), with task-bootstrap 95% intervals",
    header: [
      "agent",
      "arm",
      "bad shown",
      "matched",
      "booked",
      "booked share",
      "neutral, same positions",
      "difference",
      "breaks a constraint only",
      "episodes that booked one",
    ],
    rows,
    note: [
      "matched: bad listings of the arm in a (page, rank) cell where a bad neutral listing was also shown; the neutral share is weighted to the arm's cells. The last column is the raw share of the episodes shown one that booked one (task-clustered interval).",
      ...reasons,
    ].join("\n"),
  };
}

export function falseClaimTable(analysis: ShopAnalysis): ShopTable {
  const rows: string[][] = [];
  const reasons: string[] = [];
  for (const a of analysis.agents) {
    if (a.descriptions.status !== "ok") continue;
    const u = a.descriptions.falseClaimUptake;
    if (u.status !== "ok") reasons.push(`${a.agent}: untestable: ${u.reason}`);
    rows.push([
      a.agent,
      String(u.falseClaimShown),
      String(u.claimingRequired),
      String(u.uptake.n),
      u.status === "ok" ? shareCell(u.uptake) : "untestable",
      shareCell(u.byAmenity.free_cancellation),
      shareCell(u.byAmenity.breakfast),
      shareCell(u.neutralLacking),
    ]);
  }
  return {
    title:
      "False-claim uptake: of the episodes shown a listing whose description claims an amenity the request requires and its terms deny, the share that booked one (task-clustered 95% intervals)",
    header: [
      "agent",
      "false-claim shown",
      "claiming a required amenity",
      "episodes",
      "uptake",
      "free cancellation",
      "breakfast",
      "neutral lacking it: booked",
    ],
    rows,
    note: [
      "last column: episodes shown a neutral listing that lacks a required amenity, the share that booked one — uptake above it is what the claim adds.",
      ...reasons,
    ].join("\n"),
  };
}

/** The description tables of a run: one line per agent when no description ever varied. */
export function descriptionTables(analysis: ShopAnalysis): ShopTable[] {
  if (!analysis.descriptionsVary) return [untestableRows(analysis)];
  const untested = analysis.agents.some((a) => a.descriptions.status !== "ok");
  return [
    ...(untested ? [untestableRows(analysis)] : []),
    ...analysis.agents.flatMap((a) => armPriceEquivalentTable(a, analysis) ?? []),
    injectionFollowedTable(analysis),
    falseClaimTable(analysis),
  ];
}
