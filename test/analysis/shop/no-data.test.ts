/** Estimates from no data are empty, never 0 or a zero-width interval. */
import { describe, expect, it } from "vitest";
import { analyzeShop, passK, type ShopEpisode, shopTables } from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

describe("shop estimates without the data they need", () => {
  it("pass^k over a single task has its estimate but no task-bootstrap interval", () => {
    const ep = (taskId: string, success: boolean) => ({ taskId, success }) as ShopEpisode;
    const r = passK([ep("a", true), ep("a", false), ep("b", true)], { draws: 200, rng: createRng(1) });
    expect(r[0]).toMatchObject({ k: 1, tasks: 2 });
    expect(r[0]!.low).not.toBeNull();
    expect(r[1]).toMatchObject({ k: 2, tasks: 1, estimate: 0, low: null, high: null });
  });

  it("an agent whose every episode failed has no per-episode means (not 0 calls)", () => {
    const failed = (i: number) =>
      ({ agent: "broken", endReason: "agent-error", taskId: `t${i}`, replicate: 0 }) as ShopEpisode;
    const a = analyzeShop([failed(1), failed(2)], { draws: 0 }).agents[0]!;
    expect(a).toMatchObject({ episodes: 0, agentErrors: 2 });
    expect(a.behaviour).toMatchObject({
      meanCalls: null,
      meanMessages: null,
      meanSearches: null,
      meanViews: null,
    });
    expect(a.outcomes.meanInvalidCalls).toBeNull();
    const behaviour = shopTables(analyzeShop([failed(1)], { draws: 0 })).find((t) =>
      t.title.startsWith("Search"),
    );
    expect(behaviour!.rows[0]!.slice(1, 5)).toEqual(["–", "–", "–", "–"]);
  });
});
