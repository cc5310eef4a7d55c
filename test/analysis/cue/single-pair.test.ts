/** A pair-clustered interval needs two pairs with answers: one pair gives no interval, with why. */
import { describe, expect, it } from "vitest";
import { CUE_PRESETS } from "../../../agents/sim/index.ts";
import { analyzeCue } from "../../../analysis/cue/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildCueTasks } from "../../../environments/cue/index.ts";
import { simulateCue } from "./simulate.ts";

const tasks = buildCueTasks(
  { categories: ["headphones"], conditions: ["authority"], blocks: ["main"] },
  DEFAULT_PRODUCT_PAIRS,
  DEFAULT_CUE_LIBRARY,
);
const observations = simulateCue(CUE_PRESETS.moderate!.params, tasks, 6, 7);
const condition = (obs: typeof observations) =>
  analyzeCue(obs, { bootstrap: 200, seed: 1 }).agents[0]!.categories[0]!.conditions[0]!;

describe("the pair-clustered interval of a price-equivalent", () => {
  it("one pair: a PE, but no zero-width interval, and the note says why", () => {
    const pair = observations[0]!.pairId;
    const c = condition(observations.filter((o) => o.pairId === pair));
    expect(c.pe.kind).toBe("point");
    expect(c.interval).toBeNull();
    expect(c.intervalNote).toMatch(/^1 pair: a pair-clustered interval needs answers on 2 or more pairs/);
  });

  it("a second pair whose every answer is a non-response does not count", () => {
    const [a, b] = [...new Set(observations.map((o) => o.pairId))];
    const obs = observations
      .filter((o) => o.pairId === a || o.pairId === b)
      .map((o) => (o.pairId === b ? { ...o, choseCued: null, chosenSlot: null } : o));
    const c = condition(obs);
    expect(c.pairs).toHaveLength(2);
    expect(c.interval).toBeNull();
    expect(c.intervalNote).toMatch(/^1 pair/);
  });

  it("two answered pairs: an interval, no note", () => {
    const [a, b] = [...new Set(observations.map((o) => o.pairId))];
    const c = condition(observations.filter((o) => o.pairId === a || o.pairId === b));
    expect(c.interval).not.toBeNull();
    expect(c.intervalNote).toBeNull();
  });
});
