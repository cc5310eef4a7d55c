import type { Usage } from "../kernel/types.ts";
import { TRIAL_SCHEMA } from "../shop/record.ts";
import type { Amenity, DescriptionArm } from "../shop/types.ts";
import type {
  SellerCallRecord,
  SellerEndReason,
  SellerOutcome,
  SellerRoundStats,
  SellerTask,
} from "./types.ts";

/**
 * One seller turn as stored and exported (JSONL, one per line): the market contract of
 * specs/market.md — the market, round and seller, the agent, its cost, a summary of what it
 * observed, what it did, and its listing after the turn with the description's arm as the tagger
 * reads it (beside the text).
 */
export interface SellerTurnRecord {
  schema: typeof TRIAL_SCHEMA;
  run: string;
  trialKey: string;
  seq: number;
  env: "market";
  /** The run's seller entry (its adopters' agent and the static one: `openai:gpt-4o + sim:static`). */
  agent: string;
  /** The agent that played this seller: the adopters' or the static one. */
  player: string;
  taskId: string;
  replicate: number;
  /** The market run. */
  market: string;
  /** The market within the run (`k<adopters>-m<base market>`). */
  instance: string;
  round: number;
  /** 1-based seller number within its market. */
  seller: number;
  /** Its listing's id (what buyers' records name), hotel name, stars and area. */
  listingId: string;
  name: string;
  stars: number;
  area: string;
  adopter: boolean;
  cost: number;
  cap: number;
  /** The listing the round's buyers saw. */
  before: { price: number; description: string; arm: DescriptionArm };
  /** What it observed of the round. */
  observation: SellerRoundStats & { buyers: number; marketBookings: number; competitors: number };
  /** The calls it made, in one line ("set_price(139); keep()"); "" when it made none. */
  action: string;
  calls: SellerCallRecord[];
  endReason: SellerEndReason;
  /** The listing after the turn (what the next round's buyers see). */
  price: number;
  description: string;
  arm: DescriptionArm;
  /** The library wording, or null for text the seller wrote. */
  wording: string | null;
  claims: Amenity | null;
  priceChanged: boolean;
  descriptionChanged: boolean;
  messages: number;
  invalidCalls: number;
  nonResponse: { reason: string; raw: string } | null;
  usage: Usage;
}

function callText(c: SellerCallRecord): string {
  const args = c.args !== null && typeof c.args === "object" ? (c.args as Record<string, unknown>) : {};
  if (c.tool === "set_price" && typeof args.amount === "number") return `set_price(${args.amount})`;
  if (c.tool === "set_description" && typeof args.text === "string")
    return `set_description(${JSON.stringify(args.text.length > 60 ? `${args.text.slice(0, 59)}…` : args.text)})`;
  return `${c.tool || "(no call)"}(${Object.keys(args).length > 0 ? JSON.stringify(args) : ""})`;
}

export function sellerTurnRecord(args: {
  run: string;
  trialKey: string;
  seq: number;
  agent: string;
  replicate: number;
  task: SellerTask;
  outcome: SellerOutcome;
  usage: Usage;
}): SellerTurnRecord {
  const { task, outcome } = args;
  return {
    schema: TRIAL_SCHEMA,
    run: args.run,
    trialKey: args.trialKey,
    seq: args.seq,
    env: "market",
    agent: args.agent,
    player: task.agent,
    taskId: task.taskId,
    replicate: args.replicate,
    market: task.market,
    instance: task.instance,
    round: task.round,
    seller: task.seller,
    listingId: task.listing.id,
    name: task.listing.name,
    stars: task.listing.stars,
    area: task.listing.area,
    adopter: task.adopter,
    cost: task.cost,
    cap: task.cap,
    before: {
      price: task.listing.price,
      description: task.listing.description.text,
      arm: task.listing.description.arm,
    },
    observation: {
      ...task.report.stats,
      buyers: task.report.buyers,
      marketBookings: task.report.marketBookings,
      competitors: task.competitors.length,
    },
    action: outcome.calls.map(callText).join("; "),
    calls: outcome.calls,
    endReason: outcome.endReason,
    price: outcome.price,
    description: outcome.description.text,
    arm: outcome.description.arm,
    wording: outcome.description.wording,
    claims: outcome.description.claims,
    priceChanged: outcome.priceChanged,
    descriptionChanged: outcome.descriptionChanged,
    messages: outcome.messages,
    invalidCalls: outcome.invalidCalls,
    nonResponse: outcome.nonResponse,
    usage: args.usage,
  };
}
