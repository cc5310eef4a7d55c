/**
 * Bargaining (`env: "bargain"`) as the terminal shows it, read from the session export contract at
 * the end of specs/bargain.md. `BargainRecordSchema` is the only place that names record fields: if
 * the environment renames one, change the key here and every view follows.
 */
import { z } from "zod";
import {
  fallbackText,
  MOSTLY_TEMPLATE,
  type NarratorInput,
  type NarratorUse,
  narratorUse,
} from "../../../analysis/bargain/narrator.ts";
import { scoreSession } from "../../../analysis/bargain/session.ts";
import { judgeAction } from "../../../environments/bargain/judge.ts";
import { PAIR_SEPARATOR } from "../../../environments/bargain/record.ts";
import type { BargainRole, EndReason } from "../../../environments/bargain/types.ts";
import { count, pct, usd } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  type LiveEpisodeState,
  str,
  type TrialRecord,
} from "./types.ts";

const money = z.number().finite();

const TranscriptEntrySchema = z.looseObject({
  turn: z.number().int(),
  role: z.string(),
  action: z.string(),
  price: money.nullable().optional(),
  talk: z.string().nullable().optional(),
});

/** The fields of a bargaining session record this view reads (more may be present). */
export const BargainRecordSchema = z.looseObject({
  seq: z.number().int(),
  agent: z.string().optional(),
  scenarioId: z.string(),
  buyer: z.string(),
  seller: z.string(),
  product: z.looseObject({ title: z.string(), category: z.string().optional() }),
  listedPrice: money,
  budget: money,
  cost: money,
  interest: z.enum(["MI", "CI"]),
  outcome: z.enum(["deal", "no-deal", "invalid"]),
  endedBy: z.string(),
  invalidSide: z.enum(["buyer", "seller"]).nullable(),
  invalidReason: z.string().nullable().optional(),
  dealPrice: money.nullable(),
  turns: z.number().int().nonnegative(),
  transcript: z.array(TranscriptEntrySchema),
});
export type BargainRecord = z.infer<typeof BargainRecordSchema>;

export interface BargainMessage {
  turn: number;
  role: string;
  /** The action as the paper's format names it: BUY, SELL, DEAL, REJECT, QUIT (or INVALID). */
  action: string;
  price: number | null;
  talk: string;
}

export interface BargainProfits {
  buyer: number;
  seller: number;
  normalizedBuyer: number;
  normalizedSeller: number;
}

export interface BargainEpisodeModel extends EpisodeBase {
  kind: "bargain";
  scenarioId: string;
  buyer: string;
  seller: string;
  product: string;
  category: string;
  listedPrice: number;
  budget: number;
  cost: number;
  interest: "MI" | "CI";
  outcome: "deal" | "no-deal" | "invalid";
  endedBy: string;
  invalidSide: "buyer" | "seller" | null;
  invalidReason: string | null;
  dealPrice: number | null;
  messages: BargainMessage[];
  /** Profits of a deal; null without one. */
  profits: BargainProfits | null;
}

/** What scoring reads of a session (the export contract's field names). */
type Scorable = Pick<
  BargainRecord,
  | "scenarioId"
  | "buyer"
  | "seller"
  | "budget"
  | "cost"
  | "outcome"
  | "endedBy"
  | "invalidSide"
  | "dealPrice"
  | "turns"
>;

/**
 * Raw and normalized profits of a valid deal, scored by the bargaining analysis itself. The view
 * reads `endedBy` as any text (a new reason must not blank the view); scoring only tells fake deals
 * from action errors by it.
 */
export function bargainProfits(r: Scorable): BargainProfits | null {
  // The fields one by one: a record spread into the input would copy its transcript and every other
  // field, for every trial of a live run.
  const scored = scoreSession({
    scenarioId: r.scenarioId,
    buyer: r.buyer,
    seller: r.seller,
    replicate: 0,
    budget: r.budget,
    cost: r.cost,
    outcome: r.outcome,
    endedBy: r.endedBy as EndReason,
    invalidSide: r.invalidSide,
    dealPrice: r.dealPrice,
    turns: r.turns,
  });
  if (!scored.deal) return null;
  return {
    buyer: scored.buyerProfit ?? 0,
    seller: scored.sellerProfit ?? 0,
    normalizedBuyer: scored.buyerNormalized ?? 0,
    normalizedSeller: scored.sellerNormalized ?? 0,
  };
}

