/**
 * Shop runs with offers for the terminal tests, made by the real planner, runner and store: the
 * run's seller negotiators are real bargaining sellers (rule tactics), and the shopper is a scripted
 * haggler — a pure function of its view, so any episode plays the same — that bids to up to three
 * negotiable listings at once, raises its bids round by round, meets a counter within its cap
 * (15% off the list, or any concession in its last round), and books a deal (else the cheapest
 * listing it was shown).
 */
import path from "node:path";
import { planShop } from "../../../cli/run/shop-plan.ts";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import type { Agent, Observation } from "../../../environments/kernel/index.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import type { RunPlan } from "../../../environments/runner/plan.ts";
import { TOOL_CALL_BATCH } from "../../../environments/shop/actions.ts";
import type { Card, OfferResult, ShopView } from "../../../environments/shop/types.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

/** Rounds of offers the haggler makes to one listing before it stops bidding there. */
const ROUNDS = 4;

function cardsOf(view: ShopView): Card[] {
  for (const t of view.turns)
    for (const c of t.calls)
      if (c.result.kind === "results" && c.result.cards.length > 0) return c.result.cards;
  return [];
}

function answersOf(view: ShopView, id: string): OfferResult[] {
  const out: OfferResult[] = [];
  for (const t of view.turns)
    for (const c of t.calls) if (c.result.kind === "offer" && c.result.id === id) out.push(c.result);
  return out;
}

/** The haggler's next message, from its view alone. */
export function haggle(view: ShopView): unknown {
  if (view.turns.length === 0) return { type: "search", sort: "price_low" };
  const cards = cardsOf(view);
  if (cards.length === 0) return { type: "give_up", reason: "nothing found" };
  const cap = view.request.constraints.maxPrice ?? Number.POSITIVE_INFINITY;
  const targets = cards.filter((c) => c.negotiable).slice(0, 3);
  for (const c of targets) {
    const deal = answersOf(view, c.id).find((a) => a.deal !== null);
    if (deal) return { type: "book", id: c.id };
  }
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  for (const c of targets) {
    const answers = answersOf(view, c.id);
    const last = answers.at(-1);
    if (answers.length >= ROUNDS || last?.answer === "quit") continue;
    // A counter within the cap is met when it is 15% off the list price, or in the last round
    // when the seller came down at all; else the bid rises by 10% of the list price.
    const meet =
      last?.counter != null &&
      last.counter <= cap &&
      (last.counter <= 0.85 * c.price || (answers.length === ROUNDS - 1 && last.counter < c.price));
    const bid = meet ? last.counter! : Math.round(c.price * (0.55 + 0.1 * answers.length));
    calls.push({
      name: "offer",
      args: { id: c.id, price: bid, message: `Would you take $${bid} a night for ${c.name}?` },
    });
  }
  if (calls.length === 0) return { type: "book", id: cards[0]!.id };
  return calls.length === 1 ? { type: "offer", ...calls[0]!.args } : { type: TOOL_CALL_BATCH, calls };
}

/** The haggler as an agent; `delayMs` makes it slow enough for the live view to show it in flight. */
export function haggler(delayMs = 0): Agent<unknown, unknown> {
  return {
    id: "haggler",
    async act(obs) {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return { action: haggle((obs as Observation<ShopView>).view) };
    },
  };
}

/** A shop plan with offers whose shopper entries are replaced by the haggler (sellers kept). */
export function hagglePlan(options: Record<string, string> = {}, delayMs = 0): RunPlan {
  const plan = planShop(
    {
      replicates: "1",
      agent: "sim:careful",
      tasks: "6",
      families: "open",
      negotiable: "1",
      sellerNegotiator: "rule:boulware,rule:conceder",
      ...options,
    } as never,
    { settings: {} },
  );
  const agents: AgentEntry[] = plan.agents.map((a) => ({
    ...a,
    label: "haggler",
    players: { ...a.players, shopper: haggler(delayMs) },
  }));
  return { ...plan, agents };
}

export interface HaggleRun {
  plan: RunPlan;
  store: Store;
  records: TrialRecord[];
}

/** The haggler's run, stored: its trial records in seq order. */
export async function haggleRun(
  options: Record<string, string> = {},
  store = Store.open(path.join(tempDir("bazaar-tui-offers-"), "t.db"), { create: true }),
): Promise<HaggleRun> {
  const plan = hagglePlan(options);
  const records: TrialRecord[] = [];
  await executeRun(plan, store, { concurrency: 2, onTrial: (r) => records.push(r) });
  records.sort((a, b) => Number(a.seq) - Number(b.seq));
  return { plan, store, records };
}
