import { z } from "zod";
import type { Hotel } from "../../datasets/hotels/schema.ts";
import { UserError } from "../kernel/errors.ts";
import { createRng, type Rng } from "../kernel/rng.ts";
import { type ChoiceOption, type ChoiceTask, PromptVariantSchema, type TaskKind } from "./types.ts";

/**
 * How display orders are counterbalanced for one task kind:
 * - `reverse-pairs`: each appearance is shown in an order and its reverse. For pairs that is both
 *   orders; for triples, appearances cycle through the three (order, reverse) pairs that together
 *   put each option in each slot equally often — so the appearance count must be a multiple of 3.
 * - `rotations`: each appearance is shown in all k cyclic rotations (k displays per appearance).
 */
export const OrderSchemeSchema = z.enum(["reverse-pairs", "rotations"]);
export type OrderScheme = z.infer<typeof OrderSchemeSchema>;

const count = z.number().int().nonnegative();

export const ChoiceDesignSchema = z.object({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  pairs: count.default(450),
  pairAppearances: count.default(4),
  triples: count.default(300),
  tripleAppearances: count.default(6),
  fives: count.default(300),
  fiveAppearances: count.default(1),
  binaryOrders: OrderSchemeSchema.default("reverse-pairs"),
  ternaryOrders: OrderSchemeSchema.default("reverse-pairs"),
  fiveOrders: OrderSchemeSchema.default("rotations"),
  variant: PromptVariantSchema.default("plain"),
});
export type ChoiceDesign = z.infer<typeof ChoiceDesignSchema>;
export type ChoiceDesignInput = z.input<typeof ChoiceDesignSchema>;

const KIND_SIZE: Record<TaskKind, number> = { binary: 2, ternary: 3, five: 5 };
const KIND_PREFIX: Record<TaskKind, string> = { binary: "b", ternary: "t", five: "f" };

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Display orders (slot → option index in the set) for one appearance of a k-option set. */
export function displayOrders(k: number, scheme: OrderScheme, appearance: number): number[][] {
  const identity = Array.from({ length: k }, (_, i) => i);
  if (scheme === "rotations") return identity.map((_, r) => identity.map((i) => (i + r) % k));
  if (k === 2) return [identity, [1, 0]];
  if (k === 3) {
    // The six permutations of three split into three (order, reverse) pairs; cycling through them
    // puts every option in every slot exactly twice per three appearances.
    const starts = [
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ] as const;
    const first = [...starts[appearance % 3]!];
    return [first, [...first].reverse()];
  }
  throw new UserError(
    `reverse-pairs counterbalancing is defined for 2 or 3 options, not ${k}`,
    "use the rotations scheme for larger option sets",
  );
}

/** Per task kind: unique sets, appearances per set, and the counterbalancing scheme. */
function kindPlans(design: ChoiceDesign): [TaskKind, number, number, OrderScheme][] {
  return [
    ["binary", design.pairs, design.pairAppearances, design.binaryOrders],
    ["ternary", design.triples, design.tripleAppearances, design.ternaryOrders],
    ["five", design.fives, design.fiveAppearances, design.fiveOrders],
  ];
}

/** Checks that a design can be built from a pool before anything runs; throws UserError. */
export function checkDesign(design: ChoiceDesign, poolSize: number): void {
  const problems: string[] = [];
  for (const [kind, sets, appearances, scheme] of kindPlans(design)) {
    const k = KIND_SIZE[kind];
    const possible = binomial(poolSize, k);
    if (sets > possible) {
      problems.push(
        `${sets} unique ${kind} sets requested, but a pool of ${poolSize} hotels has only ${possible}`,
      );
    }
    if (sets > 0 && appearances === 0) problems.push(`${kind} sets requested with 0 appearances each`);
    if (scheme === "reverse-pairs" && k > 3 && sets > 0) {
      problems.push(
        `${kind} tasks cannot use reverse-pairs counterbalancing (only rotations balance ${k} options)`,
      );
    }
    if (scheme === "reverse-pairs" && k === 3 && appearances % 3 !== 0 && sets > 0) {
      problems.push(
        `ternary appearances must be a multiple of 3 for reverse-pairs counterbalancing (got ${appearances}); ` +
          "use 3, 6, 9… or the rotations scheme",
      );
    }
  }
  if (design.pairs + design.triples + design.fives === 0) problems.push("the design has no tasks");
  if (problems.length > 0) {
    throw new UserError(`impossible choice design: ${problems.join("; ")}`, "change the design sizes");
  }
}

