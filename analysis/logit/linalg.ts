/**
 * Small dense symmetric solves on row-major Float64Array k×k matrices. The matrices are scaled to
 * unit diagonal first, so the positive-definiteness and pivot tests are about collinearity, not
 * about covariate units (price in dollars next to a 0/1 dummy).
 */
import { CholeskyDecomposition, LuDecomposition, Matrix } from "ml-matrix";

function unitDiagonal(a: Float64Array, k: number): { m: Matrix; d: Float64Array } | null {
  const d = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const v = a[j * k + j] as number;
    if (!(v > 0) || !Number.isFinite(v)) return null;
    d[j] = 1 / Math.sqrt(v);
  }
  // Built from the upper triangle and mirrored: ml-matrix's Cholesky demands exact symmetry.
  const rows: number[][] = Array.from({ length: k }, () => new Array<number>(k));
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      const v = (a[i * k + j] as number) * (d[i] as number) * (d[j] as number);
      (rows[i] as number[])[j] = v;
      (rows[j] as number[])[i] = v;
    }
  }
  return { m: new Matrix(rows), d };
}

/**
 * The Cholesky factor L (row-major k × k, lower triangle) of a symmetric matrix, or null when a
 * pivot is not above `minPivot` (times the diagonal entry, or 1 if that is smaller). A plain loop
 * on Float64Array: at the 10–15 coefficients of a choice model it is ~20× quicker than building
 * ml-matrix objects, and Newton solves once per step.
 */
export function cholesky(a: Float64Array, k: number, minPivot = 0): Float64Array | null {
  const l = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * k + j] as number;
      for (let q = 0; q < j; q++) s -= (l[i * k + q] as number) * (l[j * k + q] as number);
      if (i === j) {
        if (!(s > minPivot * Math.max(1, a[i * k + i] as number))) return null;
        l[i * k + i] = Math.sqrt(s);
      } else l[i * k + j] = s / (l[j * k + j] as number);
    }
  }
  return l;
}

/** x with L·Lᵀ·x = b, for L from `cholesky`. */
export function choleskySolve(l: Float64Array, b: ArrayLike<number>, k: number): Float64Array {
  const z = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = b[i] as number;
    for (let q = 0; q < i; q++) s -= (l[i * k + q] as number) * (z[q] as number);
    z[i] = s / (l[i * k + i] as number);
  }
  for (let i = k - 1; i >= 0; i--) {
    let s = z[i] as number;
    for (let q = i + 1; q < k; q++) s -= (l[q * k + i] as number) * (z[q] as number);
    z[i] = s / (l[i * k + i] as number);
  }
  return z;
}

/**
 * x with a·x = b for a symmetric information matrix (Cholesky, ml-matrix's LU as fallback); null
 * if singular. Solved on the unit-diagonal matrix, so the positive-definiteness test is about
 * collinearity, not units.
 */
export function solveSymmetric(a: Float64Array, b: Float64Array, k: number): Float64Array | null {
  const d = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const v = a[j * k + j] as number;
    if (!(v > 0) || !Number.isFinite(v)) return null;
    d[j] = 1 / Math.sqrt(v);
  }
  const scaled = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      const v = (a[i * k + j] as number) * (d[i] as number) * (d[j] as number);
      scaled[i * k + j] = v;
      scaled[j * k + i] = v;
    }
  }
  const l = cholesky(scaled, k);
  let x: Float64Array;
  if (l)
    x = choleskySolve(
      l,
      Float64Array.from(b, (v, j) => v * (d[j] as number)),
      k,
    );
  else {
    // Not positive definite: an indefinite step far from the optimum, or a singular matrix.
    const lu = new LuDecomposition(new Matrix(toRows(scaled, k)));
    if (lu.isSingular()) return null;
    const sol = lu.solve(Matrix.columnVector(Array.from(b, (v, j) => v * (d[j] as number))));
    x = Float64Array.from({ length: k }, (_, j) => sol.get(j, 0));
  }
  for (let j = 0; j < k; j++) {
    x[j] = (x[j] as number) * (d[j] as number);
    if (!Number.isFinite(x[j])) return null;
  }
  return x;
}

