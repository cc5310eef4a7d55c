/**
 * The memory one logit fit works in: its covariate columns and per-row buffers, laid out for the
 * WebAssembly SIMD kernels (wasm/kernels.wat) — about three times faster than the JavaScript loops
 * of kernels.ts on the information matrix, which is most of a fit's time.
 *
 * Each workspace owns a WebAssembly memory sized once for its n × k design, and the columns and
 * buffers are Float64Array views into it: a memory that never grows never detaches its views, so
 * the fit reads and writes them as ordinary arrays with no copying. Rows are padded to an even
 * count with zeros (a zero row adds nothing to any sum). Where WebAssembly SIMD is unavailable the
 * same interface runs the JavaScript kernels, which also serve the tests as the reference.
 */
import type { ColumnBlock } from "./design.ts";
import { accumulateDots, accumulateGram, linearCombination, mirrorUpper } from "./kernels.ts";
import { WASM_BASE64 } from "./wasm/kernels.wasm.ts";

interface KernelExports {
  lincomb(cols: number, n: number, k: number, beta: number, out: number): void;
  dots(v: number, cols: number, n: number, k: number, out: number): void;
  gram(cols: number, n: number, k: number, w: number, weighted: number, out: number, scratch: number): void;
  binaryResiduals(
    eta: number,
    y: number,
    fw: number,
    weighted: number,
    n: number,
    resid: number,
    weight: number,
    logs: number,
  ): number;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernels, or null where this runtime lacks WebAssembly SIMD. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(WASM_BASE64, "base64");
    compiled =
      process.env.BAZAAR_NO_WASM !== "1" && typeof WebAssembly === "object" && WebAssembly.validate(bytes)
        ? new WebAssembly.Module(bytes)
        : null;
  }
  return compiled;
}

/** Which kernels a new workspace will use: "wasm-simd", or "js" (no SIMD, or BAZAAR_NO_WASM=1). */
export function kernelBackend(): "wasm-simd" | "js" {
  return kernelModule() ? "wasm-simd" : "js";
}

const PAGE = 65_536;

/** A WebAssembly memory with its kernel instance; reused by later workspaces that fit in it. */
interface Arena {
  readonly memory: WebAssembly.Memory;
  readonly kernels: KernelExports;
  readonly bytes: number;
}

/**
 * Released arenas, for the next fit: allocating and zeroing a fresh memory per fit costs about as
 * much as two Newton steps. Fits run synchronously, so an arena is never shared by two live fits.
 */
const freeArenas: Arena[] = [];
const MAX_FREE_ARENAS = 4;

function takeArena(bytes: number, module: WebAssembly.Module): Arena {
  let best = -1;
  for (let i = 0; i < freeArenas.length; i++) {
    const a = freeArenas[i] as Arena;
    if (a.bytes >= bytes && (best < 0 || a.bytes < (freeArenas[best] as Arena).bytes)) best = i;
  }
  if (best >= 0) return freeArenas.splice(best, 1)[0] as Arena;
  const pages = Math.max(1, Math.ceil(bytes / PAGE));
  const memory = new WebAssembly.Memory({ initial: pages });
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
  return { memory, kernels, bytes: pages * PAGE };
}

export interface LogitWorkspace {
  readonly n: number;
  readonly k: number;
  readonly backend: "wasm-simd" | "js";
  /** The k covariate columns (length n each); fill them before the first kernel call. */
  readonly cols: Float64Array[];
  /** The same columns as one block (column j from j · stride), for `columnsFromRows`. */
  readonly block: ColumnBlock;
  /** The binary outcome (0 or 1) per row, for `binaryResiduals`; fill it before calling that. */
  readonly outcome: Float64Array;
  /** Frequency weights per row (how often each row counts), for `binaryResiduals(true)`. */
  readonly frequency: Float64Array;
  /** Per-row buffers of length n: the linear predictor, a residual and a weight. */
  readonly eta: Float64Array;
  readonly resid: Float64Array;
  readonly weight: Float64Array;
  /** eta = Σ_j beta_j · col_j. */
  linearPredictor(beta: ArrayLike<number>): Float64Array;
  /** out_j = Σ_i v_i · col_j[i], for v = this.resid or this.weight. */
  dots(v: Float64Array, out: Float64Array): void;
  /** out (k × k, row-major, symmetric) = Σ_i weight_i x_i x_iᵀ, or XᵀX when `weighted` is false. */
  gram(out: Float64Array, weighted: boolean): void;
  /**
   * From the current linear predictor and `outcome`, the binary logit's resid = y − p and
   * weight = p(1 − p) (from e^{−|η|}, exact in the tails); returns the log-likelihood. With
   * `weighted`, each row's resid, weight and log-likelihood term are multiplied by `frequency`.
   */
  binaryResiduals(weighted?: boolean): number;
  /** Hands the memory back for reuse; the workspace and its arrays must not be used afterwards. */
  release(): void;
}

