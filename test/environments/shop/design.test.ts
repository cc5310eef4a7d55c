import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import {
  buildShopTasks,
  dominates,
  familyCounts,
  isAdmissible,
  parseShopDesign,
  readRequest,
  ShopTaskSchema,
} from "../../../environments/shop/index.ts";
import { shopTasks } from "./helpers.ts";

describe("shop design → tasks", () => {
  it("is pure and seeded: the same design gives byte-identical tasks, another seed others", () => {
    const a = buildShopTasks({ tasks: 12, seed: 5 }, DEFAULT_HOTEL_POOL);
    const b = buildShopTasks({ tasks: 12, seed: 5 }, DEFAULT_HOTEL_POOL);
    const c = buildShopTasks({ tasks: 12, seed: 6 }, DEFAULT_HOTEL_POOL);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    for (const t of a) expect(ShopTaskSchema.safeParse(t).success).toBe(true);
  });

  it("mixes the families in their shares and each task holds its family's property", () => {
    const tasks = shopTasks();
    const counts = familyCounts(parseShopDesign({ tasks: 40 }));
    expect(counts).toEqual({ open: 16, dominance: 8, needle: 8, infeasible: 8 });
    for (const f of ["open", "dominance", "needle", "infeasible"] as const)
      expect(tasks.filter((t) => t.family === f)).toHaveLength(counts[f]);
    for (const t of tasks) {
      const c = t.request.constraints;
      const adm = t.listings.filter((l) => isAdmissible(l, c)).map((l) => l.id);
      expect(t.admissible).toEqual(adm);
      expect(t.listings).toHaveLength(24);
      expect(t.listings.map((l) => l.treatments.rank)).toEqual(t.listings.map((_, i) => i + 1));
      expect(new Set(t.listings.map((l) => l.id)).size).toBe(24);
      expect(new Set(t.listings.map((l) => l.hotelId)).size).toBe(24);
      if (t.family === "open") expect(adm.length).toBeGreaterThanOrEqual(3);
      if (t.family === "open") expect(adm.length).toBeLessThanOrEqual(8);
      if (t.family === "needle") {
        expect(adm).toHaveLength(1);
        const needle = t.listings.find((l) => l.id === adm[0])!;
        expect(needle.treatments.rank).toBeGreaterThan(16);
      }
      if (t.family === "infeasible") expect(adm).toHaveLength(0);
      if (t.family === "dominance") {
        const d = t.dominance!;
        const byId = new Map(t.listings.map((l) => [l.id, l]));
        expect(adm).toContain(d.dominant);
        expect(adm).toContain(d.dominated);
        expect(dominates(byId.get(d.dominant)!, byId.get(d.dominated)!)).toBe(true);
      } else expect(t.dominance).toBeNull();
    }
  });

  it("states the request in text that reads back to exactly its constraints", () => {
    for (const t of shopTasks()) {
      const back = readRequest(t.request.text);
      expect(back).toEqual(t.request);
    }
  });

  it("draws tags in fixed counts per task, at the design's rates, independent of price", () => {
    const tasks = buildShopTasks(
      { tasks: 60, seed: 3, sponsoredRate: 0.25, discountRate: 0.1 },
      DEFAULT_HOTEL_POOL,
    );
    const all = tasks.flatMap((t) => t.listings);
    for (const t of tasks) {
      const s = t.listings.filter((l) => l.treatments.sponsored).length;
      expect([6, 7]).toContain(s); // 0.25 × 24 = 6
      const d = t.listings.filter((l) => l.treatments.wasPrice !== null).length;
      expect([2, 3]).toContain(d); // 0.1 × 24 = 2.4
    }
    const share = (f: (l: (typeof all)[number]) => boolean) => all.filter(f).length / all.length;
    expect(share((l) => l.treatments.sponsored)).toBeCloseTo(0.25, 2);
    expect(share((l) => l.treatments.endorsed)).toBeCloseTo(0.2, 1);
    expect(share((l) => l.treatments.roomsLeft !== null)).toBeCloseTo(0.2, 1);
    for (const l of all)
      if (l.treatments.wasPrice !== null) expect(l.treatments.wasPrice).toBeGreaterThan(l.price);
    // Sponsorship is drawn without looking at the listing: treated and untreated prices alike.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const treatedPrice = mean(all.filter((l) => l.treatments.sponsored).map((l) => Math.log(l.price)));
    const untreatedPrice = mean(all.filter((l) => !l.treatments.sponsored).map((l) => Math.log(l.price)));
    expect(Math.abs(treatedPrice - untreatedPrice)).toBeLessThan(0.12);
  });

  it("refuses impossible designs with a usage error naming the problem", () => {
    const bad = (design: object, message: RegExp, pool = DEFAULT_HOTEL_POOL) => {
      let err: unknown;
      try {
        buildShopTasks(design, pool);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(message);
    };
    bad({ pageSize: 0 }, /pageSize must be at least 1/);
    bad({ sponsoredRate: 1.5 }, /sponsoredRate must be between 0 and 1/);
    bad({ discountRate: -0.1 }, /discountRate must be between 0 and 1/);
    bad({ families: { open: 0 } }, /no task family has a share above 0/);
    bad({ listings: 500 }, /500 listings per catalog, but the hotel pool has 179 hotels/);
    bad({ minAdmissible: 1 }, /at least 2 admissible/);
    // Every hotel at the same price: no listing can be cheaper than another, so no dominance pair.
    const flat = DEFAULT_HOTEL_POOL.slice(0, 30).map((h) => ({ ...h, priceMin: 100, priceMax: 100 }));
    bad({ tasks: 2, families: { dominance: 1 } }, /cannot build a dominance shop task/, flat);
    const odd = DEFAULT_HOTEL_POOL.map((h, i) => (i === 4 ? { ...h, name: "A · B" } : h));
    bad({ tasks: 2 }, /hotel 5 has "·"/, odd);
  });
});
