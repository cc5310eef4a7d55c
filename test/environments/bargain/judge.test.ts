import { describe, expect, it } from "vitest";
import { BargainActionSchema } from "../../../environments/bargain/actions.ts";
import { judgeAction, wellFormedMove } from "../../../environments/bargain/judge.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0.01,
  12.345,
  1e9,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "12",
  true,
  {},
  [],
];
const TYPES: unknown[] = ["offer", "deal", "reject", "quit", "reply", "sell", "", 3, undefined];
const TALKS: unknown[] = [undefined, "hi", "", 7, null];

describe("judging actions", () => {
  it("the hand-written fast path accepts exactly the structured moves the zod schema accepts", () => {
    const rng = createRng("judge");
    for (let i = 0; i < 5000; i++) {
      const action: Record<string, unknown> = { type: rng.pick(TYPES) };
      if (rng.bernoulli(0.8)) action.price = rng.pick(VALUES);
      if (rng.bernoulli(0.8)) action.talk = rng.pick(TALKS);
      if (rng.bernoulli(0.1)) action.extra = "ignored";
      const zod = BargainActionSchema.safeParse(action);
      const structured = zod.success && zod.data.type !== "reply";
      expect(wellFormedMove(action) !== null).toBe(structured);
      const j = judgeAction(action, "buyer", "x_1");
      expect(j.ok).toBe(zod.success && (zod.data.type !== "reply" || j.ok));
    }
  });

  it("rounds prices to cents, keeps talk on one line, and strips the agent's bookkeeping", () => {
    expect(
      judgeAction({ type: "offer", price: 10.005, talk: " a\n b  c ", meta: { ms: 3 } }, "seller", "x_1"),
    ).toEqual({
      ok: true,
      type: "offer",
      price: 10.01,
      talk: "a b c",
      meta: { ms: 3 },
    });
    expect(judgeAction({ type: "quit", meta: { ms: 1 }, price: -1 }, "buyer", "x_1")).toMatchObject({
      ok: true,
      type: "quit",
    });
    expect(judgeAction({ type: "deal", price: -1, meta: { ms: 1 } }, "buyer", "x_1")).toMatchObject({
      ok: false,
      raw: '{"type":"deal","price":-1}',
    });
  });
});
