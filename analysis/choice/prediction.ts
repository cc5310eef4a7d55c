/** Out-of-sample checks: do utilities fitted on binary choices predict larger choice sets? */
import type { ChoiceOption } from "../../environments/choice/types.ts";
import type { LogitFit } from "../logit/index.ts";
import { spearman } from "../stats/index.ts";
import { type UtilitySpec, utilityNames, utilityRow } from "./design.ts";
import type { ChoiceTrial } from "./types.ts";

export interface HitRate {
  /** Answered trials predicted. */
  situations: number;
  /** Share in which the option with the highest fitted utility was booked. */
  hitRate: number;
  /** Share in which the booked option was among the two highest. */
  top2Rate: number;
  /** Mean rank (1 = highest utility) of the booked option. */
  meanRank: number;
  /** The hit rate of a uniform guess: mean 1/k over the situations. */
  chance: number;
}

/**
 * Predict k-option choices from a binary fit's attribute and price coefficients (the intercept, a
 * position effect of the binary format, is left out). Null without answered trials or an ok fit.
 */
export function outOfSampleHitRate(
  binaryFit: LogitFit,
  spec: UtilitySpec,
  trials: readonly ChoiceTrial[],
): HitRate | null {
  if (binaryFit.status !== "ok") return null;
  const names = utilityNames(spec);
  const beta = names.map((n) => {
    const c = binaryFit.coefficients.find((x) => x.name === n);
    if (!c) throw new RangeError(`outOfSampleHitRate: the binary fit has no coefficient "${n}"`);
    return c.estimate;
  });
  let n = 0;
  let hits = 0;
  let top2 = 0;
  let rankSum = 0;
  let chance = 0;
  for (const t of trials) {
    if (t.chosenSlot === null) continue;
    const u = t.options.map((o: ChoiceOption) =>
      utilityRow(o, spec).reduce((s, v, j) => s + v * (beta[j] as number), 0),
    );
    const mine = u[t.chosenSlot] as number;
    const rank = 1 + u.filter((v, s) => v > mine || (v === mine && s < (t.chosenSlot as number))).length;
    n++;
    if (rank === 1) hits++;
    if (rank <= 2) top2++;
    rankSum += rank;
    chance += 1 / t.options.length;
  }
  if (n === 0) return null;
  return { situations: n, hitRate: hits / n, top2Rate: top2 / n, meanRank: rankSum / n, chance: chance / n };
}

export interface FormatAgreement {
  agents: string[];
  /**
   * Spearman's ρ across agents between the binary and the ternary price sensitivities |β| (the
   * ranking the paper compares; its figure code ranks absolute values too).
   */
  spearmanLog: number | null;
  spearmanLinear: number | null;
}

/** Binary-vs-ternary agreement of the price coefficients across agents (the paper: 0.88 / 0.90). */
export function formatAgreement(
  rows: readonly {
    agent: string;
    binaryLog: number;
    ternaryLog: number;
    binaryLinear: number;
    ternaryLinear: number;
  }[],
): FormatAgreement {
  const rho = (a: number[], b: number[]) => {
    if (a.length < 3) return null;
    const r = spearman(a.map(Math.abs), b.map(Math.abs));
    return Number.isFinite(r) ? r : null;
  };
  return {
    agents: rows.map((r) => r.agent),
    spearmanLog: rho(
      rows.map((r) => r.binaryLog),
      rows.map((r) => r.ternaryLog),
    ),
    spearmanLinear: rho(
      rows.map((r) => r.binaryLinear),
      rows.map((r) => r.ternaryLinear),
    ),
  };
}
