import { describe, expect, it } from "vitest";
import { SHOP_PRESETS } from "../../../agents/sim/shop/index.ts";
import { passHatK, passK, type ShopEpisode, shopEpisodesFromRecords } from "../../../analysis/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { buildShopTasks } from "../../../environments/shop/index.ts";
import { playShop } from "./simulate.ts";

function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe("pass^k", () => {
  it("is C(c,k)/C(n,k): the share of k-subsets of the n trials that all succeeded", () => {
    for (const n of [1, 3, 5, 8])
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) {
          // Enumerate the k-subsets of n trials, the first c of which succeeded.
          let all = 0;
          let total = 0;
          for (let mask = 0; mask < 1 << n; mask++) {
            let bits = 0;
            for (let i = 0; i < n; i++) if (mask & (1 << i)) bits++;
            if (bits !== k) continue;
            total++;
            let ok = true;
            for (let i = 0; i < n; i++) if (mask & (1 << i) && i >= c) ok = false;
            if (ok) all++;
          }
          expect(passHatK(c, n, k)).toBeCloseTo(all / total, 12);
          expect(passHatK(c, n, k)).toBeCloseTo(choose(c, k) / choose(n, k), 12);
        }
    expect(() => passHatK(1, 2, 3)).toThrow(RangeError);
  });

  it("is unbiased for p^k: its expectation over Binomial(n, p) successes is p^k exactly", () => {
    for (const p of [0.1, 0.5, 0.83])
      for (const k of [1, 2, 4]) {
        const n = 6;
        let e = 0;
        for (let c = 0; c <= n; c++) e += choose(n, c) * p ** c * (1 - p) ** (n - c) * passHatK(c, n, k);
        expect(e).toBeCloseTo(p ** k, 12);
      }
  });

  it("averages over tasks that have k trials, with a task-bootstrap interval", () => {
    const ep = (taskId: string, success: boolean) => ({ taskId, success }) as ShopEpisode;
    const episodes = [
      ep("a", true),
      ep("a", true),
      ep("a", false),
      ep("b", true),
      ep("b", false),
      ep("c", true),
    ];
    const r = passK(episodes, { draws: 200, rng: createRng(3) });
    expect(r.map((x) => x.k)).toEqual([1, 2, 3]);
    expect(r[0]!.estimate).toBeCloseTo((2 / 3 + 1 / 2 + 1) / 3, 12);
    expect(r[1]!.estimate).toBeCloseTo((1 / 3 + 0) / 2, 12);
    expect(r[1]!.tasks).toBe(2);
    expect(r[2]!.estimate).toBe(0);
    expect(r[0]!.low!).toBeLessThanOrEqual(r[0]!.estimate);
    expect(r[0]!.high!).toBeGreaterThanOrEqual(r[0]!.estimate);
  });

  it("on a lapsing shopper with a known per-task success probability, covers the analytic value", async () => {
    const tasks = buildShopTasks({ tasks: 120, seed: 8 }, DEFAULT_HOTEL_POOL);
    // Deterministic parts: the careful shopper always succeeds here; the hasty one succeeds or not.
    const careful = await playShop(tasks, SHOP_PRESETS.careful!.make("c") as never, 1, "c");
    const hasty = await playShop(tasks, SHOP_PRESETS["first-result"]!.make("f") as never, 1, "f");
    expect(careful.every((r) => r.success)).toBe(true);
    const lapse = SHOP_PRESETS.lapsing!.params.lapseRate;
    const p = hasty.map((r) => 1 - lapse + lapse * (r.success ? 1 : 0));
    expect(p.some((x) => x < 1)).toBe(true);
    const records = await playShop(tasks, SHOP_PRESETS.lapsing!.make("l") as never, 6, "lapsing");
    const result = passK(shopEpisodesFromRecords(records), { draws: 400, rng: createRng(9) });
    expect(result).toHaveLength(6);
    for (const r of result) {
      const analytic = p.reduce((a, x) => a + x ** r.k, 0) / p.length;
      expect(analytic, `pass^${r.k}`).toBeGreaterThanOrEqual(r.low!);
      expect(analytic, `pass^${r.k}`).toBeLessThanOrEqual(r.high!);
    }
    // And the curve falls with k, as it must when success is not certain.
    expect(result[5]!.estimate).toBeLessThan(result[0]!.estimate);
  });
});
