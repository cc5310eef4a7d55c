/**
 * The numeric inner loops of the logit fits in JavaScript, on column-major data (one Float64Array
 * per covariate). The fits run the WebAssembly SIMD versions of these (wasm/kernels.wat, through
 * workspace.ts); these remain the fallback where WebAssembly SIMD is missing, the reference the
 * SIMD kernels are tested against, and the kernels of the conditional logit and the cluster meat.
 *
 * Loops are unrolled by columns (four in `linearCombination` / `accumulateDots`, a 2 × 4 block in
 * `accumulateGram`), so each loaded value feeds several independent multiply-adds — about twice
 * the speed of plain dot products in V8. Every kernel takes a row range [lo, hi).
 */

/** out[lo..hi) = Σ_j beta_j · cols_j[lo..hi): the linear predictor. */
export function linearCombination(
  cols: readonly Float64Array[],
  beta: Float64Array,
  out: Float64Array,
  lo = 0,
  hi = out.length,
): void {
  const k = cols.length;
  out.fill(0, lo, hi);
  // The k mod 4 leftover columns first: a leftover loop placed after the unrolled one is reached
  // only when optimized code exits that loop, and V8 then deoptimizes on every call.
  const rest = k % 4;
  for (let j = 0; j < rest; j++) {
    const b = beta[j] as number;
    const c = cols[j] as Float64Array;
    for (let i = lo; i < hi; i++) out[i] = (out[i] as number) + b * (c[i] as number);
  }
  for (let j = rest; j < k; j += 4) {
    const b0 = beta[j] as number;
    const b1 = beta[j + 1] as number;
    const b2 = beta[j + 2] as number;
    const b3 = beta[j + 3] as number;
    const c0 = cols[j] as Float64Array;
    const c1 = cols[j + 1] as Float64Array;
    const c2 = cols[j + 2] as Float64Array;
    const c3 = cols[j + 3] as Float64Array;
    for (let i = lo; i < hi; i++) {
      out[i] =
        (out[i] as number) +
        b0 * (c0[i] as number) +
        b1 * (c1[i] as number) +
        b2 * (c2[i] as number) +
        b3 * (c3[i] as number);
    }
  }
}

/** out_j += Σ_{i ∈ [lo, hi)} v_i · cols_j[i]. */
export function accumulateDots(
  v: Float64Array,
  cols: readonly Float64Array[],
  out: Float64Array,
  lo = 0,
  hi = v.length,
): void {
  const k = cols.length;
  const rest = k % 4;
  for (let j = 0; j < rest; j++) {
    const c = cols[j] as Float64Array;
    let s = 0;
    for (let i = lo; i < hi; i++) s += (v[i] as number) * (c[i] as number);
    out[j] = (out[j] as number) + s;
  }
  for (let j = rest; j < k; j += 4) {
    const c0 = cols[j] as Float64Array;
    const c1 = cols[j + 1] as Float64Array;
    const c2 = cols[j + 2] as Float64Array;
    const c3 = cols[j + 3] as Float64Array;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = lo; i < hi; i++) {
      const vi = v[i] as number;
      s0 += vi * (c0[i] as number);
      s1 += vi * (c1[i] as number);
      s2 += vi * (c2[i] as number);
      s3 += vi * (c3[i] as number);
    }
    out[j] = (out[j] as number) + s0;
    out[j + 1] = (out[j + 1] as number) + s1;
    out[j + 2] = (out[j + 2] as number) + s2;
    out[j + 3] = (out[j + 3] as number) + s3;
  }
}

/**
 * Adds Σ_{i ∈ [lo, hi)} w_i x_ia x_ib to the upper triangle (b ≥ a) of the row-major k × k `g`
 * (unweighted without `weights`); `scratch` holds two weighted columns. Call `mirrorUpper` after
 * the last block.
 */
