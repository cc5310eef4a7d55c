/**
 * Injected faults. Each chat-completion request draws exactly one uniform number from a dedicated
 * seeded stream, in arrival order, and the cumulative rates turn it into at most one fault. The draw
 * happens whatever the request holds, so the fault sequence depends only on the seed and the number
 * of requests before it — and never on (nor changes) the simulated model's decisions.
 */
import { createRng, type Rng } from "../../environments/kernel/rng.ts";
import type { SimFaults } from "./types.ts";

export type Fault = "429" | "500" | "timeout" | "malformed" | "off-format";

const ORDER: [Fault, keyof SimFaults][] = [
  ["429", "rate429"],
  ["500", "rate500"],
  ["timeout", "rateTimeout"],
  ["malformed", "rateMalformedJson"],
  ["off-format", "rateOffFormat"],
];

/** Throws a RangeError naming the first rate outside [0, 1], or rates that sum above 1. */
export function checkFaults(faults: SimFaults): void {
  let total = 0;
  for (const [, key] of ORDER) {
    const rate = faults[key];
    if (!(rate >= 0 && rate <= 1))
      throw new RangeError(`serve-sim: fault ${key} must be in [0, 1], got ${rate}`);
    total += rate;
  }
  if (total > 1 + 1e-9) throw new RangeError(`serve-sim: fault rates sum to ${total}, more than 1`);
}

export class FaultStream {
  private readonly rng: Rng;
  private readonly bounds: [Fault, number][] = [];
  private readonly any: boolean;

  constructor(faults: SimFaults, seed: string) {
    checkFaults(faults);
    this.rng = createRng(`serve-sim/faults/${seed}`);
    let cumulative = 0;
    for (const [fault, key] of ORDER) {
      cumulative += faults[key];
      this.bounds.push([fault, cumulative]);
    }
    this.any = cumulative > 0;
  }

  /** The fault for the next request, or null for none. */
  next(): Fault | null {
    if (!this.any) return null;
    const u = this.rng.next();
    for (const [fault, bound] of this.bounds) if (u < bound) return fault;
    return null;
  }
}
