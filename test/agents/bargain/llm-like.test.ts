import { describe, expect, it } from "vitest";
import { LlmLikeNegotiator, type LlmLikeParams } from "../../../agents/bargain/llm-like.ts";
import { PLAIN_LLM_BUYER, PLAIN_LLM_SELLER } from "../../../agents/bargain/presets.ts";
import { TimeDependentNegotiator } from "../../../agents/bargain/tactics.ts";
import { bargainEnvironment } from "../../../environments/bargain/environment.ts";
import type { BargainOutcome, BargainTask } from "../../../environments/bargain/types.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const task: BargainTask = {
  env: "bargain",
  taskId: "x_1",
  scenarioId: "x_1",
  product: { id: "x_1", title: "X", category: "other", description: "" },
  listedPrice: 100,
  budget: 80,
  cost: 50,
  interest: "MI",
  maxTurns: 6,
};

/** Sessions against a Boulware seller (e = 0.2), whose asks stay high until late. */
async function sessions(buyer: LlmLikeParams, n: number, t: BargainTask = task): Promise<BargainOutcome[]> {
  const agents = { buyer: new LlmLikeNegotiator("b", buyer), seller: new TimeDependentNegotiator("s", 0.2) };
  const out: BargainOutcome[] = [];
  for (let i = 0; i < n; i++) {
    const r = await runEpisode<BargainOutcome>(bargainEnvironment.machine, { task: t }, agents as never, {
      rng: createRng(`llm-like/${i}`),
      trialKey: String(i),
      replicate: 0,
    });
    out.push(r.output);
  }
  return out;
}

const deals = (xs: BargainOutcome[]) => xs.filter((o) => o.outcome === "deal").map((o) => o.dealPrice!);
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("the simulated LLM-like negotiator", () => {
  it("is deterministic given its stream", async () => {
    expect(await sessions(PLAIN_LLM_BUYER, 20)).toEqual(await sessions(PLAIN_LLM_BUYER, 20));
  });

  it("pays more the more it anchors on the listed price (known parameter, recovered direction)", async () => {
    const clean = { ...PLAIN_LLM_BUYER, formatErrors: 0, fakeDeals: 0, discipline: 0, quitRate: 0 };
    const low = deals(await sessions({ ...clean, anchoring: 0 }, 150));
    const high = deals(await sessions({ ...clean, anchoring: 0.9 }, 150));
    expect(avg(high)).toBeGreaterThan(avg(low) + 3);
    expect(Math.max(...high)).toBeGreaterThan(80);
  });

  it("with full discipline never deals above its budget; without, it sometimes does", async () => {
    const strict = deals(
      await sessions({ ...PLAIN_LLM_BUYER, discipline: 1, anchoring: 0.9, fakeDeals: 0 }, 200),
    );
    expect(Math.max(...strict)).toBeLessThanOrEqual(80);
    const loose = deals(
      await sessions({ ...PLAIN_LLM_BUYER, discipline: 0, anchoring: 0.9, fakeDeals: 0 }, 200),
    );
    expect(loose.filter((d) => d > 80).length).toBeGreaterThan(20);
  });

  it("makes action errors and fake deals at about the rates it is given", async () => {
    const n = 400;
    const erring = await sessions({ ...PLAIN_LLM_BUYER, formatErrors: 0.1, fakeDeals: 0, quitRate: 0 }, n);
    const errors = erring.filter((o) => o.endedBy === "action-error" && o.invalidSide === "buyer").length;
    // About 1 − 0.9^moves of sessions; a session has 2–6 buyer moves.
    expect(errors / n).toBeGreaterThan(0.15);
    expect(errors / n).toBeLessThan(0.5);
    const faking = await sessions(
      { ...PLAIN_LLM_BUYER, formatErrors: 0, fakeDeals: 1, quitRate: 0, discipline: 0 },
      100,
    );
    expect(faking.filter((o) => o.endedBy === "fake-deal").length).toBeGreaterThan(35);
  });

  it("plays the seller with the seller's habits: opens at the listed price, never below cost when disciplined", async () => {
    const seller = new LlmLikeNegotiator("s", { ...PLAIN_LLM_SELLER, formatErrors: 0 });
    const v = {
      role: "seller" as const,
      codename: "x_1",
      title: "X",
      description: "",
      listedPrice: 100,
      limit: 50,
      maxTurns: 6,
    };
    const first = seller.act(
      { messages: [], view: { ...v, history: [{ role: "buyer", type: "offer", price: 30, talk: "" }] } },
      {
        rng: createRng(1),
        trialKey: "",
        replicate: 0,
      },
    );
    expect(first.action).toMatchObject({ type: "offer", price: 100 });
  });
});
