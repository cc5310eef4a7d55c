import type { Usage } from "../kernel/types.ts";
import { type ClientScore, clientScore } from "./client/score.ts";
import type { ClientUtility, ConversationEntry, PersonaName } from "./client/types.ts";
import { taskIndex } from "./rules.ts";
import { constraintsMet, isAdmissible } from "./search.ts";
import type {
  Amenity,
  ConstraintType,
  DescriptionArm,
  EndReason,
  Listing,
  Negotiation,
  ShopOutcome,
  ShopRequest,
  ShopRules,
  ShopTask,
  TaskFamily,
  TrajectoryEntry,
} from "./types.ts";

/** Version of the trial export contract; bump when a field changes meaning or goes away. */
export const TRIAL_SCHEMA = "bazaar.trial/1";

/**
 * A listing as records keep it: its attributes and treatments, with its description flat — the
 * text, its arm, the library wording (`<arm>/<n>`; null for text a seller agent wrote) and, for a
 * false claim, the amenity it claims and the terms deny.
 */
export interface ListingRecord extends Omit<Listing, "description"> {
  description: string;
  arm: DescriptionArm;
  wording: string | null;
  claims: Amenity | null;
}

/** A listing flattened for the record. */
export function listingRecord(l: Listing): ListingRecord {
  const { description, ...rest } = l;
  return {
    ...rest,
    description: description.text,
    arm: description.arm,
    wording: description.wording,
    claims: description.claims,
  };
}

/** A listing the agent was shown, with where it first appeared and whether it was opened. */
export interface ShownRecord extends ListingRecord {
  step: number;
  page: number;
  rank: number;
  viewed: boolean;
  admissible: boolean;
}

/** The booked listing: its attributes and treatments, where it was shown, and whether it was admissible. */
export interface BookedRecord extends ListingRecord {
  page: number;
  rank: number;
  viewed: boolean;
  admissible: boolean;
}

/**
 * One shop episode as stored and exported (JSONL, one per line): the contract at the end of
 * specs/shop.md, plus the episode's rules, every admissible listing (for money left on the table)
 * and the designed dominance pair. Every listing in it (shown, booked, admissible) carries its
 * description flat: `description` (the text), `arm`, `wording`, `claims` (specs/market.md). Records
 * stored before descriptions lack those four; readers take such a listing as neutral.
 */
export interface ShopTrialRecord {
  schema: typeof TRIAL_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "shop";
  agent: string;
  taskId: string;
  family: TaskFamily;
  replicate: number;
  request: ShopRequest;
  rules: ShopRules;
  booked: BookedRecord | null;
  endReason: EndReason;
  /** Booked an admissible listing when one exists; gave up when none does. */
  success: boolean;
  /** Per hard constraint of the request, whether the booked listing meets it; null without a booking. */
  constraints: Partial<Record<ConstraintType, boolean>> | null;
  admissibleCount: number;
  cheapestAdmissible: number | null;
  /** Every admissible listing of the catalog, shown or not. */
  admissible: ListingRecord[];
  dominance: { dominant: string; dominated: string } | null;
  /** Every listing shown, in the order first shown. */
  shown: ShownRecord[];
  trajectory: TrajectoryEntry[];
  steps: number;
  turns: number;
  invalidCalls: number;
  giveUpReason: string | null;
  nonResponse: { reason: string; raw: string } | null;
  /**
   * A design with offers (absent in a plain shop): every negotiation of the episode with its moves
   * (`offers`: side, price, message, answer, and the bookkeeping `note` an offer's call carried —
   * e.g. the OG-Narrator's template fallback), the nightly price paid (the agreed price where there
   * was a deal, else the list price; null without a booking), and whether it ran out of steps
   * while a negotiation was open.
   */
  negotiations?: Negotiation[];
  paid?: number | null;
  deadlock?: boolean;
  /**
   * With a client (specs/client.md; absent without one): who played it, its persona and hidden
   * profile, the opening; the shopper's own label (`agent` is "<shopper> for <client>"); the
   * conversation; the outcome's surplus, the best admissible listing, regret; the hidden
   * requirements uncovered and met by luck; burden; the client's faults.
   */
  client?: ClientRecord;
  shopper?: string;
  conversation?: ConversationEntry[];
  surplus?: number;
  bestAdmissible?: ClientScore["bestAdmissible"];
  regret?: number;
  uncovered?: ClientScore["uncovered"];
  burden?: ClientScore["burden"];
  clientFaults?: ClientScore["clientFaults"];
  usage: Usage;
}

