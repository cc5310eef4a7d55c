/** Predictions from fitted coefficients, e.g. out-of-sample hit rates. */
import type { LogitCoefficient } from "./types.ts";

type Coefficients = readonly number[] | readonly Pick<LogitCoefficient, "estimate">[];

function estimates(coefficients: Coefficients): number[] {
  return coefficients.map((c) => (typeof c === "number" ? c : c.estimate));
}

function utility(beta: readonly number[], row: readonly number[], what: string): number {
  if (row.length !== beta.length)
    throw new RangeError(`${what}: a row has ${row.length} values for ${beta.length} coefficients`);
  let u = 0;
  for (let j = 0; j < beta.length; j++) u += (beta[j] as number) * (row[j] as number);
  return u;
}

/**
 * Conditional-logit choice probabilities of one situation's alternatives (rows in the coefficients'
 * column order). To predict k-option choices from a binary fit, pass the attribute coefficients
 * only (not the binary intercept) together with slot constants if you have them.
 */
export function predictProbabilities(
  coefficients: Coefficients,
  rows: readonly (readonly number[])[],
): number[] {
  const beta = estimates(coefficients);
  const u = rows.map((r) => utility(beta, r, "predictProbabilities"));
  const max = Math.max(...u);
  const e = u.map((v) => Math.exp(v - max));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

/** Binary-logit P(y = 1) for each row. */
export function predictBinaryProbabilities(
  coefficients: Coefficients,
  rows: readonly (readonly number[])[],
): number[] {
  const beta = estimates(coefficients);
  return rows.map((r) => {
    const eta = utility(beta, r, "predictBinaryProbabilities");
    const e = Math.exp(-Math.abs(eta));
    return eta >= 0 ? 1 / (1 + e) : e / (1 + e);
  });
}
