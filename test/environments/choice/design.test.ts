import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL, generateHotelPool } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks, displayOrders } from "../../../environments/choice/design.ts";
import type { ChoiceTask } from "../../../environments/choice/types.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

const SMALL = { pairs: 40, triples: 30, fives: 12 };

/** Per unique set: how often each hotel sits in each slot. */
function slotCounts(tasks: ChoiceTask[]): Map<string, Map<number, number[]>> {
  const bySet = new Map<string, Map<number, number[]>>();
  for (const t of tasks) {
    const m = bySet.get(t.setId) ?? new Map<number, number[]>();
    bySet.set(t.setId, m);
    t.options.forEach((o, slot) => {
      const counts = m.get(o.hotelId) ?? new Array(t.options.length).fill(0);
      counts[slot]++;
      m.set(o.hotelId, counts);
    });
  }
  return bySet;
}

describe("buildChoiceTasks", () => {
  it("has the reference sizes by default: 1,800 pair and 1,800 triple tasks, each counterbalanced", () => {
    const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
    const byKind = (k: string) => tasks.filter((t) => t.kind === k);
    // 450 pairs × 4 appearances × 2 orders; 300 triples × 6 × 2; 300 five-sets × 1 × 5 rotations
    expect(byKind("binary")).toHaveLength(3600);
    expect(byKind("ternary")).toHaveLength(3600);
    expect(byKind("five")).toHaveLength(1500);
    expect(new Set(byKind("binary").map((t) => t.setId)).size).toBe(450);
    expect(new Set(byKind("ternary").map((t) => t.setId)).size).toBe(300);
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(tasks.length);
  });

  it("is deterministic: the same seed gives byte-identical tasks, another seed different ones", () => {
    const a = JSON.stringify(buildChoiceTasks({ ...SMALL, seed: 11 }, DEFAULT_HOTEL_POOL));
    const b = JSON.stringify(buildChoiceTasks({ ...SMALL, seed: 11 }, DEFAULT_HOTEL_POOL));
    const c = JSON.stringify(buildChoiceTasks({ ...SMALL, seed: 12 }, DEFAULT_HOTEL_POOL));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it("keeps the pairs unchanged when only the number of triples changes (forked streams)", () => {
    const a = buildChoiceTasks({ ...SMALL, triples: 30 }, DEFAULT_HOTEL_POOL).filter(
      (t) => t.kind === "binary",
    );
    const b = buildChoiceTasks({ ...SMALL, triples: 60 }, DEFAULT_HOTEL_POOL).filter(
      (t) => t.kind === "binary",
    );
    expect(a).toEqual(b);
  });

  it("puts each option of each unique set in each slot equally often", () => {
    const tasks = buildChoiceTasks({ ...SMALL, seed: 5 }, DEFAULT_HOTEL_POOL);
    for (const [setId, hotels] of slotCounts(tasks)) {
      const all = [...hotels.values()].flat();
      const expected = all[0]!;
      expect(
        all.every((c) => c === expected),
        `set ${setId}: ${JSON.stringify([...hotels])}`,
      ).toBe(true);
      expect(expected).toBeGreaterThan(0);
    }
  });

  it("shows every binary appearance in both orders with identical attribute draws", () => {
    const tasks = buildChoiceTasks({ ...SMALL, seed: 6 }, DEFAULT_HOTEL_POOL).filter(
      (t) => t.kind === "binary",
    );
    for (let i = 0; i < tasks.length; i += 2) {
      const [first, second] = [tasks[i]!, tasks[i + 1]!];
      expect(first.setId).toBe(second.setId);
      expect(first.appearance).toBe(second.appearance);
      expect(second.options).toEqual([...first.options].reverse());
    }
  });

  it("re-draws the six variable attributes within each hotel's ranges on every appearance", () => {
    const byId = new Map(DEFAULT_HOTEL_POOL.map((h) => [h.id, h]));
    const tasks = buildChoiceTasks({ ...SMALL, seed: 8 }, DEFAULT_HOTEL_POOL);
    const prices = new Map<number, Set<number>>();
    for (const t of tasks) {
      for (const o of t.options) {
        const h = byId.get(o.hotelId)!;
        expect(o.name).toBe(h.name);
        expect(o.price).toBeGreaterThanOrEqual(Math.floor(h.priceMin));
        expect(o.price).toBeLessThanOrEqual(Math.ceil(h.priceMax));
        expect(Math.abs(o.reviewScore - h.reviewScoreBase)).toBeLessThanOrEqual(0.2 + 1e-9);
        expect(o.reviewCount).toBeGreaterThanOrEqual(Math.floor(h.reviewCountBase * 0.9));
        expect(o.reviewCount).toBeLessThanOrEqual(Math.ceil(h.reviewCountBase * 1.1));
        expect(h.roomTypes).toContain(o.roomType);
        const seen = prices.get(o.hotelId) ?? new Set<number>();
        seen.add(o.price);
        prices.set(o.hotelId, seen);
      }
    }
    const varied = [...prices.entries()].filter(
      ([id, s]) => s.size > 1 && byId.get(id)!.priceMax > byId.get(id)!.priceMin + 5,
    );
    expect(varied.length).toBeGreaterThan(20);
  });

  it("rejects impossible designs with a message naming the problem", () => {
    const tiny = generateHotelPool(1, 6);
    expect(() => buildChoiceTasks({ pairs: 16, triples: 0, fives: 0 }, tiny)).toThrow(UserError);
    expect(() => buildChoiceTasks({ pairs: 16, triples: 0, fives: 0 }, tiny)).toThrow(
      /16 unique binary sets.*only 15/,
    );
    expect(() =>
      buildChoiceTasks({ pairs: 1, triples: 1, tripleAppearances: 4, fives: 0 }, DEFAULT_HOTEL_POOL),
    ).toThrow(/multiple of 3/);
    expect(() => buildChoiceTasks({ pairs: 0, triples: 0, fives: 0 }, DEFAULT_HOTEL_POOL)).toThrow(
      /no tasks/,
    );
    expect(() =>
      buildChoiceTasks({ pairs: 0, triples: 0, fives: 2, fiveOrders: "reverse-pairs" }, DEFAULT_HOTEL_POOL),
    ).toThrow(/rotations/);
  });

  it("can use every possible pair of a small pool (dense sampling)", () => {
    const tiny = generateHotelPool(1, 6);
    const tasks = buildChoiceTasks({ pairs: 15, pairAppearances: 1, triples: 0, fives: 0 }, tiny);
    expect(new Set(tasks.map((t) => t.setId)).size).toBe(15);
    const keys = new Set(
      tasks.map((t) =>
        t.options
          .map((o) => o.hotelId)
          .sort((a, b) => a - b)
          .join(","),
      ),
    );
    expect(keys.size).toBe(15);
  });
});

describe("displayOrders", () => {
  it("balances triples over three appearances and rotates larger sets", () => {
    const orders = [0, 1, 2].flatMap((a) => displayOrders(3, "reverse-pairs", a));
    for (let slot = 0; slot < 3; slot++) {
      const counts = [0, 0, 0];
      for (const o of orders) counts[o[slot]!]!++;
      expect(counts).toEqual([2, 2, 2]);
    }
    expect(displayOrders(5, "rotations", 0)).toHaveLength(5);
    expect(displayOrders(2, "reverse-pairs", 0)).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });
});