class WasmWorkspace implements LogitWorkspace {
  readonly backend = "wasm-simd" as const;
  readonly cols: Float64Array[];
  readonly block: ColumnBlock;
  readonly outcome: Float64Array;
  readonly frequency: Float64Array;
  private readonly logs: Float64Array;
  readonly eta: Float64Array;
  readonly resid: Float64Array;
  readonly weight: Float64Array;
  private readonly f: KernelExports;
  private arena: Arena | null;
  private readonly stride: number;
  private readonly vec: Float64Array;
  private readonly mat: Float64Array;
  private readonly at: {
    cols: number;
    outcome: number;
    frequency: number;
    eta: number;
    resid: number;
    weight: number;
    scratch: number;
    vec: number;
    mat: number;
    logs: number;
  };

  constructor(
    readonly n: number,
    readonly k: number,
    module: WebAssembly.Module,
  ) {
    const rows = n + (n % 2);
    this.stride = rows * 8;
    // Regions in order, each a multiple of 16 bytes: columns, outcome, eta, resid, weight, two
    // scratch columns, a k-vector, a k × k matrix and the log-likelihood's partial products (two
    // per 64 rows, see binaryResiduals in kernels.wat).
    const vecBytes = Math.ceil(k / 2) * 16;
    const logCount = 2 * (Math.floor(rows / 64) + 1);
    const cols = 0;
    const outcome = cols + k * this.stride;
    const frequency = outcome + this.stride;
    const eta = frequency + this.stride;
    const resid = eta + this.stride;
    const weight = resid + this.stride;
    const scratch = weight + this.stride;
    const vec = scratch + 2 * this.stride;
    const mat = vec + vecBytes;
    const logs = mat + Math.ceil((k * k) / 2) * 16;
    const bytes = logs + logCount * 8;
    this.at = { cols, outcome, frequency, eta, resid, weight, scratch, vec, mat, logs };
    this.arena = takeArena(bytes, module);
    this.f = this.arena.kernels;
    const buf = this.arena.memory.buffer;
    this.block = { data: new Float64Array(buf, cols, k * rows), stride: rows };
    this.cols = Array.from({ length: k }, (_, j) => this.block.data.subarray(j * rows, j * rows + n));
    this.outcome = new Float64Array(buf, outcome, n);
    this.frequency = new Float64Array(buf, frequency, n);
    this.eta = new Float64Array(buf, eta, n);
    this.resid = new Float64Array(buf, resid, n);
    this.weight = new Float64Array(buf, weight, n);
    this.logs = new Float64Array(buf, logs, logCount);
    this.vec = new Float64Array(buf, vec, k);
    this.mat = new Float64Array(buf, mat, k * k);
    // A reused arena holds an earlier fit's numbers: the padding row must be zero again.
    if (rows > n) {
      for (const c of this.cols) new Float64Array(buf, c.byteOffset, rows).fill(0, n);
      for (const off of [outcome, frequency, eta, resid, weight]) new Float64Array(buf, off, rows).fill(0, n);
    }
  }

  binaryResiduals(weighted = false): number {
    const { at, n } = this;
    const rows = this.rows();
    const wrong = this.f.binaryResiduals(
      at.eta,
      at.outcome,
      at.frequency,
      weighted ? 1 : 0,
      rows,
      at.resid,
      at.weight,
      at.logs,
    );
    // Weighted, the kernel has summed w · log(1 + e) itself (its two lanes).
    if (weighted) return -wrong - ((this.logs[0] as number) + (this.logs[1] as number));
    let logs = 0;
    const stored = 2 * (Math.floor(rows / 64) + 1);
    for (let i = 0; i < stored; i++) logs += Math.log(this.logs[i] as number);
    // The padding row (η = 0) contributed log(1 + e⁰) = log 2 to the products.
    return -wrong - logs + (rows - n) * Math.LN2;
  }

  release(): void {
    if (this.arena && freeArenas.length < MAX_FREE_ARENAS) freeArenas.push(this.arena);
    this.arena = null;
  }

  private rows(): number {
    return this.stride / 8;
  }

  linearPredictor(beta: ArrayLike<number>): Float64Array {
    this.vec.set(beta);
    this.f.lincomb(this.at.cols, this.rows(), this.k, this.at.vec, this.at.eta);
    return this.eta;
  }