/** An offer is BUY from the buyer and SELL from the seller, as in the paper's action format. */
function actionLabel(role: string, action: string): string {
  if (action === "offer") return role === "seller" ? "SELL" : "BUY";
  return action.toUpperCase();
}

function bargainModel(r: TrialRecord): BargainEpisodeModel | { mismatch: string } {
  const p = BargainRecordSchema.safeParse(r);
  if (!p.success) {
    const i = p.error.issues[0];
    return { mismatch: `bargain record field ${i?.path.join(".") || "?"}: ${i?.message ?? "unreadable"}` };
  }
  const b = p.data;
  return {
    kind: "bargain",
    seq: b.seq,
    agent: b.agent ?? `${b.buyer} vs ${b.seller}`,
    env: "bargain",
    steps: Math.max(1, b.transcript.length),
    scenarioId: b.scenarioId,
    buyer: b.buyer,
    seller: b.seller,
    product: b.product.title,
    category: b.product.category ?? "",
    listedPrice: b.listedPrice,
    budget: b.budget,
    cost: b.cost,
    interest: b.interest,
    outcome: b.outcome,
    endedBy: b.endedBy,
    invalidSide: b.invalidSide,
    invalidReason: b.invalidReason ?? null,
    dealPrice: b.dealPrice,
    messages: b.transcript.map((m) => ({
      turn: m.turn,
      role: m.role,
      action: actionLabel(m.role, m.action),
      price: m.price ?? null,
      talk: m.talk ?? "",
    })),
    profits: bargainProfits(b),
  };
}

function outcomeLabel(outcome: string, endedBy: string, dealPrice: number | null): string {
  if (outcome === "deal") return `deal ${usd(dealPrice)}`;
  if (outcome === "invalid") return `invalid (${endedBy})`;
  return `no deal (${endedBy})`;
}

function bargainSummary(r: TrialRecord): EpisodeSummary {
  const outcome = str(r, "outcome");
  const dealPrice = typeof r.dealPrice === "number" ? r.dealPrice : null;
  const product = (r.product as { title?: unknown } | undefined)?.title;
  const endedBy = str(r, "endedBy");
  return {
    seq: Number(r.seq),
    agent: str(r, "agent") || `${str(r, "buyer")} vs ${str(r, "seller")}`,
    outcome: outcomeLabel(outcome, endedBy, dealPrice),
    detail: `${str(r, "interest")} · ${typeof product === "string" ? product : str(r, "scenarioId")}${outcome === "invalid" && r.invalidReason ? ` · ${str(r, "invalidReason")}` : ""}`,
    nonResponse: outcome === "invalid",
    steps: Math.max(1, Array.isArray(r.transcript) ? r.transcript.length : 1),
    error: agentErrorOf(str(r, "invalidReason")),
  };
}

export interface BargainStats {
  sessions: number;
  invalid: number;
  deals: number;
  mi: { valid: number; deals: number };
  ci: { valid: number; deals: number };
  sumBuyer: number;
  sumSeller: number;
  snpBuyer: number;
  snpSeller: number;
  /** An LLM narrator's turns and template fallbacks so far; null for other buyers. */
  narrator: NarratorUse | null;
}

/** The task fields a session in flight is drawn from (the bargaining task, environments/bargain). */
const LiveTaskSchema = z.looseObject({
  scenarioId: z.string(),
  product: z.looseObject({ title: z.string(), category: z.string().optional() }),
  listedPrice: money,
  budget: money,
  cost: money,
  interest: z.enum(["MI", "CI"]),
});

/** A session in flight: its dialogue and price ladder so far, from the turns (buyer first, alternating). */
function bargainLive(e: LiveEpisodeState, task: unknown): BargainEpisodeModel | { mismatch: string } {
  const t = LiveTaskSchema.safeParse(task);
  if (!t.success) return { mismatch: "no bargaining task for this episode" };
  const [buyer, seller] = e.agent.split(PAIR_SEPARATOR);
  const messages: BargainMessage[] = e.turns.map((turn) => {
    // Read as the environment reads it: a tool call, or the paper's Thought/Talk/Action text.
    const j = turn.error ? null : judgeAction(turn.action, turn.role as BargainRole, t.data.scenarioId);
    return {
      // A turn is a buyer message and the reply.
      turn: Math.ceil(turn.turn / 2),
      role: turn.role,
      action: j?.ok ? actionLabel(turn.role, j.type) : "INVALID",
      price: j?.ok ? j.price : null,
      talk: j?.ok ? j.talk : (turn.error ?? (j && !j.ok ? j.reason : "")),
    };
  });
  return {
    kind: "bargain",
    seq: e.seq,
    agent: e.agent,
    env: "bargain",
    steps: Math.max(1, messages.length),
    live: true,
    scenarioId: t.data.scenarioId,
    buyer: buyer ?? e.agent,
    seller: seller ?? "",
    product: t.data.product.title,
    category: t.data.product.category ?? "",
    listedPrice: t.data.listedPrice,
    budget: t.data.budget,
    cost: t.data.cost,
    interest: t.data.interest,
    outcome: "no-deal",
    endedBy: "in progress",
    invalidSide: null,
    invalidReason: null,
    dealPrice: null,
    messages,
    profits: null,
  };
}