export function accumulateGram(
  g: Float64Array,
  cols: readonly Float64Array[],
  weights: Float64Array | undefined,
  scratch: readonly [Float64Array, Float64Array],
  lo = 0,
  hi = (cols[0] as Float64Array).length,
): void {
  const k = cols.length;
  for (let a = 0; a < k; a += 2) {
    const pair = a + 1 < k;
    const ca = cols[a] as Float64Array;
    const cb = cols[pair ? a + 1 : a] as Float64Array;
    let u = ca;
    let v = cb;
    if (weights) {
      u = scratch[0];
      v = scratch[1];
      for (let i = lo; i < hi; i++) {
        const w = weights[i] as number;
        u[i] = w * (ca[i] as number);
        v[i] = w * (cb[i] as number);
      }
    }
    // Leftover columns first (see linearCombination), then blocks of four.
    const rest = (k - a) % 4;
    for (let b = a; b < a + rest; b++) {
      const x0 = cols[b] as Float64Array;
      let p0 = 0;
      let q0 = 0;
      for (let i = lo; i < hi; i++) {
        const y0 = x0[i] as number;
        p0 += (u[i] as number) * y0;
        q0 += (v[i] as number) * y0;
      }
      g[a * k + b] = (g[a * k + b] as number) + p0;
      if (pair) g[(a + 1) * k + b] = (g[(a + 1) * k + b] as number) + q0;
    }
    for (let b = a + rest; b < k; b += 4) {
      const x0 = cols[b] as Float64Array;
      const x1 = cols[b + 1] as Float64Array;
      const x2 = cols[b + 2] as Float64Array;
      const x3 = cols[b + 3] as Float64Array;
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      let p3 = 0;
      let q0 = 0;
      let q1 = 0;
      let q2 = 0;
      let q3 = 0;
      for (let i = lo; i < hi; i++) {
        const ui = u[i] as number;
        const vi = v[i] as number;
        const y0 = x0[i] as number;
        const y1 = x1[i] as number;
        const y2 = x2[i] as number;
        const y3 = x3[i] as number;
        p0 += ui * y0;
        p1 += ui * y1;
        p2 += ui * y2;
        p3 += ui * y3;
        q0 += vi * y0;
        q1 += vi * y1;
        q2 += vi * y2;
        q3 += vi * y3;
      }
      const ra = a * k + b;
      g[ra] = (g[ra] as number) + p0;
      g[ra + 1] = (g[ra + 1] as number) + p1;
      g[ra + 2] = (g[ra + 2] as number) + p2;
      g[ra + 3] = (g[ra + 3] as number) + p3;
      if (pair) {
        // Entry (a + 1, a) is below the diagonal: harmless, mirrorUpper overwrites it.
        const rb = (a + 1) * k + b;
        g[rb] = (g[rb] as number) + q0;
        g[rb + 1] = (g[rb + 1] as number) + q1;
        g[rb + 2] = (g[rb + 2] as number) + q2;
        g[rb + 3] = (g[rb + 3] as number) + q3;
      }
    }
  }
}

/** Copies the upper triangle onto the lower one, so the matrix is exactly symmetric. */
export function mirrorUpper(g: Float64Array, k: number): void {
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) g[b * k + a] = g[a * k + b] as number;
}

/** Root mean square of each column. */
export function rms(cols: readonly Float64Array[]): Float64Array {
  // A plain loop: as a `Float64Array.from` mapping callback the same sum ran about 10× slower.
  const out = new Float64Array(cols.length);
  for (let j = 0; j < cols.length; j++) {
    const c = cols[j] as Float64Array;
    const n = c.length;
    // Four partial sums: a single running sum waits on every add.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      const a = c[i] as number;
      const b = c[i + 1] as number;
      const d = c[i + 2] as number;
      const e = c[i + 3] as number;
      s0 += a * a;
      s1 += b * b;
      s2 += d * d;
      s3 += e * e;
    }
    for (; i < n; i++) {
      const v = c[i] as number;
      s0 += v * v;
    }
    out[j] = Math.sqrt((s0 + s1 + s2 + s3) / n);
  }
  return out;
}
