/**
 * Why the adoption estimator's truth is 0 in the null design (adoption-null.ts), checked exactly on
 * one null market run: with adopters that do nothing different, the estimates averaged over every
 * way of drawing k adopters of N are 0 to rounding — for the gain over k/N and for the gain over
 * their round-1 share — while any one draw is not. (The coverage of its intervals over 500 such runs
 * is the replication study, adoption-coverage.validate.test.ts.)
 */
import { describe, expect, it } from "vitest";
import type { BuyerRecordLike, SellerTurnLike } from "../../../analysis/market/index.ts";
import { MarketTally } from "../../../analysis/market/index.ts";
import { nullMarket } from "./adoption-null.ts";

function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k - 1).map((s) => [...s, n]), ...subsets(n - 1, k)];
}

/** The run's records read again as adoption level k with these sellers adopting in every market. */
function asAdopters(
  buyers: readonly BuyerRecordLike[],
  turns: readonly SellerTurnLike[],
  k: number,
  adopters: number[],
) {
  const tally = new MarketTally(2, 4);
  for (const b of buyers) tally.addBuyer({ ...b, taskId: b.taskId.replace(/^k\d+-/, `k${k}-`) });
  for (const t of turns)
    tally.addTurn({
      ...t,
      instance: t.instance.replace(/^k\d+-/, `k${k}-`),
      adopter: adopters.includes(t.seller),
    });
  return tally.result().adoption[0]!;
}

describe("the adoption estimator under the null", () => {
  it("averages to 0 over every draw of the adopters, for both gains", async () => {
    const { buyers, turns, analysis } = await nullMarket("adoption-null", {
      sellers: 4,
      rounds: 2,
      buyersPerRound: 8,
      markets: 3,
      adopters: [1],
    });
    expect(analysis.adoption).toEqual([expect.objectContaining({ k: 1, markets: 3, equalShare: 0.25 })]);
    for (const k of [1, 2, 3]) {
      const draws = subsets(4, k).map((s) => asAdopters(buyers, turns, k, s));
      expect(draws).toHaveLength(k === 2 ? 6 : 4);
      const average = (f: (r: (typeof draws)[number]) => number) =>
        draws.reduce((a, r) => a + f(r), 0) / draws.length;
      expect(
        average((r) => r.gainOverEqual!.mean),
        `k=${k}`,
      ).toBeCloseTo(0, 12);
      expect(
        average((r) => r.gainOverRound1!.mean),
        `k=${k}`,
      ).toBeCloseTo(0, 12);
      expect(
        average((r) => r.adoptersShare!.mean),
        `k=${k}`,
      ).toBeCloseTo(k / 4, 12);
      // One draw on its own is off 0: what the interval is for.
      expect(draws.some((r) => Math.abs(r.gainOverEqual!.mean) > 0.01)).toBe(true);
    }
  });
});