/** An LLM narrator's template fallbacks beside the deal rate: mostly template means the template's results. */
function narratorLine(n: NarratorUse): string {
  const line = `template line in ${fallbackText(n)}`;
  return n.turns > 0 && n.fallbacks / n.turns > MOSTLY_TEMPLATE
    ? `${line}: results are the template's`
    : line;
}

export const bargainAdapter: EnvAdapter<BargainEpisodeModel, BargainStats> = {
  env: "bargain",
  model: bargainModel,
  live: bargainLive,
  summary: bargainSummary,
  status: (r) => ({
    nonResponse: r.outcome === "invalid",
    error: agentErrorOf(typeof r.invalidReason === "string" ? r.invalidReason : null),
  }),
  stats: {
    init: () => ({
      sessions: 0,
      invalid: 0,
      deals: 0,
      mi: { valid: 0, deals: 0 },
      ci: { valid: 0, deals: 0 },
      sumBuyer: 0,
      sumSeller: 0,
      snpBuyer: 0,
      snpSeller: 0,
      narrator: null,
    }),
    add(s, r) {
      s.sessions++;
      // Invalid sessions count too: their narrated turns were said before the session broke.
      const n = typeof r.buyer === "string" ? narratorUse(r as unknown as NarratorInput) : null;
      if (n) {
        s.narrator ??= { turns: 0, fallbacks: 0 };
        s.narrator.turns += n.turns;
        s.narrator.fallbacks += n.fallbacks;
      }
      if (r.outcome === "invalid") {
        s.invalid++;
        return;
      }
      const group = r.interest === "CI" ? s.ci : s.mi;
      group.valid++;
      // Every trial of a live run passes here: read the fields as they are, no schema parse.
      if (r.outcome !== "deal" || typeof r.budget !== "number" || typeof r.cost !== "number") return;
      const p = bargainProfits(r as unknown as Scorable);
      if (!p) return;
      group.deals++;
      s.deals++;
      s.sumBuyer += p.buyer;
      s.sumSeller += p.seller;
      s.snpBuyer += p.normalizedBuyer;
      s.snpSeller += p.normalizedSeller;
    },
    clone: (s) => ({ ...s, mi: { ...s.mi }, ci: { ...s.ci }, narrator: s.narrator && { ...s.narrator } }),
    view: (s) => ({
      title: "running deal rates and profits",
      lines: [
        {
          label: "sessions",
          value: `${count(s.sessions)} (${count(s.invalid)} invalid) · deals ${count(s.deals)}`,
        },
        {
          label: "deal rate",
          value: `MI ${pct(s.mi.deals / s.mi.valid)} · CI ${pct(s.ci.deals / s.ci.valid)} · ALL ${pct(s.deals / s.sessions)} (of all sessions)`,
        },
        ...(s.narrator ? [{ label: "narrator", value: narratorLine(s.narrator) }] : []),
        {
          label: "mean profit",
          value: `buyer ${usd(s.sumBuyer / s.deals)} · seller ${usd(s.sumSeller / s.deals)} per deal`,
        },
        {
          label: "SNP",
          value: `buyer ${(s.snpBuyer || 0).toFixed(2)} · seller ${(s.snpSeller || 0).toFixed(2)}`,
        },
      ],
    }),
  },
  // The stored outcome is the environment's BargainOutcome and MI/CI is part of the task
  // (environments/bargain/types.ts), so SQLite finds the matches.
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "outcome",
      values: ["deal", "no-deal", "invalid"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "result" as const, path: "$.outcome.outcome", op: "=" as const, value: v }],
      })),
    },
    {
      key: "interest",
      hotkey: "i",
      label: "MI/CI",
      values: ["MI", "CI"].map((v) => ({
        value: v,
        label: v,
        conditions: [{ json: "task" as const, path: "$.interest", op: "=" as const, value: v }],
      })),
    },
  ],
};
