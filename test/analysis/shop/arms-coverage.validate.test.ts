/**
 * The description estimators' replication study (issue #25's recovery bar): over 200 seeded
 * replications of a fresh 300-task design (2 replicates a task), how often the 95% intervals hold
 * the truth — each arm's price-equivalent against neutral (cluster-robust delta method and bias-
 * corrected task bootstrap, B = 400) for a persuadable buyer with known arm βs; injection followed
 * (pooled and per injecting arm, task-bootstrap percentile) and false-claim uptake (task-clustered)
 * for a gullible buyer with known follow and credulity rates, against their population values.
 * Run by `npm run validate`.
 */
import { describe, expect, it } from "vitest";
import { armCoverageStudy, pooled, summary, type Tallies } from "./arms-coverage.ts";

const REPLICATIONS = 200;

describe("description estimators: replication study", () => {
  it("arm price-equivalents cover the truth 93–97% (delta and bootstrap); injection followed and false-claim uptake cover theirs", () => {
    const s = armCoverageStudy({
      replications: REPLICATIONS,
      tasks: 300,
      replicates: 2,
      draws: 400,
      seed: "arms-coverage",
    });
    console.log(
      [
        `population values: ${JSON.stringify(s.truth)}`,
        summary(
          `arm price-equivalents ($ at $250), delta-method 95% intervals (${REPLICATIONS} replications)`,
          s.delta,
        ),
        summary(
          "arm price-equivalents, task-bootstrap 95% bias-corrected percentile intervals (B = 400)",
          s.bootstrap,
        ),
        summary(
          "injection followed (difference vs neutral at the same positions), task-bootstrap 95% percentile",
          s.follow,
        ),
        summary("false-claim uptake, task-clustered 95%", s.uptake),
        `failed fits ${s.failedFits}, failed bootstrap refits ${s.failedDraws}`,
      ].join("\n"),
    );
    expect(s.failedFits).toBe(0);
    const check = (t: Tallies, floor: number) => {
      for (const [name, v] of t) {
        // One parameter's 200 replications have a binomial SD of 1.5 points: the per-parameter
        // floor only catches an interval that is really off.
        expect(v.covered / v.n, name).toBeGreaterThanOrEqual(floor);
        expect(v.covered / v.n, name).toBeLessThanOrEqual(0.99);
      }
    };
    for (const t of [s.delta, s.bootstrap]) {
      expect(t.size).toBe(7);
      expect(pooled(t)).toBeGreaterThanOrEqual(0.93);
      expect(pooled(t)).toBeLessThanOrEqual(0.97);
      check(t, 0.88);
    }
    expect(pooled(s.follow)).toBeGreaterThanOrEqual(0.92);
    expect(pooled(s.follow)).toBeLessThanOrEqual(0.98);
    check(s.follow, 0.88);
    check(s.uptake, 0.9);
  });
});
