/**
 * The description estimators' replication study, quick: a dozen seeded replications (the full
 * study, ≥ 200 replications, is arms-coverage.validate.test.ts under `npm run validate`). Floors
 * are loose on purpose — 84 arm intervals at a true 95% fall below 85% with probability ~1e-4 —
 * so this catches an interval that is badly off, and the long study measures how close it is.
 */
import { describe, expect, it } from "vitest";
import { armCoverageStudy, pooled, summary } from "./arms-coverage.ts";

describe("description estimators: quick replication study", () => {
  it("arm price-equivalents' delta and bootstrap intervals, injection followed and false-claim uptake cover their truth", () => {
    const s = armCoverageStudy({
      replications: 12,
      tasks: 250,
      replicates: 2,
      draws: 100,
      seed: "arms-quick",
      populationTasks: 6000,
    });
    console.log(
      [
        summary("arm price-equivalents, delta-method 95% intervals", s.delta),
        summary("arm price-equivalents, task-bootstrap 95% intervals", s.bootstrap),
        summary(
          "injection followed (difference vs neutral at the same positions), task-bootstrap 95%",
          s.follow,
        ),
        summary("false-claim uptake, task-clustered 95%", s.uptake),
      ].join("\n"),
    );
    expect(s.failedFits).toBe(0);
    expect(s.delta.size).toBe(7);
    expect(pooled(s.delta)).toBeGreaterThanOrEqual(0.85);
    expect(pooled(s.bootstrap)).toBeGreaterThanOrEqual(0.85);
    expect(pooled(s.follow)).toBeGreaterThanOrEqual(0.8);
    expect(pooled(s.uptake)).toBeGreaterThanOrEqual(0.75);
  });
});
