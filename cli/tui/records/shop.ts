/**
 * Shop episodes (`env: "shop"`, environments/shop/record.ts) as the terminal shows them: the
 * request with its constraints, each tool call with a one-line result, and the booked listing with
 * ✓/✗ per constraint. `ShopRecordSchema` is the only place that names record fields.
 */
import { z } from "zod";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { requirementLines } from "../../../environments/shop/prompt.ts";
import { count, pct } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  nonResponseOf,
  str,
  type TrialRecord,
} from "./types.ts";

const ShopRecordSchema = z.looseObject({
  seq: z.number().int(),
  agent: z.string(),
  taskId: z.string(),
  family: z.string(),
  request: z.looseObject({
    constraints: z.object({
      maxPrice: z.number().nullable(),
      minStars: z.number().nullable(),
      areas: z.array(z.string()).nullable(),
      amenities: z.array(z.enum(["free_cancellation", "breakfast"])),
    }),
    wishes: z.array(z.string()).optional(),
  }),
  booked: z
    .looseObject({
      id: z.string(),
      name: z.string(),
      price: z.number(),
      stars: z.number(),
      area: z.string(),
      page: z.number(),
      rank: z.number(),
    })
    .nullable(),
  endReason: z.string(),
  success: z.boolean(),
  constraints: z.record(z.string(), z.boolean()).nullable(),
  admissibleCount: z.number(),
  cheapestAdmissible: z.number().nullable(),
  shown: z.array(z.looseObject({ viewed: z.boolean() })),
  trajectory: z.array(
    z.looseObject({
      step: z.number().nullable(),
      turn: z.number(),
      tool: z.string(),
      args: z.unknown(),
      ok: z.boolean(),
      summary: z.string(),
    }),
  ),
  giveUpReason: z.string().nullable().optional(),
  nonResponse: z.object({ reason: z.string(), raw: z.string() }).nullable().optional(),
});

export interface ShopCallLine {
  step: number | null;
  turn: number;
  tool: string;
  /** The arguments as one line of JSON. */
  args: string;
  ok: boolean;
  summary: string;
}

export interface ShopEpisodeModel extends EpisodeBase {
  kind: "shop";
  taskId: string;
  family: string;
  /** The request's requirement lines ("- Price: at most $250 a night", …) and wishes. */
  request: string[];
  calls: ShopCallLine[];
  endReason: string;
  success: boolean;
  booked: {
    id: string;
    name: string;
    price: number;
    stars: number;
    area: string;
    page: number;
    rank: number;
    /** Per constraint of the request: whether the booking meets it. */
    checks: { label: string; met: boolean }[];
  } | null;
  giveUpReason: string | null;
  nonResponse: { reason: string; raw: string } | null;
  admissibleCount: number;
  cheapestAdmissible: number | null;
  shown: number;
  viewed: number;
}

const CHECK_LABELS: Readonly<Record<string, string>> = {
  price: "price cap",
  stars: "min stars",
  area: "area",
  amenities: "amenities",
};

function oneLine(args: unknown): string {
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    return String(args);
  }
}

function shopModel(r: TrialRecord): ShopEpisodeModel | { mismatch: string } {
  const p = ShopRecordSchema.safeParse(r);
  if (!p.success) {
    const i = p.error.issues[0];
    return { mismatch: `shop record field ${i?.path.join(".") || "?"}: ${i?.message ?? "unreadable"}` };
  }
  const s = p.data;
  const wishes = s.request.wishes ?? [];
  return {
    kind: "shop",
    seq: s.seq,
    agent: s.agent,
    env: "shop",
    steps: Math.max(1, s.trajectory.length),
    taskId: s.taskId,
    family: s.family,
    request: [
      ...requirementLines(s.request.constraints),
      ...(wishes.length > 0 ? [`Nice to have: ${wishes.join("; ")}`] : []),
    ],
    calls: s.trajectory.map((t) => ({ ...t, args: oneLine(t.args) })),
    endReason: s.endReason,
    success: s.success,
    booked: s.booked
      ? {
          id: s.booked.id,
          name: s.booked.name,
          price: s.booked.price,
          stars: s.booked.stars,
          area: s.booked.area,
          page: s.booked.page,
          rank: s.booked.rank,
          checks: Object.entries(s.constraints ?? {}).map(([k, met]) => ({
            label: CHECK_LABELS[k] ?? k,
            met,
          })),
        }
      : null,
    giveUpReason: s.giveUpReason ?? null,
    nonResponse: s.nonResponse ?? null,
    admissibleCount: s.admissibleCount,
    cheapestAdmissible: s.cheapestAdmissible,
    shown: s.shown.length,
    viewed: s.shown.filter((x) => x.viewed).length,
  };
}

/** "booked $249 ✓", "booked $310 ✗", "gave up ✓", "out of steps", "invalid". */
export function shopOutcomeLabel(endReason: string, success: boolean, price: number | null): string {
  const mark = success ? "✓" : "✗";
  if (endReason === "booked") return `booked ${price === null ? "" : `${formatPrice(price)} `}${mark}`;
  if (endReason === "gave-up") return `gave up ${mark}`;
  return endReason.replace("-", " ");
}