/** Draws `sets` distinct unordered k-subsets of pool indices (order inside a set is random). */
function drawUniqueSets(rng: Rng, poolSize: number, k: number, sets: number): number[][] {
  const seen = new Set<string>();
  const out: number[][] = [];
  const possible = binomial(poolSize, k);
  if (sets > possible / 2) {
    // Dense request: rejection sampling would crawl, so enumerate every subset and shuffle.
    const all: number[][] = [];
    const rec = (start: number, acc: number[]) => {
      if (acc.length === k) return void all.push(acc.slice());
      for (let i = start; i < poolSize; i++) rec(i + 1, [...acc, i]);
    };
    rec(0, []);
    return rng
      .shuffle(all)
      .slice(0, sets)
      .map((s) => rng.shuffle(s));
  }
  while (out.length < sets) {
    const picked = new Set<number>();
    while (picked.size < k) picked.add(rng.int(poolSize));
    const set = [...picked];
    const key = set
      .slice()
      .sort((a, b) => a - b)
      .join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(set);
  }
  return out;
}

/** One appearance of a hotel: the six variable attributes re-drawn within the property's ranges. */
export function drawAppearance(hotel: Hotel, rng: Rng): ChoiceOption {
  const review = hotel.reviewScoreBase + rng.uniform(-0.2, 0.2);
  return {
    hotelId: hotel.id,
    name: hotel.name,
    stars: hotel.stars,
    neighborhood: hotel.neighborhood,
    chain: hotel.chain,
    price: Math.max(1, Math.round(rng.uniform(hotel.priceMin, hotel.priceMax))),
    roomType: rng.pick(hotel.roomTypes),
    freeCancellation: rng.bernoulli(hotel.freeCancellationProb),
    breakfast: rng.bernoulli(hotel.breakfastProb),
    reviewScore: Math.min(10, Math.max(0, Math.round(review * 10) / 10)),
    reviewCount: Math.max(0, Math.round(hotel.reviewCountBase * rng.uniform(0.9, 1.1))),
  };
}

/**
 * design → tasks: a pure, seeded function. Same design, same pool ⇒ byte-identical tasks. Each kind
 * draws from its own forked stream, so changing the number of triples leaves the pairs unchanged.
 */
export function buildChoiceTasks(designInput: ChoiceDesignInput, pool: readonly Hotel[]): ChoiceTask[] {
  const design = ChoiceDesignSchema.parse(designInput);
  checkDesign(design, pool.length);
  const root = createRng(design.seed);
  const tasks: ChoiceTask[] = [];
  for (const [kind, sets, appearances, scheme] of kindPlans(design)) {
    const k = KIND_SIZE[kind];
    const rng = root.fork(kind);
    const unique = drawUniqueSets(rng.fork("sets"), pool.length, k, sets);
    const draws = rng.fork("appearances");
    unique.forEach((members, s) => {
      const setId = `${KIND_PREFIX[kind]}${s + 1}`;
      for (let a = 0; a < appearances; a++) {
        const drawn = members.map((m) => drawAppearance(pool[m]!, draws));
        displayOrders(k, scheme, a).forEach((order, o) => {
          tasks.push({
            env: "choice",
            taskId: `${setId}-${a + 1}-${o + 1}`,
            kind,
            setId,
            appearance: a + 1,
            order,
            options: order.map((i) => drawn[i]!),
            variant: design.variant,
          });
        });
      }
    });
  }
  return tasks;
}
