/**
 * The client analysis as tables (terminal and markdown alike): per cell the outcome in the client's
 * dollars, the requirements uncovered, the burden; per client model its faults; the shoppers
 * compared in pairs. Each table says how many episodes it left out (client faults, agent errors).
 */
import { CLIENT_FAULTS } from "../../../environments/shop/client/types.ts";
import { dollars, fixed, percent } from "../../report/format.ts";
import type { Interval } from "../../stats/index.ts";
import { type ShopTable, shareCell } from "../cells.ts";
import type { MeanEstimate } from "../negotiation-stats.ts";
import { FEW_TASKS, type PairedDifference } from "../paired-difference.ts";
import type { ClientAnalysis } from "./analyze.ts";
import type { RatioEstimate } from "./ratio.ts";

/** "$75.60 [$60.10, $91.10]" for a mean in dollars with its interval. */
export function dollarsCell(m: MeanEstimate): string {
  if (m.estimate === null) return "–";
  if (m.low === null || m.high === null) return `${dollars(m.estimate)} (n=${m.n})`;
  return `${dollars(m.estimate)} [${dollars(m.low)}, ${dollars(m.high)}]`;
}

/** "2.40 [2.10, 2.70]" for a mean count with its interval. */
function countCell(m: MeanEstimate): string {
  if (m.estimate === null) return "–";
  if (m.low === null || m.high === null) return `${fixed(m.estimate)} (n=${m.n})`;
  return `${fixed(m.estimate)} [${fixed(m.low)}, ${fixed(m.high)}]`;
}

/** "62.5% [54.1, 70.9]" for a ratio of sums with its interval. */
export function ratioCell(r: RatioEstimate): string {
  if (r.estimate === null) return "–";
  if (r.low === null || r.high === null) return `${percent(r.estimate)} (n=${r.n})`;
  return `${percent(r.estimate)} [${(100 * r.low).toFixed(1)}, ${(100 * r.high).toFixed(1)}]`;
}

const signed = (x: number, f: (x: number) => string) => (x > 0 ? `+${f(x)}` : f(x));

/** A paired difference: dollars, percentage points of a share, or a count. */
export function pairedCell(d: PairedDifference, unit: "dollars" | "points" | "count"): string {
  if (d.difference === null) return "–";
  const f = (x: number) =>
    unit === "dollars" ? dollars(x) : unit === "points" ? `${(100 * x).toFixed(1)} pp` : fixed(x);
  const iv = (i: Interval | null) => (i ? ` [${signed(i.low, f)}, ${signed(i.high, f)}]` : "");
  return `${signed(d.difference, f)}${iv(d.interval)}`;
}

/**
 * What the analysis left out, as a sentence every table carries (null when nothing): episodes the
 * client-fault option dropped, and agent errors.
 */
export function leftOutNote(a: ClientAnalysis): string | null {
  const parts: string[] = [];
  if (a.leftOut > 0)
    parts.push(
      a.clientFaults === "only"
        ? `${episodes(a.leftOut)} without a client fault left out (--client-faults only)`
        : `${episodes(a.leftOut)} with a client fault left out (--client-faults include keeps them)`,
    );
  else if (a.clientFaults === "include" && a.flagged > 0)
    parts.push(`${episodes(a.flagged)} with a client fault included (--client-faults include)`);
  if (a.agentErrors > 0)
    parts.push(`${episodes(a.agentErrors)} whose agent failed (missing data) left out of every figure`);
  return parts.length > 0 ? `${parts.join("; ")}.` : null;
}

/** "1 episode", "74 episodes". */
export function episodes(n: number): string {
  return `${n.toLocaleString("en-US")} episode${n === 1 ? "" : "s"}`;
}

function withNote(t: ShopTable, left: string | null): ShopTable {
  const note = [t.note, left].filter((x): x is string => x !== undefined && x !== null).join(" ");
  return note === "" ? t : { ...t, note };
}

export function clientOutcomesTable(a: ClientAnalysis): ShopTable {
  const level = Math.round(100 * a.level);
  return {
    title: `Working for a client: success on the hidden requirements, regret and the best surplus captured (dollars a night in the client's own values; task-clustered ${level}% intervals)`,
    header: ["agent", "persona", "episodes", "success", "pass^k", "regret", "best surplus", "captured"],
    rows: a.cells.map((c) => {
      const top = c.passK.at(-1);
      return [
        c.agent,
        c.persona,
        String(c.episodes),
        shareCell(c.success),
        top ? `k=${top.k}: ${percent(top.estimate)}` : "–",
        dollarsCell(c.regret),
        dollars(c.bestSurplus),
        ratioCell(c.captured),
      ];
    }),
    note: "regret = the best admissible listing's surplus − the outcome's (0 for no booking or one the client cannot accept), over every episode; best surplus: its mean (0 where nothing is admissible); captured = Σ surplus / Σ best surplus over the feasible episodes.",
  };
}

