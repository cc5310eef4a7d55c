import { describe, expect, it } from "vitest";
import { bargainEnvironment } from "../../../environments/bargain/environment.ts";
import { splitPairLabel } from "../../../environments/bargain/record.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import { deal, offer, play, Scripted, task } from "./helpers.ts";

describe("the session record (export contract)", () => {
  it("has every field of the contract in specs/bargain.md", async () => {
    const t = task();
    const outcome = await play(new Scripted("b", [offer(40), deal(70)]), new Scripted("s", [offer(70)]), t);
    const r = bargainEnvironment.record({
      run: "bargain-x",
      trialKey: "k1",
      seq: 3,
      agent: "og-narrator vs rule:boulware",
      replicate: 0,
      task: t,
      outcome,
      usage: emptyUsage(),
    });
    expect(r).toMatchObject({
      run: "bargain-x",
      trialKey: "k1",
      env: "bargain",
      scenarioId: "gadgets_1",
      buyer: "og-narrator",
      seller: "rule:boulware",
      replicate: 0,
      product: { title: "Widget", category: "electronics" },
      listedPrice: 100,
      budget: 80,
      cost: 50,
      interest: "MI",
      outcome: "deal",
      endedBy: "deal",
      invalidSide: null,
      dealPrice: 70,
      turns: 2,
      usage: emptyUsage(),
    });
    expect((r.transcript as unknown[])[0]).toMatchObject({
      turn: 1,
      role: "buyer",
      action: "offer",
      price: 40,
      talk: "my offer",
    });
    expect(bargainEnvironment.isNonResponse(outcome)).toBe(false);
  });

  it("splits a pairing label into buyer and seller", () => {
    expect(splitPairLabel("og-narrator:openai:gpt-4o vs sim:llm/anchoring=0.9")).toEqual({
      buyer: "og-narrator:openai:gpt-4o",
      seller: "sim:llm/anchoring=0.9",
    });
  });
});
