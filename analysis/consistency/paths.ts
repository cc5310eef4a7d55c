import type { Rng } from "../../environments/kernel/rng.ts";
import { mean, percentileInterval, resampleIndices } from "../stats/index.ts";
import type { LocalResidual } from "./local.ts";

/** Mean price-normalised P1 error at one path length, with a bootstrap interval over paths. */
export interface PathLengthPoint {
  steps: number;
  paths: number;
  /** Mean of |R1,k| / s_ab over the paths. */
  meanError: number;
  /** Percentile bootstrap interval of that mean, resampling paths (null with a single path). */
  low: number | null;
  high: number | null;
  /**
   * The mean |R1,k| / s_ab that sampling noise alone would give a self-consistent respondent:
   * the mean over paths of √(2/π)·SE(R1,k)/s_ab (E|N(0, σ²)| = σ√(2/π)); NaN if any SE is unknown.
   */
  noiseBaseline: number;
  /** |R1,k| / s_ab per path, by group and comparison id. */
  perPath: Record<string, number>;
}

/**
 * The path-length stress curve: for each k, the mean over smooth single-feature paths of the
 * price-normalised P1 error |R1,k| / s_ab, with a percentile bootstrap interval over the paths.
 */
export function pathLengthCurve(
  residuals: readonly LocalResidual[],
  options: { draws: number; level: number; rng: Rng },
): PathLengthPoint[] {
  const bySteps = new Map<number, LocalResidual[]>();
  for (const r of residuals) {
    if (r.kind !== "P1" || r.steps === undefined) continue;
    const list = bySteps.get(r.steps) ?? [];
    list.push(r);
    bySteps.set(r.steps, list);
  }
  return [...bySteps.keys()]
    .sort((a, b) => a - b)
    .map((steps) => {
      const list = bySteps.get(steps) as LocalResidual[];
      const errors = list.map((r) => Math.abs(r.relative.estimate));
      let low: number | null = null;
      let high: number | null = null;
      if (errors.length > 1 && options.draws > 0) {
        const rng = options.rng.fork(`k${steps}`);
        const draws: number[] = [];
        for (let b = 0; b < options.draws; b++)
          draws.push(mean(Array.from(resampleIndices(rng, errors.length), (i) => errors[i] as number)));
        ({ low, high } = percentileInterval(draws, options.level));
      }
      return {
        steps,
        paths: errors.length,
        meanError: mean(errors),
        noiseBaseline: mean(list.map((r) => Math.sqrt(2 / Math.PI) * r.relative.se)),
        low,
        high,
        perPath: Object.fromEntries(
          list.map((r) => [`${r.group}|${r.comparison}`, Math.abs(r.relative.estimate)]),
        ),
      };
    });
}