function shopSummary(r: TrialRecord): EpisodeSummary {
  const booked = r.booked as { name?: unknown; price?: unknown } | null | undefined;
  const reason = nonResponseOf(r)?.reason ?? null;
  const endReason = str(r, "endReason");
  const trajectory = Array.isArray(r.trajectory) ? r.trajectory.length : 0;
  return {
    seq: Number(r.seq),
    agent: str(r, "agent"),
    outcome: shopOutcomeLabel(
      endReason,
      r.success === true,
      typeof booked?.price === "number" ? booked.price : null,
    ),
    detail: `${str(r, "family")} · ${typeof booked?.name === "string" ? booked.name : (reason ?? str(r, "giveUpReason"))} · ${trajectory} calls`,
    nonResponse: endReason === "invalid" || endReason === "agent-error",
    steps: Math.max(1, trajectory),
    error: agentErrorOf(reason),
  };
}

export interface ShopStats {
  episodes: number;
  successes: number;
  invalid: number;
  calls: number;
  bookings: number;
  rankOne: number;
  byFamily: Record<string, { n: number; ok: number }>;
}

export const shopAdapter: EnvAdapter<ShopEpisodeModel, ShopStats> = {
  env: "shop",
  model: shopModel,
  summary: shopSummary,
  status: (r) => ({
    nonResponse: r.endReason === "invalid" || r.endReason === "agent-error",
    error: agentErrorOf(nonResponseOf(r)?.reason),
  }),
  stats: {
    init: () => ({ episodes: 0, successes: 0, invalid: 0, calls: 0, bookings: 0, rankOne: 0, byFamily: {} }),
    add(s, r) {
      s.episodes++;
      if (r.success === true) s.successes++;
      if (r.endReason === "invalid") s.invalid++;
      if (typeof r.steps === "number") s.calls += r.steps;
      const b = r.booked as { page?: unknown; rank?: unknown } | null | undefined;
      if (b) {
        s.bookings++;
        if (b.page === 1 && b.rank === 1) s.rankOne++;
      }
      const f = String(r.family ?? "?");
      const g = s.byFamily[f] ?? { n: 0, ok: 0 };
      s.byFamily[f] = g;
      g.n++;
      if (r.success === true) g.ok++;
    },
    clone: (s) => ({
      ...s,
      byFamily: Object.fromEntries(Object.entries(s.byFamily).map(([k, v]) => [k, { ...v }])),
    }),
    view: (s) => ({
      title: "running shop success",
      lines: [
        {
          label: "success",
          value: `${pct(s.successes / s.episodes)} of ${count(s.episodes)} episodes (${count(s.invalid)} invalid)`,
        },
        {
          label: "by family",
          value:
            Object.entries(s.byFamily)
              .map(([f, g]) => `${f} ${pct(g.ok / g.n)}`)
              .join(" · ") || "—",
        },
        {
          label: "search",
          value: `${(s.calls / s.episodes || 0).toFixed(1)} calls per episode · rank 1 booked ${pct(s.rankOne / s.bookings)}`,
        },
      ],
    }),
  },
  // The stored outcome is the environment's ShopOutcome and the family is part of the task, so
  // SQLite finds the matches.
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "ending",
      values: ["booked", "gave-up", "out-of-steps", "invalid", "agent-error"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "result" as const, path: "$.outcome.endReason", op: "=" as const, value: v }],
      })),
    },
    {
      // `kind` so that `bazaar watch --kind needle` picks a task family.
      key: "kind",
      hotkey: "k",
      label: "family",
      values: ["open", "dominance", "needle", "infeasible"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "task" as const, path: "$.family", op: "=" as const, value: v }],
      })),
    },
  ],
};

/** The episode in full as plain lines (`watch` without a terminal): request, every call, the outcome. */
export function shopPlainLines(m: ShopEpisodeModel): string[] {
  const out = [`task ${m.taskId} · ${m.family}`, ...m.request];
  for (const c of m.calls)
    out.push(
      `${c.step === null ? "not run" : `call ${c.step}`} (message ${c.turn}): ${c.tool || "(no call)"}(${c.args}) → ${c.summary}`,
    );
  const b = m.booked;
  if (b)
    out.push(
      `booked ${b.id} ${b.name} · ${formatPrice(b.price)} · ${b.stars}★ · ${b.area} (page ${b.page}, rank ${b.rank}) · ${b.checks.map((c) => `${c.label} ${c.met ? "met" : "NOT met"}`).join(", ") || "no hard constraint"}`,
    );
  else
    out.push(
      `${m.endReason}${m.giveUpReason ? `: ${m.giveUpReason}` : ""}${m.nonResponse ? `: ${m.nonResponse.reason}` : ""}`,
    );
  out.push(`${m.success ? "success" : "failure"} · ${m.admissibleCount} admissible in the catalog`);
  return out;
}
