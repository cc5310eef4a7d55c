/**
 * The WebAssembly SIMD kernels against the JavaScript ones they replace (the reference): the same
 * sums to rounding for every column count (the 2 × 4 blocks, the leftovers, an odd last column),
 * odd and even row counts (the zero padding row), tail probabilities, and memory reused from an
 * earlier, larger fit.
 */
import { describe, expect, it } from "vitest";
import { createWorkspace, kernelBackend, type LogitWorkspace } from "../../../analysis/logit/workspace.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";

function fill(ws: LogitWorkspace, rng: Rng): void {
  for (const c of ws.cols) for (let i = 0; i < ws.n; i++) c[i] = rng.normal();
  for (let i = 0; i < ws.n; i++) {
    ws.weight[i] = rng.uniform(0, 0.25);
    ws.resid[i] = rng.uniform(-1, 1);
    ws.outcome[i] = rng.bernoulli(0.4) ? 1 : 0;
  }
}

function copyInto(from: LogitWorkspace, to: LogitWorkspace): void {
  for (const [j, c] of from.cols.entries()) to.cols[j]?.set(c);
  to.weight.set(from.weight);
  to.resid.set(from.resid);
  to.outcome.set(from.outcome);
}

/** |a − b| ≤ tol · (|b| + scale): relative, with an absolute floor for sums that cancel. */
function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, scale: number, tol = 1e-12): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    const want = b[i] as number;
    expect(Math.abs((a[i] as number) - want), `entry ${i}: ${a[i]} vs ${want}`).toBeLessThanOrEqual(
      tol * (Math.abs(want) + scale),
    );
  }
}

