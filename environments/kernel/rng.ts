/**
 * Seeded randomness. Library code never calls Math.random: every random draw goes through an Rng
 * that was passed in, so the same seed gives byte-identical designs, tasks and simulated choices.
 *
 * The generator is sfc32 (a small, fast counter-based generator that passes PractRand); seeds are
 * mixed from numbers or strings with a 32-bit FNV-1a + murmur finaliser so that nearby seeds give
 * unrelated streams. `fork(label)` derives an independent child stream, which keeps one part of a
 * design stable when another part changes size.
 */
export interface Rng {
  readonly seed: string;
  /** Uniform on [0, 1) with 53 bits of precision. */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform on [lo, hi). */
  uniform(lo: number, hi: number): number;
  bernoulli(p: number): boolean;
  /** Standard normal draw (Box–Muller, one value per call). */
  normal(): number;
  /** Standard Gumbel draw: the noise of a logit random-utility model. */
  gumbel(): number;
  pick<T>(items: readonly T[]): T;
  /** A new shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent child stream named by `label`. */
  fork(label: string | number): Rng;
}

function hash32(text: string, salt: number): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(readonly seed: string) {
    this.a = hash32(seed, 0x9e3779b9);
    this.b = hash32(seed, 0x7f4a7c15);
    this.c = hash32(seed, 0x94d049bb);
    for (let i = 0; i < 12; i++) this.u32();
  }

  private u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    // 21 high bits of one draw and 32 of another: a double with 53 random bits.
    return ((this.u32() >>> 11) * 4294967296 + this.u32()) / 9007199254740992;
  }

  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`rng.int needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  normal(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  gumbel(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return -Math.log(-Math.log(u));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("rng.pick on an empty list");
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  fork(label: string | number): Rng {
    return new Sfc32(`${this.seed}/${label}`);
  }
}

export function createRng(seed: string | number): Rng {
  return new Sfc32(String(seed));
}