export interface ClientRecord {
  /** Who played the client: `sim:terse`, `openai:gpt-4o-mini`. */
  spec: string;
  persona: PersonaName;
  patience: number;
  profile: { requirements: ShopRequest["constraints"]; utility: ClientUtility; wishes: string[] };
  opening: string;
}

/** The label of a shopper working for a client: what `agent` says in a run with clients. */
export function clientAgentLabel(shopper: string, client: string): string {
  return `${shopper} for ${client}`;
}

/** The record's client fields, when the task has a client. */
function clientFields(task: ShopTask, outcome: ShopOutcome, agent: string): Partial<ShopTrialRecord> {
  const c = outcome.client;
  if (!task.client || !c) return {};
  const suffix = ` for ${c.by}`;
  const score = clientScore(task, outcome as ShopOutcome & { client: NonNullable<ShopOutcome["client"]> });
  return {
    client: {
      spec: c.by,
      persona: c.persona,
      patience: c.patience,
      profile: {
        requirements: task.request.constraints,
        utility: task.client.utility,
        wishes: task.request.wishes,
      },
      opening: c.opening,
    },
    shopper: agent.endsWith(suffix) ? agent.slice(0, -suffix.length) : agent,
    conversation: c.conversation,
    ...score,
  };
}

/** Success by the final state, as τ-bench judges it: what was booked (or that nothing was). */
/**
 * Booked an admissible listing, or gave up when none was admissible. With offers, a booking is
 * judged at the price paid: a listing listed above the cap but bought under it at an agreed price
 * meets the price constraint.
 */
export function episodeSuccess(task: ShopTask, outcome: ShopOutcome): boolean {
  const feasible = task.admissible.length > 0;
  if (outcome.endReason === "booked") {
    const l = outcome.bookedId === null ? undefined : taskIndex(task).byId.get(outcome.bookedId);
    return l !== undefined && isAdmissible(atPricePaid(l, outcome), task.request.constraints);
  }
  return outcome.endReason === "gave-up" && !feasible;
}

/** A booked listing as the constraints judge it: at the agreed price where there was a deal. */
function atPricePaid(l: Listing, outcome: ShopOutcome): Listing {
  return outcome.paid != null && outcome.paid !== l.price ? { ...l, price: outcome.paid } : l;
}

export function shopTrialRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: ShopTask;
  outcome: ShopOutcome;
  usage: Usage;
}): ShopTrialRecord {
  const { task, outcome } = args;
  const c = task.request.constraints;
  const byId = taskIndex(task).byId;
  const shown: ShownRecord[] = outcome.shown.map((s) => {
    const l = byId.get(s.id)!;
    return {
      ...listingRecord(l),
      step: s.step,
      page: s.page,
      rank: s.rank,
      viewed: s.viewed,
      admissible: isAdmissible(l, c),
    };
  });
  const bookedListing = outcome.bookedId === null ? undefined : byId.get(outcome.bookedId);
  const where = shown.find((s) => s.id === outcome.bookedId);
  const booked: BookedRecord | null =
    bookedListing && where
      ? {
          ...listingRecord(bookedListing),
          page: where.page,
          rank: where.rank,
          viewed: where.viewed,
          admissible: isAdmissible(atPricePaid(bookedListing, outcome), c),
        }
      : null;
  const admissible = task.listings.filter((l) => task.admissible.includes(l.id));
  return {
    schema: TRIAL_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "shop",
    agent: args.agent,
    taskId: task.taskId,
    family: task.family,
    replicate: args.replicate,
    request: task.request,
    rules: task.rules,
    booked,
    endReason: outcome.endReason,
    success: episodeSuccess(task, outcome),
    constraints: bookedListing ? constraintsMet(atPricePaid(bookedListing, outcome), c) : null,
    admissibleCount: admissible.length,
    cheapestAdmissible: admissible.length > 0 ? Math.min(...admissible.map((l) => l.price)) : null,
    admissible: admissible.map(listingRecord),
    dominance: task.dominance,
    shown,
    trajectory: outcome.trajectory,
    steps: outcome.steps,
    turns: outcome.turns,
    invalidCalls: outcome.invalidCalls,
    giveUpReason: outcome.giveUpReason,
    nonResponse: outcome.nonResponse,
    ...(outcome.negotiations
      ? {
          negotiations: outcome.negotiations,
          paid: outcome.paid ?? null,
          deadlock: outcome.deadlock ?? false,
        }
      : {}),
    ...clientFields(task, outcome, args.agent),
    usage: args.usage,
  };
}