  dots(v: Float64Array, out: Float64Array): void {
    const ptr = v === this.resid ? this.at.resid : v === this.weight ? this.at.weight : -1;
    if (ptr < 0) throw new RangeError("LogitWorkspace.dots: v must be the workspace's resid or weight");
    this.f.dots(ptr, this.at.cols, this.rows(), this.k, this.at.vec);
    out.set(this.vec);
  }

  gram(out: Float64Array, weighted: boolean): void {
    const { at, k } = this;
    this.f.gram(at.cols, this.rows(), k, at.weight, weighted ? 1 : 0, at.mat, at.scratch);
    out.set(this.mat);
    mirrorUpper(out, k);
  }
}

class JsWorkspace implements LogitWorkspace {
  readonly backend = "js" as const;
  readonly cols: Float64Array[];
  readonly block: ColumnBlock;
  readonly outcome: Float64Array;
  readonly frequency: Float64Array;
  readonly eta: Float64Array;
  readonly resid: Float64Array;
  readonly weight: Float64Array;
  private readonly scratch: [Float64Array, Float64Array];
  private readonly beta: Float64Array;

  constructor(
    readonly n: number,
    readonly k: number,
  ) {
    this.block = { data: new Float64Array(k * n), stride: n };
    this.cols = Array.from({ length: k }, (_, j) => this.block.data.subarray(j * n, (j + 1) * n));
    this.outcome = new Float64Array(n);
    this.frequency = new Float64Array(n);
    this.eta = new Float64Array(n);
    this.resid = new Float64Array(n);
    this.weight = new Float64Array(n);
    this.scratch = [new Float64Array(n), new Float64Array(n)];
    this.beta = new Float64Array(k);
  }

  linearPredictor(beta: ArrayLike<number>): Float64Array {
    this.beta.set(beta);
    linearCombination(this.cols, this.beta, this.eta);
    return this.eta;
  }

  dots(v: Float64Array, out: Float64Array): void {
    out.fill(0);
    accumulateDots(v, this.cols, out);
  }

  gram(out: Float64Array, weighted: boolean): void {
    out.fill(0);
    accumulateGram(out, this.cols, weighted ? this.weight : undefined, this.scratch);
    mirrorUpper(out, this.k);
  }

  /**
   * ℓ = −Σ log(1 + e^{−|η|}) − Σ_{wrong side} |η|: the y = 1 and y = 0 terms without overflow. The
   * log is taken of products of 32 factors in (1, 2] (no overflow; at most 32 roundings per
   * product) instead of once per row — the log is the costliest operation in the loop.
   */
  binaryResiduals(weighted = false): number {
    const { eta, outcome: y, resid, weight, n } = this;
    if (weighted) return this.weightedResiduals();
    let ll = 0;
    let product = 1;
    for (let i = 0; i < n; i++) {
      const t = eta[i] as number;
      const a = Math.abs(t);
      const e = Math.exp(-a);
      const inv = 1 / (1 + e);
      const yi = y[i] as number;
      resid[i] = yi - (t >= 0 ? inv : e * inv);
      weight[i] = e * inv * inv;
      if ((yi === 1) !== t >= 0) ll -= a;
      product *= 1 + e;
      if ((i & 31) === 31) {
        ll -= Math.log(product);
        product = 1;
      }
    }
    return ll - Math.log(product);
  }

  private weightedResiduals(): number {
    const { eta, outcome: y, frequency, resid, weight, n } = this;
    let ll = 0;
    for (let i = 0; i < n; i++) {
      const w = frequency[i] as number;
      const t = eta[i] as number;
      const a = Math.abs(t);
      const e = Math.exp(-a);
      const inv = 1 / (1 + e);
      const yi = y[i] as number;
      resid[i] = w * (yi - (t >= 0 ? inv : e * inv));
      weight[i] = w * e * inv * inv;
      ll -= w * (Math.log1p(e) + ((yi === 1) !== t >= 0 ? a : 0));
    }
    return ll;
  }

  release(): void {}
}

/**
 * A workspace for an n × k design: WebAssembly SIMD where available, else JavaScript (or
 * `backend`). Call `release()` when done, so the next fit reuses the memory.
 */
export function createWorkspace(n: number, k: number, backend?: "wasm-simd" | "js"): LogitWorkspace {
  const module = backend === "js" ? null : kernelModule();
  if (backend === "wasm-simd" && !module)
    throw new Error("WebAssembly SIMD is not available in this runtime");
  return module ? new WasmWorkspace(n, k, module) : new JsWorkspace(n, k);
}
