/**
 * Shop runs with offers made in process for the negotiation estimators' tests: scripted buyers
 * whose deal behaviour is known, deterministic rule sellers, the real runner and store, and the
 * export as `bazaar export` writes it. The buyers keep no state: each move is read off the view
 * (so one agent plays any number of episodes at once, as the runner needs).
 */
import path from "node:path";
import { resolveBargainPlayer } from "../../../agents/bargain/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import type { Agent, AgentEntry } from "../../../environments/kernel/types.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { negotiatingShopEnvironment } from "../../../environments/shop/environment.ts";
import { buildShopTasks, type Card, type ShopView, sellerRole } from "../../../environments/shop/index.ts";
import { exportRecords, Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

type Decide = (view: ShopView) => Record<string, unknown>;

/** A stateless scripted shopper. */
export function policy(id: string, decide: Decide): Agent<unknown, unknown> {
  return { id, act: (obs) => ({ action: decide((obs as { view: ShopView }).view) }) };
}

function calls(view: ShopView) {
  return view.turns.flatMap((t) => t.calls);
}

/** The cards of the first search (sorted cheapest first). */
function firstCards(view: ShopView): Card[] {
  for (const c of calls(view)) if (c.result.kind === "results") return c.result.cards;
  return [];
}

/** The first card that takes offers, or null. */
function firstNegotiable(view: ShopView, skip = 0): Card | null {
  return firstCards(view).filter((c) => c.negotiable)[skip] ?? null;
}

/** This shopper's offers to a listing so far, with what each was answered. */
function offersTo(view: ShopView, id: string) {
  return calls(view).flatMap((c) =>
    c.call.tool === "offer" && (c.call.args as { id: string }).id === id && c.result.kind === "offer"
      ? [c.result]
      : [],
  );
}

const SEARCH = { type: "search", sort: "price_low" };

/** 30% of the list price, in cents: below any seller's cost (costs are 60–90% of the list price). */
export const lowball = (listPrice: number) => Math.floor(30 * listPrice) / 100;

/**
 * Haggles with the cheapest listing that takes offers: `rounds` lowball offers, then takes the
 * seller's last counter (an offer at exactly that price: a deal) and books it. Without such a
 * listing it books the cheapest.
 */
export function haggler(rounds: number): Decide {
  return (view) => {
    if (view.turns.length === 0) return SEARCH;
    const l = firstNegotiable(view);
    if (!l) return { type: "book", id: firstCards(view)[0]!.id };
    const made = offersTo(view, l.id);
    const deal = made.find((r) => r.deal !== null);
    if (deal) return { type: "book", id: l.id };
    if (made.length < rounds)
      return {
        type: "offer",
        id: l.id,
        price: lowball(l.price),
        message: "Could you do better on the price?",
      };
    const counter = made.at(-1)!.counter!;
    return { type: "offer", id: l.id, price: counter, message: `I accept $${counter}.` };
  };
}

/** Books the same listing as `haggler` at its list price, without a word. */
export const lister: Decide = (view) => {
  if (view.turns.length === 0) return SEARCH;
  const l = firstNegotiable(view) ?? firstCards(view)[0]!;
  return { type: "book", id: l.id };
};

/** Lowballs `rounds` times, then gives up: negotiations without a deal. */
export function walker(rounds: number): Decide {
  return (view) => {
    if (view.turns.length === 0) return SEARCH;
    const l = firstNegotiable(view);
    if (!l || offersTo(view, l.id).length >= rounds) return { type: "give_up", reason: "too expensive" };
    return { type: "offer", id: l.id, price: lowball(l.price) };
  };
}

/**
 * Plays sellers against each other: a lowball to the cheapest listing that takes offers, then one
 * to the second quoting the first's counter ("$163"), then one to the first quoting the list price
 * of the cheapest listing that takes no offers ("233 dollars"; a plain lowball when there is none);
 * then gives up. Every message but the first quotes another seller's price.
 */
export const quoter: Decide = (view) => {
  if (view.turns.length === 0) return SEARCH;
  const a = firstNegotiable(view);
  const b = firstNegotiable(view, 1);
  if (!a || !b) return { type: "give_up", reason: "nothing to compare" };
  const toA = offersTo(view, a.id);
  const toB = offersTo(view, b.id);
  if (toA.length === 0)
    return { type: "offer", id: a.id, price: lowball(a.price), message: "Hi, any discount?" };
  if (toB.length === 0)
    return {
      type: "offer",
      id: b.id,
      price: lowball(b.price),
      message: `Another hotel offered me $${toA[0]!.counter} a night. Can you beat it?`,
    };
  if (toA.length === 1) {
    const plain = firstCards(view).find((c) => !c.negotiable);
    return {
      type: "offer",
      id: a.id,
      price: lowball(a.price),
      ...(plain ? { message: `${plain.name} lists at ${plain.price} dollars. Match that?` } : {}),
    };
  }
  return { type: "give_up", reason: "no good deal" };
};

/** Offers the cheapest listing above the cap its full list price (a rule seller accepts) and books it. */
export const overpayer: Decide = (view) => {
  if (view.turns.length === 0) return { type: "search", sort: "price_high" };
  const l = firstNegotiable(view);
  if (!l) return { type: "book", id: firstCards(view)[0]!.id };
  if (offersTo(view, l.id).some((r) => r.deal !== null)) return { type: "book", id: l.id };
  return { type: "offer", id: l.id, price: l.price, message: "Full price is fine." };
};

/** Bids 110% of the cheapest negotiable listing's list price (a rule seller accepts) and books it. */
export const overbidder: Decide = (view) => {
  if (view.turns.length === 0) return SEARCH;
  const l = firstNegotiable(view);
  if (!l) return { type: "book", id: firstCards(view)[0]!.id };
  if (offersTo(view, l.id).some((r) => r.deal !== null)) return { type: "book", id: l.id };
  return { type: "offer", id: l.id, price: Math.round(110 * l.price) / 100, message: "I'll pay extra." };
};

export interface SimRun {
  store: Store;
  runId: string;
  config: Record<string, unknown>;
  /** The run's records as the store gives them to `bazaar analyze`. */
  records: () => Record<string, unknown>[];
  /** `bazaar export <run>` (JSONL), parsed back line by line. */
  exported: () => Record<string, unknown>[];
}

export async function runNegotiatingShop(args: {
  buyers: Record<string, Decide>;
  sellers: readonly string[];
  tasks?: number;
  seed?: number;
  replicates?: number;
  maxSteps?: number;
  negotiable?: number;
  offerRounds?: number;
}): Promise<SimRun> {
  const design = {
    tasks: args.tasks ?? 12,
    seed: args.seed ?? 7,
    negotiable: args.negotiable ?? 0.5,
    negotiators: args.sellers.length,
    maxSteps: args.maxSteps ?? 15,
    families: { open: 1 },
    ...(args.offerRounds === undefined ? {} : { offerRounds: args.offerRounds }),
  };
  const tasks = buildShopTasks(design, DEFAULT_HOTEL_POOL);
  const sellers = Object.fromEntries(
    args.sellers.map((s, i) => [sellerRole(i + 1), resolveBargainPlayer(s, "seller").agent]),
  );
  const agents: AgentEntry[] = Object.entries(args.buyers).map(([label, decide]) => ({
    label,
    identity: { shopper: label, sellers: args.sellers },
    players: { shopper: policy(label, decide), ...sellers },
  }));
  const plan = planRun({
    env: negotiatingShopEnvironment,
    settings: {},
    tasks,
    agents,
    replicates: args.replicates ?? 2,
    design: { ...design, sellerNegotiators: [...args.sellers] },
  });
  const store = Store.open(path.join(tempDir(), "negotiation.db"), { create: true });
  await executeRun(plan, store, { concurrency: 4 });
  const records = () => [...trialRecords(store, plan.runId)];
  return {
    store,
    runId: plan.runId,
    config: plan.config,
    records,
    exported: () => {
      let text = "";
      exportRecords(
        () => trialRecords(store, plan.runId),
        "jsonl",
        (t) => {
          text += t;
        },
      );
      return text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}
