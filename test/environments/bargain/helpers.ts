import type { BargainAction } from "../../../environments/bargain/actions.ts";
import { bargainEnvironment } from "../../../environments/bargain/environment.ts";
import type { BargainOutcome, BargainTask, BargainView } from "../../../environments/bargain/types.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Acted, Agent, Observation } from "../../../environments/kernel/types.ts";

/** A hand-made scenario: listed $100, budget $80, cost $50 unless overridden. */
export function task(over: Partial<BargainTask> = {}): BargainTask {
  const t: BargainTask = {
    env: "bargain",
    taskId: "gadgets_1",
    scenarioId: "gadgets_1",
    product: { id: "gadgets_1", title: "Widget", category: "electronics", description: "A widget." },
    listedPrice: 100,
    budget: 80,
    cost: 50,
    interest: "MI",
    maxTurns: 6,
    ...over,
  };
  return { ...t, interest: t.cost > t.budget ? "CI" : "MI" };
}

/** An agent that plays a fixed list of actions, recording what it observed. */
export class Scripted implements Agent<BargainView, unknown> {
  readonly seen: Observation<BargainView>[] = [];
  private i = 0;
  constructor(
    readonly id: string,
    private readonly actions: (unknown | ((o: Observation<BargainView>) => unknown))[],
  ) {}
  act(o: Observation<BargainView>): Acted<unknown> {
    this.seen.push({ view: o.view, messages: o.messages });
    const next = this.i < this.actions.length ? this.actions[this.i] : { type: "reject", talk: "…" };
    this.i++;
    return {
      action: typeof next === "function" ? (next as (o: Observation<BargainView>) => unknown)(o) : next,
    };
  }
}

export const offer = (price: number, talk = "my offer"): BargainAction => ({ type: "offer", price, talk });
export const deal = (price: number): BargainAction => ({ type: "deal", price, talk: "deal" });

export async function play(
  buyer: Agent<BargainView, unknown>,
  seller: Agent<BargainView, unknown>,
  t: BargainTask = task(),
): Promise<BargainOutcome> {
  const r = await runEpisode<BargainOutcome>(
    bargainEnvironment.machine,
    bargainEnvironment.input(t, {}),
    { buyer, seller } as Record<string, Agent<unknown, unknown>>,
    { rng: createRng("test"), trialKey: "t", replicate: 0 },
  );
  return r.output;
}