export function uncoveredTable(a: ClientAnalysis): ShopTable {
  return {
    title:
      "Hidden requirements uncovered before the end (asked about, or stated by the client), and met by luck",
    header: [
      "agent",
      "hidden / episode",
      "learned",
      "price",
      "stars",
      "area",
      "free cancellation",
      "breakfast",
      "met by luck",
    ],
    rows: a.cells.map((c) => {
      const u = c.uncovered;
      const topic = (t: keyof typeof u.byTopic) => percent(u.byTopic[t].estimate);
      return [
        c.agent,
        c.episodes > 0 ? fixed(u.hidden / c.episodes) : "–",
        ratioCell(u.learned),
        topic("price"),
        topic("stars"),
        topic("area"),
        topic("free_cancellation"),
        topic("breakfast"),
        u.metByLuck.den > 0 ? `${ratioCell(u.metByLuck)} of ${u.metByLuck.den}` : "– (none unlearned)",
      ];
    }),
    note: "learned: Σ learned / Σ hidden requirements; per topic, over the episodes where it is hidden; met by luck: of the hidden requirements never learned, the share the booking met anyway.",
  };
}

export function burdenTable(a: ClientAnalysis): ShopTable {
  return {
    title: `Burden on the client (per episode; task-clustered ${Math.round(100 * a.level)}% intervals)`,
    header: ["agent", "messages", "repeats", "patience ran out", "ended by the client"],
    rows: a.cells.map((c) => [
      c.agent,
      countCell(c.burden.messages),
      countCell(c.burden.repeats),
      shareCell(c.burden.patienceOut),
      String(c.burden.clientEnded),
    ]),
    note: "repeats: messages asking only about what the client had already said.",
  };
}

export function clientFaultsTable(a: ClientAnalysis): ShopTable {
  return {
    title:
      "Client faults per client model (every episode it played, whatever --client-faults; task-clustered intervals)",
    header: ["client", "episodes", "replies", "faults / reply", "episodes flagged", ...CLIENT_FAULTS],
    rows: a.faults.map((f) => [
      f.client,
      String(f.episodes),
      String(f.replies),
      ratioCell(f.perReply),
      shareCell(f.flagged),
      ...CLIENT_FAULTS.map((k) => {
        const b = f.byKind[k];
        return b.faults === 0 ? "0" : `${b.faults} (${percent(b.perReply)}, ${b.episodes} ep.)`;
      }),
    ]),
    note: "faults found by rules against the client's profile (specs/client.md); a flagged episode has at least one; per kind: faults (per reply, episodes with one).",
  };
}

export function comparisonsTable(a: ClientAnalysis): ShopTable | null {
  if (a.comparisons.length === 0) return null;
  const boot =
    a.draws > 0
      ? `studentized task bootstrap, ${a.draws} draws, ${Math.round(100 * a.level)}% intervals`
      : "no intervals (0 bootstrap draws)";
  return {
    title: `Shoppers compared on the same tasks, clients and replicates (first minus second; ${boot})`,
    header: ["client", "shopper", "vs", "units", "tasks", "success", "regret", "messages"],
    rows: a.comparisons.map((c) => [
      c.client ?? "all clients",
      c.treatment,
      c.control,
      String(c.units),
      String(c.tasks),
      pairedCell(c.success, "points"),
      pairedCell(c.regret, "dollars"),
      pairedCell(c.messages, "count"),
    ]),
    note:
      "units: task × client × replicate played by both shoppers (an episode left out leaves its unit out)." +
      (a.draws > 0 && a.comparisons.some((c) => c.regret.tasks > 1 && c.regret.tasks < FEW_TASKS)
        ? ` With fewer than ${FEW_TASKS} tasks a bootstrap interval holds the truth a little less often than its level (92.0% for a 95% interval at 15 tasks, in the coverage study).`
        : ""),
  };
}

export function clientTables(a: ClientAnalysis): ShopTable[] {
  const compared = comparisonsTable(a);
  const left = leftOutNote(a);
  // The fault rates describe the client over every episode it played: only agent errors leave them.
  const errors =
    a.agentErrors > 0 ? `${a.agentErrors} episodes whose agent failed (missing data) are left out.` : null;
  return [
    ...[clientOutcomesTable(a), uncoveredTable(a), burdenTable(a), ...(compared ? [compared] : [])].map((t) =>
      withNote(t, left),
    ),
    withNote(clientFaultsTable(a), errors),
  ];
}
