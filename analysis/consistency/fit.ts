import { Matrix, pseudoInverse, SingularValueDecomposition } from "ml-matrix";
import type { Offer } from "./types.ts";

/** What the fit needs of a query: its type and what it is about. */
export interface FitQuery {
  queryType: "item" | "offer-pair";
  item?: string;
  source?: Offer;
  target?: Offer;
}

/**
 * The least-squares design of one audit group under quasi-linear, unrestricted utilities: one free
 * utility U per item, item queries estimating U(x), offer-pair queries a = (x, p) → b = (y, q)
 * estimating U(y) − U(x) − (q − p). In z = mean + offset form every row is linear in U:
 * item rows z = ȳ, offer-pair rows z = Δ̄ + (q − p). `residualMaker` M = I − X X⁺ maps any z to the
 * residuals of its least-squares fit, so a bootstrap refit is one matrix–vector product.
 */
export interface UtilityDesign {
  /** Items, in column order. */
  items: string[];
  /** X, queries × items. */
  x: Matrix;
  /** q − p for offer-pair rows, 0 for item rows. */
  offsets: Float64Array;
  /** X⁺ (items × queries): the minimum-norm least-squares solution operator. */
  solver: Matrix;
  /** M = I − X X⁺, row-major, queries × queries. */
  residualMaker: Float64Array;
  rank: number;
}

export function utilityDesign(queries: readonly FitQuery[]): UtilityDesign {
  const items: string[] = [];
  const column = new Map<string, number>();
  const col = (id: string) => {
    let j = column.get(id);
    if (j === undefined) {
      j = items.length;
      column.set(id, j);
      items.push(id);
    }
    return j;
  };
  const rows = queries.map((q) =>
    q.queryType === "item"
      ? { plus: col(q.item as string), minus: -1 }
      : { plus: col((q.target as Offer).item), minus: col((q.source as Offer).item) },
  );
  const m = queries.length;
  const x = Matrix.zeros(m, items.length);
  const offsets = new Float64Array(m);
  rows.forEach((r, i) => {
    x.set(i, r.plus, x.get(i, r.plus) + 1);
    if (r.minus >= 0) x.set(i, r.minus, x.get(i, r.minus) - 1);
    const q = queries[i] as FitQuery;
    if (q.queryType === "offer-pair") offsets[i] = (q.target as Offer).price - (q.source as Offer).price;
  });
  const solver = items.length > 0 ? pseudoInverse(x) : Matrix.zeros(0, m);
  const hat = items.length > 0 ? x.mmul(solver) : Matrix.zeros(m, m);
  const residualMaker = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) residualMaker[i * m + j] = (i === j ? 1 : 0) - hat.get(i, j);
  const rank = items.length > 0 ? new SingularValueDecomposition(x, { autoTranspose: true }).rank : 0;
  return { items, x, offsets, solver, residualMaker, rank };
}

/** y = M v for the row-major square matrix M. */
export function applyResidualMaker(
  design: UtilityDesign,
  v: ArrayLike<number>,
  out?: Float64Array,
): Float64Array {
  const m = design.offsets.length;
  const r = out ?? new Float64Array(m);
  const M = design.residualMaker;
  for (let i = 0; i < m; i++) {
    let s = 0;
    const row = i * m;
    for (let j = 0; j < m; j++) s += (M[row + j] as number) * (v[j] as number);
    r[i] = s;
  }
  return r;
}

/** Root mean square of a vector: the statistic T when given the fit's residuals. */
export function rootMeanSquare(r: ArrayLike<number>): number {
  if (r.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < r.length; i++) s += (r[i] as number) * (r[i] as number);
  return Math.sqrt(s / r.length);
}

export interface UtilityFit {
  design: UtilityDesign;
  /** Fitted utility per item, in dollars (minimum-norm when the design does not pin every item down). */
  utilities: Record<string, number>;
  /** The query means the fitted utility implies (answer scale: U(x), or U(y) − U(x) − (q − p)). */
  fitted: number[];
  /** Observed mean − fitted mean, per query. */
  residuals: number[];
  /** T: the root mean square residual, every query weighted equally, in dollars. */
  rmse: number;
}

/** Fits one utility to a group's query means by least squares (every query weighted equally). */
export function fitUtilities(queries: readonly FitQuery[], means: readonly number[]): UtilityFit {
  if (queries.length !== means.length)
    throw new RangeError(`fitUtilities: ${queries.length} queries but ${means.length} means`);
  const design = utilityDesign(queries);
  const z = means.map((y, i) => y + (design.offsets[i] as number));
  const residuals = Array.from(applyResidualMaker(design, z));
  const u = design.items.length > 0 ? design.solver.mmul(Matrix.columnVector(z)).getColumn(0) : [];
  const utilities = Object.fromEntries(design.items.map((id, j) => [id, u[j] as number]));
  return {
    design,
    utilities,
    fitted: means.map((y, i) => y - (residuals[i] as number)),
    residuals,
    rmse: rootMeanSquare(residuals),
  };
}
