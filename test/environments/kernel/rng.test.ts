import { describe, expect, it } from "vitest";
import { createRng } from "../../../environments/kernel/rng.ts";

describe("createRng", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const a = Array.from({ length: 5 }, createRng(7).next.bind(createRng(7)));
    const r1 = createRng("x");
    const r2 = createRng("x");
    const r3 = createRng("y");
    const s1 = Array.from({ length: 100 }, () => r1.next());
    const s2 = Array.from({ length: 100 }, () => r2.next());
    const s3 = Array.from({ length: 100 }, () => r3.next());
    expect(s1).toEqual(s2);
    expect(s1).not.toEqual(s3);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("draws uniform values with the right moments", () => {
    const rng = createRng(1);
    const n = 200_000;
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      sum += u;
      sq += u * u;
    }
    const mean = sum / n;
    expect(mean).toBeCloseTo(0.5, 2);
    expect(sq / n - mean * mean).toBeCloseTo(1 / 12, 2);
  });

  it("draws normal and Gumbel values with the right means and variances", () => {
    const rng = createRng(2);
    const n = 200_000;
    const normals = Array.from({ length: n }, () => rng.normal());
    const gumbels = Array.from({ length: n }, () => rng.gumbel());
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = (xs: number[]) => {
      const m = mean(xs);
      return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
    };
    expect(mean(normals)).toBeCloseTo(0, 2);
    expect(variance(normals)).toBeCloseTo(1, 1);
    expect(mean(gumbels)).toBeCloseTo(0.5772156649, 2); // Euler–Mascheroni
    expect(variance(gumbels)).toBeCloseTo(Math.PI ** 2 / 6, 1);
  });

  it("forks independent, reproducible streams", () => {
    const root = createRng(3);
    const a = root.fork("a");
    const b = root.fork("b");
    const a2 = createRng(3).fork("a");
    expect(a.next()).toBe(a2.next());
    expect(a.next()).not.toBe(b.next());
  });

  it("shuffles into a permutation and int stays in range", () => {
    const rng = createRng(4);
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = rng.shuffle(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(shuffled).not.toEqual(items);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[rng.int(3)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(9_500);
    expect(() => rng.int(0)).toThrow(/positive integer/);
  });
});
