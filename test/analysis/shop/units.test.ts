import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  analyzeShop,
  clusteredShare,
  dominanceChecks,
  moneyOnTable,
  searchBehaviour,
  shopEpisodesFromRecords,
  shopFunnel,
  shopOutcomes,
} from "../../../analysis/shop/index.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

const records = readFileSync(path.resolve(import.meta.dirname, "../../fixtures/shop/episodes.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const episodes = shopEpisodesFromRecords(records);
const ignoring = episodes.filter((e) => e.agent === "sim:ignores-constraint");

describe("shop estimators, computed the long way on the fixture", () => {
  it("a clustered share: the share, and the sandwich SE summed within tasks", () => {
    const items = [
      { cluster: "a", hit: true },
      { cluster: "a", hit: true },
      { cluster: "b", hit: false },
      { cluster: "c", hit: true },
    ];
    const s = clusteredShare(items);
    const p = 0.75;
    const e = [2 - 2 * p, 0 - p, 1 - p];
    const se = Math.sqrt(((3 / 2) * e.reduce((a, x) => a + x * x, 0)) / 16);
    expect(s).toMatchObject({ n: 4, hits: 3, estimate: p });
    expect(s.se).toBeCloseTo(se, 12);
    expect(clusteredShare([{ cluster: "a", hit: true }]).se).toBeNull();
  });

  it("a clustered share's interval: Student's t with G − 1 degrees of freedom (scipy's numbers)", () => {
    // 15 episodes on 8 tasks; p = 7/15, CR1 SE, p ± t.ppf(0.975, 7)·SE — computed in Python with
    // scipy 1.17.1 from the same rows.
    const rows: [string, number][] = [
      ["a", 1],
      ["a", 1],
      ["b", 0],
      ["b", 1],
      ["b", 0],
      ["c", 1],
      ["d", 0],
      ["d", 0],
      ["e", 0],
      ["f", 1],
      ["f", 1],
      ["f", 0],
      ["g", 0],
      ["h", 1],
      ["h", 0],
    ];
    const s = clusteredShare(rows.map(([cluster, h]) => ({ cluster, hit: h === 1 })));
    expect(s.estimate).toBeCloseTo(0.4666666666666667, 14);
    expect(s.se).toBeCloseTo(0.12854908683015884, 12);
    expect(s.low).toBeCloseTo(0.16269637842796653, 10);
    expect(s.high).toBeCloseTo(0.7706369549053669, 10);
  });

  it("outcomes: successes, violations and give-ups as counted directly", () => {
    const o = shopOutcomes(ignoring);
    expect(o.success.hits).toBe(ignoring.filter((e) => e.success).length);
    const withPrice = ignoring.filter((e) => e.booked && e.request.constraints.maxPrice !== null);
    expect(o.violations.price.n).toBe(withPrice.length);
    expect(o.violations.price.hits).toBe(
      withPrice.filter((e) => e.booked!.price > e.request.constraints.maxPrice!).length,
    );
    expect(
      o.endReasons.booked + o.endReasons["gave-up"] + o.endReasons["out-of-steps"] + o.endReasons.invalid,
    ).toBe(ignoring.length);
  });

  it("behaviour and funnel: per-episode means and shown → viewed → booked counts", () => {
    const b = searchBehaviour(episodes);
    const views = episodes.reduce(
      (a, e) => a + e.trajectory.filter((t) => t.tool === "view" && t.ok).length,
      0,
    );
    expect(b.meanViews).toBeCloseTo(views / episodes.length, 12);
    expect(b.meanCalls).toBeCloseTo(episodes.reduce((a, e) => a + e.steps, 0) / episodes.length, 12);
    const f = shopFunnel(episodes);
    const rank2 = episodes.flatMap((e) => e.shown.filter((s) => s.rank === 2));
    expect(f.byRank[1]).toMatchObject({
      rank: 2,
      shown: rank2.length,
      viewed: rank2.filter((s) => s.viewed).length,
    });
    const sponsored = episodes.flatMap((e) => e.shown.filter((s) => s.treatments.sponsored));
    expect(f.byTag[0]!.tagged.shown).toBe(sponsored.length);
    const viewedBooked = episodes.filter(
      (e) => e.booked && e.shown.find((s) => s.id === e.booked!.id)?.viewed,
    ).length;
    expect(f.bookedGivenViewed.booked).toBe(viewedBooked);
  });

  it("money and dominance: paid over the cheapest admissible, dominated bookings", () => {
    const m = moneyOnTable(episodes, null);
    const paid = episodes.filter((e) => e.booked?.admissible);
    expect(m.bookings).toBe(paid.length);
    expect(m.meanOverCheapest).toBeCloseTo(
      paid.reduce((a, e) => a + e.booked!.price - e.cheapestAdmissible!, 0) / paid.length,
      9,
    );
    expect(m.meanOverBest).toBeNull();
    const d = dominanceChecks(episodes);
    const onDom = episodes.filter((e) => e.family === "dominance" && e.booked);
    expect(d.bookedDominated.n).toBe(onDom.length);
    expect(d.bookedDominated.hits).toBe(onDom.filter((e) => e.booked!.id === e.dominance!.dominated).length);
    const a = analyzeShop(episodes, { draws: 20 }).agents.find((x) => x.agent === "sim:careful")!;
    expect(a.money.meanOverBest).not.toBeNull();
    expect(a.logit.status).toBe("ok");
  });

  it("names a record that is not a shop record instead of skipping it", () => {
    expect(() => shopEpisodesFromRecords([{ ...records[0]!, shown: "nope" }])).toThrow(UserError);
    expect(() => shopEpisodesFromRecords([{ env: "choice" }])).toThrow(
      /shop record 0 .* is not a shop trial record: env/,
    );
  });
});
