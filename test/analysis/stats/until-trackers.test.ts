/**
 * The cue environment's precision target (analysis/cue/estimands.ts) against an independent
 * computation, on seeded records from a known logistic shopper: each condition's PE and Fieller
 * interval from a fit made here and Fieller's inequality solved by bisection; a condition whose cued
 * copy never wins at a price settles below the grid only once the exact binomial test says so.
 * (Choice's trackers are checked against the choice analysis in test/cli/until-run.test.ts, the
 * shop's and bargaining's against theirs there too.)
 */
import { describe, expect, it } from "vitest";
import { CUE_ESTIMANDS } from "../../../analysis/cue/estimands.ts";
import { fitBinaryLogit } from "../../../analysis/logit/index.ts";
import { normalQuantile } from "../../../analysis/stats/distributions.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const GRID = [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3];
const PAIRS = 8;
const pe = CUE_ESTIMANDS.estimands.find((e) => e.name === "pe")!;

/** Cue records of one condition: P(cued) = logistic(a + b·g + c·f), f = ±½ for cued first/second. */
function records(condition: string, a: number, b: number, c: number, reps: number, seed: string) {
  const rng = createRng(seed);
  const out: Record<string, unknown>[] = [];
  for (let p = 0; p < PAIRS; p++)
    for (const g of GRID)
      for (const cuedFirst of [true, false])
        for (let r = 0; r < reps; r++) {
          const eta = a + b * g + c * (cuedFirst ? 0.5 : -0.5);
          const cued = rng.next() < 1 / (1 + Math.exp(-eta));
          out.push({
            trialKey: `${condition}/${p}/${g}/${cuedFirst}/${r}`,
            agent: "sim",
            block: "main",
            condition,
            family: condition,
            intensity: null,
            oneSided: false,
            category: "headphones",
            pairId: `pair-${p}`,
            premium: g,
            cueTarget: "A",
            cuedFirst,
            instruction: 0,
            factors: null,
            choseCued: cued,
            chosenSlot: cued === cuedFirst ? 0 : 1,
            nonResponse: null,
          });
        }
  return out;
}

function bisect(f: (x: number) => number, lo: number, hi: number): number {
  let [a, b] = [lo, hi];
  const fa = Math.sign(f(a));
  for (let k = 0; k < 200; k++) {
    const m = (a + b) / 2;
    if (Math.sign(f(m)) === fa) a = m;
    else b = m;
  }
  return (a + b) / 2;
}

describe("cue pe tracker", () => {
  it("a condition's PE and interval: −a/b of a fit made here, the ends solving Fieller's inequality", () => {
    const recs = records("authority", 2, -20, 0.3, 3, "pe-1");
    const tracker = pe.tracker(0.95, recs.length);
    // Fed in two blocks: the warm-started refit lands where a fit from scratch does.
    tracker.add(recs.slice(0, 200));
    tracker.add(recs.slice(200));
    const v = tracker.value();
    if (!v.interval) throw new Error(`no interval: ${"why" in v ? v.why : ""}`);
    const fit = fitBinaryLogit({
      X: recs.map((r) => [1, r.premium as number, r.cuedFirst ? 0.5 : -0.5]),
      y: recs.map((r) => (r.choseCued ? 1 : 0)),
      names: ["intercept", "premium", "cuedFirst"],
    });
    if (fit.status !== "ok") throw new Error(fit.reason);
    const [a, b] = [fit.coefficients[0]!.estimate, fit.coefficients[1]!.estimate];
    const [vaa, vbb, vab] = [fit.vcov[0]![0]!, fit.vcov[1]![1]!, fit.vcov[0]![1]!];
    expect(v.interval.estimate).toBeCloseTo(-a / b, 6);
    // (−a − θb)² = z²·Var(−a − θb).
    const z2 = normalQuantile(0.975) ** 2;
    const f = (t: number) => (-a - t * b) ** 2 - z2 * (vaa + 2 * t * vab + t * t * vbb);
    expect(v.interval.low).toBeCloseTo(bisect(f, -1, -a / b), 6);
    expect(v.interval.high).toBeCloseTo(bisect(f, -a / b, 2), 6);
    expect(v.interval.units).toBe(PAIRS);
    expect(v.detail).toMatch(/widest of 1 conditions: authority \(headphones\)/);
  });

  it("the widest condition decides; one whose cued copy never wins at a price settles below the grid", () => {
    const strong = records("authority", 2, -20, 0.3, 3, "pe-2");
    // Wins half the time at equal price and never at the first step: separated, no logit.
    const none = records("reformat", 0, -400, 0, 3, "pe-3");
    const tracker = pe.tracker(0.95, strong.length + none.length);
    tracker.add([...strong, ...none]);
    const v = tracker.value();
    if (!v.interval) throw new Error(`no interval: ${"why" in v ? v.why : ""}`);
    expect(v.detail).toMatch(/authority \(headphones\); 1 beyond the grid/);
    const alone = pe.tracker(0.95, none.length);
    alone.add(none);
    expect(alone.value()).toMatchObject({ interval: null, settled: true });
  });

  it("a few answers without a win at the first step do not settle it: the exact test decides", () => {
    const equalPrice = records("reformat", 0, -400, 0, 1, "pe-4").filter((r) => r.premium === 0);
    const losses = (k: number) =>
      Array.from({ length: k }, (_, i) => ({
        ...equalPrice[0]!,
        trialKey: `loss-${i}`,
        pairId: `pair-${i % PAIRS}`,
        premium: 0.02,
        choseCued: false,
      }));
    const value = (k: number) => {
      const t = pe.tracker(0.95, equalPrice.length + k);
      t.add([...equalPrice, ...losses(k)]);
      return t.value();
    };
    // 0 wins in 5: P(X = 0 | ½) = 1/32, above 0.025 — open; in 6, 1/64 — settled below the grid.
    const five = value(5);
    expect(five.interval).toBeNull();
    expect("settled" in five ? five.settled : undefined).toBeFalsy();
    expect(value(6)).toMatchObject({ interval: null, settled: true });
  });

  it("with the design: a condition not yet answered keeps it open; the grid's first step is the design's, not the first seen", () => {
    const task = (condition: string, premium: number) => ({
      taskId: `${condition}/p/${premium}/s`,
      block: "main",
      condition,
      category: "headphones",
      premium,
    });
    const design = [...GRID.map((g) => task("reformat", g)), ...GRID.map((g) => task("authority", g))];
    const none = records("reformat", 0, -400, 0, 3, "pe-5");
    // Both conditions in the design, one answered: open, naming the other.
    const half = pe.tracker(0.95, none.length, design);
    half.add(none);
    expect(half.value()).toMatchObject({ interval: null, why: "authority (headphones): no answers yet" });
    // Answers at 0 and 0.2 only: never a win at 0.2 says nothing of the grid's first step (0.02).
    const late = none.filter((r) => r.premium === 0 || r.premium === 0.2);
    const t = pe.tracker(0.95, late.length, design.slice(0, GRID.length));
    t.add(late);
    const v = t.value();
    expect(v.interval).toBeNull();
    expect("settled" in v ? v.settled : undefined).toBeFalsy();
  });

  it("replicates of one task are not independent answers: one pair's losses never settle a condition", () => {
    const one = records("reformat", 0, -400, 0, 6, "pe-6").filter((r) => r.pairId === "pair-0");
    const t = pe.tracker(0.95, one.length);
    t.add(one);
    const v = t.value();
    expect(v.interval).toBeNull();
    expect("settled" in v ? v.settled : undefined).toBeFalsy();
  });
});