describe("WebAssembly SIMD logit kernels", () => {
  it("are what this runtime uses", () => {
    expect(kernelBackend()).toBe("wasm-simd");
  });

  for (const n of [1, 2, 7, 64, 65, 1001]) {
    for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13]) {
      it(`match the JavaScript kernels for n = ${n}, k = ${k}`, () => {
        const rng = createRng(`ws|${n}|${k}`);
        const wasm = createWorkspace(n, k, "wasm-simd");
        const js = createWorkspace(n, k, "js");
        fill(js, rng);
        copyInto(js, wasm);
        const beta = Array.from({ length: k }, () => rng.normal());

        expectClose(wasm.linearPredictor(beta), js.linearPredictor(beta), Math.sqrt(k));
        const d = [new Float64Array(k), new Float64Array(k)];
        wasm.dots(wasm.resid, d[0] as Float64Array);
        js.dots(js.resid, d[1] as Float64Array);
        expectClose(d[0] as Float64Array, d[1] as Float64Array, Math.sqrt(n));
        for (const weighted of [true, false]) {
          const g = [new Float64Array(k * k), new Float64Array(k * k)];
          wasm.gram(g[0] as Float64Array, weighted);
          js.gram(g[1] as Float64Array, weighted);
          expectClose(g[0] as Float64Array, g[1] as Float64Array, Math.sqrt(n));
          // Exactly symmetric, as the Cholesky factorisation downstream demands.
          for (let a = 0; a < k; a++)
            for (let b = 0; b < a; b++) expect(g[0]?.[a * k + b]).toBe(g[0]?.[b * k + a]);
        }
        wasm.release();
      });
    }
  }

  it("compute residuals, weights and the log-likelihood to rounding, into the far tails", () => {
    const n = 4001;
    const rng = createRng("ws|tails");
    const wasm = createWorkspace(n, 1, "wasm-simd");
    const js = createWorkspace(n, 1, "js");
    for (let i = 0; i < n; i++) {
      // |η| from 0 to 800: both branches of y − p, e^{−|η|} across its whole normal range and
      // beyond it (|η| > 708, where the kernel's e^{−|η|} is 0 and Math.exp is subnormal).
      const eta = (i % 2 ? 1 : -1) * (i < 3000 ? rng.uniform(0, 40) : rng.uniform(40, 800));
      js.eta[i] = eta;
      wasm.eta[i] = eta;
      const y = rng.bernoulli(0.5) ? 1 : 0;
      js.outcome[i] = y;
      wasm.outcome[i] = y;
    }
    const llWasm = wasm.binaryResiduals();
    const llJs = js.binaryResiduals();
    expect(Math.abs(llWasm - llJs)).toBeLessThan(1e-12 * Math.abs(llJs));
    expectClose(wasm.resid, js.resid, 1e-290, 1e-14);
    // Weights agree to rounding wherever e^{−|η|} is normal; beyond that both are below 1e−307.
    for (let i = 0; i < n; i++) {
      const want = js.weight[i] as number;
      if (want > 1e-300) expect(Math.abs((wasm.weight[i] as number) - want)).toBeLessThan(1e-14 * want);
      else expect(wasm.weight[i]).toBeLessThan(1e-300);
    }
    wasm.release();
  });

  it("weight residuals, weights and the log-likelihood by frequency", () => {
    const n = 3001;
    const rng = createRng("ws|frequency");
    const wasm = createWorkspace(n, 1, "wasm-simd");
    const js = createWorkspace(n, 1, "js");
    for (let i = 0; i < n; i++) {
      const eta = (i % 2 ? 1 : -1) * (i < 2500 ? rng.uniform(0, 30) : rng.uniform(30, 700));
      const y = rng.bernoulli(0.5) ? 1 : 0;
      const w = rng.int(5); // 0 to 4, as bootstrap draw counts
      for (const ws of [wasm, js]) {
        ws.eta[i] = eta;
        ws.outcome[i] = y;
        ws.frequency[i] = w;
      }
    }
    const llWasm = wasm.binaryResiduals(true);
    const llJs = js.binaryResiduals(true);
    expect(Math.abs(llWasm - llJs)).toBeLessThan(1e-12 * Math.abs(llJs));
    expectClose(wasm.resid, js.resid, 1e-290, 1e-14);
    expectClose(wasm.weight, js.weight, 1e-290, 1e-13);
    // And with unit weights it is the unweighted log-likelihood.
    wasm.frequency.fill(1);
    expect(Math.abs(wasm.binaryResiduals(true) - js.binaryResiduals(false))).toBeLessThan(
      1e-12 * Math.abs(llJs),
    );
    wasm.release();
  });

  it("zero the padding row again when pooled memory comes back dirty", () => {
    const n = 1001; // odd: one padding row
    const k = 5;
    // Drain the pool (at most 4 free arenas) and poison every borrowed arena's padding row with
    // NaN, which would spread into every sum if a reused workspace left it in place.
    const borrowed = Array.from({ length: 5 }, () => createWorkspace(n, k, "wasm-simd"));
    for (const ws of borrowed) {
      ws.block.data.fill(Number.NaN);
      for (const v of [ws.outcome, ws.frequency, ws.eta, ws.resid, ws.weight])
        new Float64Array(v.buffer, v.byteOffset, n + 1).fill(Number.NaN);
      ws.release();
    }
    const rng = createRng("ws|reuse");
    const wasm = createWorkspace(n, k, "wasm-simd");
    const js = createWorkspace(n, k, "js");
    fill(js, rng);
    copyInto(js, wasm);
    for (const ws of [wasm, js]) for (let i = 0; i < n; i++) ws.frequency[i] = 1 + (i % 3);
    const beta = [0.4, -0.3, 0.2, 0.1, -0.5];
    expectClose(wasm.linearPredictor(beta), js.linearPredictor(beta), 1);
    for (const weighted of [false, true]) {
      const ll = [wasm.binaryResiduals(weighted), js.binaryResiduals(weighted)];
      expect(Number.isFinite(ll[0])).toBe(true);
      expect(Math.abs((ll[0] as number) - (ll[1] as number))).toBeLessThan(1e-9);
      const d = [new Float64Array(k), new Float64Array(k)];
      wasm.dots(wasm.resid, d[0] as Float64Array);
      js.dots(js.resid, d[1] as Float64Array);
      expectClose(d[0] as Float64Array, d[1] as Float64Array, Math.sqrt(n));
      const g = [new Float64Array(k * k), new Float64Array(k * k)];
      wasm.gram(g[0] as Float64Array, true);
      js.gram(g[1] as Float64Array, true);
      expectClose(g[0] as Float64Array, g[1] as Float64Array, Math.sqrt(n));
    }
    wasm.release();
  });
});