function toRows(m: Float64Array, k: number): number[][] {
  return Array.from({ length: k }, (_, i) => Array.from(m.subarray(i * k, (i + 1) * k)));
}

/**
 * The inverse of a symmetric positive-definite matrix, or null when it is singular or so nearly
 * singular that some column keeps less than `pivotTolerance` of its (scaled) variance after
 * projecting on the columns before it.
 */
export function invertSymmetric(a: Float64Array, k: number, pivotTolerance = 1e-10): Float64Array | null {
  const scaled = unitDiagonal(a, k);
  if (!scaled) return null;
  const { m, d } = scaled;
  const chol = new CholeskyDecomposition(m);
  if (!chol.isPositiveDefinite()) return null;
  const l = chol.lowerTriangularMatrix;
  for (let j = 0; j < k; j++) if (l.get(j, j) ** 2 < pivotTolerance) return null;
  const inv = chol.solve(Matrix.eye(k, k));
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      out[i * k + j] = ((inv.get(i, j) + inv.get(j, i)) / 2) * (d[i] as number) * (d[j] as number);
    }
  }
  return out;
}

export interface ColumnDependency {
  /** Index of a column with no variation, or that is a combination of earlier columns. */
  column: number;
  /** Earlier columns it is a combination of (empty: the column has no variation at all). */
  partners: number[];
}

/**
 * Columns of a Gram matrix (XᵀX or a weighted / within-centred version) that add nothing: zero
 * columns, and columns whose share of variance not explained by the earlier independent columns
 * is below `tolerance`. A sequential Cholesky on the unit-diagonal matrix; the regression of a
 * dependent column on the basis names its partners.
 */
export function dependentColumns(gram: Float64Array, k: number, tolerance = 1e-9): ColumnDependency[] {
  let maxDiag = 0;
  for (let j = 0; j < k; j++) maxDiag = Math.max(maxDiag, Math.abs(gram[j * k + j] as number));
  const scale = new Float64Array(k);
  const out: ColumnDependency[] = [];
  const basis: number[] = [];
  // L over the basis, row-major with stride k (row r = r-th basis column).
  const l = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    const djj = gram[j * k + j] as number;
    if (!(djj > maxDiag * 1e-24) || !Number.isFinite(djj)) {
      out.push({ column: j, partners: [] });
      continue;
    }
    scale[j] = 1 / Math.sqrt(djj);
    const b = basis.length;
    const w = new Float64Array(b);
    for (let r = 0; r < b; r++) {
      const c = basis[r] as number;
      let s = (gram[c * k + j] as number) * (scale[c] as number) * (scale[j] as number);
      for (let q = 0; q < r; q++) s -= (l[r * k + q] as number) * (w[q] as number);
      w[r] = s / (l[r * k + r] as number);
    }
    let residual = 1;
    for (let r = 0; r < b; r++) residual -= (w[r] as number) ** 2;
    if (residual < tolerance) {
      // Back-substitute Lᵀ·c = w: c are the (scaled) regression coefficients on the basis.
      const coef = new Float64Array(b);
      for (let r = b - 1; r >= 0; r--) {
        let s = w[r] as number;
        for (let q = r + 1; q < b; q++) s -= (l[q * k + r] as number) * (coef[q] as number);
        coef[r] = s / (l[r * k + r] as number);
      }
      const partners = basis.filter((_, r) => Math.abs(coef[r] as number) > 1e-6);
      out.push({ column: j, partners });
      continue;
    }
    for (let q = 0; q < b; q++) l[b * k + q] = w[q] as number;
    l[b * k + b] = Math.sqrt(residual);
    basis.push(j);
  }
  return out;
}
