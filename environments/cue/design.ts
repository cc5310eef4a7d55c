/**
 * design → tasks for the cue audit: a pure, seeded function. Inside every (pair, premium) cell the
 * four target × position states are complete (cue on product A or B × cued product shown first or
 * second); the N calls of a cell are N/4 replicates of each state (see `callsPerState`). The seed
 * shuffles the task order so conditions are interleaved in time rather than collected in blocks.
 */
import { z } from "zod";
import { checkStimuli } from "../../datasets/products/check.ts";
import { runnableConditions } from "../../datasets/products/library.ts";
import {
  type CueCondition,
  PRICE_ONLY,
  type Product,
  type ProductPair,
} from "../../datasets/products/schema.ts";
import { cueTextFor, lengthMatched, renderSentence, wordCount } from "../../datasets/products/text.ts";
import { InvalidFileError, UserError } from "../kernel/errors.ts";
import { createRng } from "../kernel/rng.ts";
import { CUE_INSTRUCTIONS } from "./prompt.ts";
import { CUE_BLOCKS, type CueBlock, type CueOption, type CueTask, type ProductSide } from "./types.ts";

/** The paper's premium grid (fractions of the reference price). */
export const CUE_GRID: readonly number[] = [0, 0.02, 0.04, 0.06, 0.08, 0.12, 0.18, 0.26];
/** The additivity grid: extended towards 60% so that three combined cues still cross inside it. */
export const ADDITIVITY_GRID: readonly number[] = [...CUE_GRID, 0.36, 0.48, 0.6];
export const ADDITIVITY_CUES = ["social-proof-strong", "authority", "scarcity"] as const;
export const PARAPHRASE_CONDITIONS = [
  "social-proof-weak",
  "social-proof-moderate",
  "social-proof-strong",
  "social-proof-very-strong",
  "scarcity",
  "authority",
  "framing-gain-loss",
  "neutral",
] as const;

const grid = z
  .array(z.number().min(0).max(100))
  .min(2)
  .refine((g) => g[0] === 0, "the grid must start at 0 (equal prices)")
  .refine(
    (g) => g.every((x, i) => i === 0 || x > (g[i - 1] as number)),
    "the grid must be strictly increasing",
  );

export const CueDesignSchema = z.object({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  grid: grid.default([...CUE_GRID]),
  /** Trials per (pair, premium) cell: a multiple of 4, split evenly over the four states. */
  nPerCell: z
    .number()
    .int()
    .positive()
    .multipleOf(4, "must be a multiple of 4 (the four states)")
    .default(24),
  /** Runnable condition names of the main block; all of them when absent. */
  conditions: z.array(z.string()).min(1).optional(),
  /** Categories to run; every category of the pairs when absent. */
  categories: z.array(z.string()).min(1).optional(),
  /** Default: the main battery and the additivity factorial (paraphrases are a separate study). */
  blocks: z.array(z.enum(CUE_BLOCKS)).min(1).default(["main", "additivity"]),
  additivity: z
    .object({
      /** Three one-sided cues; each slot holds the cue or the library's `filler-<cue>`. */
      cues: z
        .array(z.string())
        .length(3)
        .default([...ADDITIVITY_CUES]),
      grid: grid.default([...ADDITIVITY_GRID]),
    })
    .prefault({}),
  paraphrases: z
    .object({
      conditions: z
        .array(z.string())
        .min(1)
        .default([...PARAPHRASE_CONDITIONS]),
      /**
       * Which instructions to run. Default: the three paraphrases when the main block runs too (it is
       * their instruction 0), all four when the paraphrase block runs on its own.
       */
      instructions: z
        .array(
          z
            .number()
            .int()
            .min(0)
            .max(CUE_INSTRUCTIONS.length - 1),
        )
        .min(1)
        .optional(),
    })
    .prefault({}),
});
export type CueDesign = z.infer<typeof CueDesignSchema>;
export type CueDesignInput = z.input<typeof CueDesignSchema>;

/** Replicates of each task that make up N per cell (each task is one of the cell's four states). */
export function callsPerState(design: Pick<CueDesign, "nPerCell">): number {
  return design.nPerCell / 4;
}

const STATES: readonly [ProductSide, boolean][] = [
  ["A", true],
  ["A", false],
  ["B", true],
  ["B", false],
];

function roundCents(usd: number): number {
  return Math.round(usd * 100) / 100;
}

function percentLabel(g: number): string {
  return String(Number((g * 100).toFixed(6)));
}

/** The sentences appended to each product: the cued product's and the other's. */
interface Sentences {
  cued: string[];
  other: string[];
}

function sentence(c: CueCondition, side: "cue" | "other", category: string, product: Product): string[] {
  const text = c[side];
  if (text === null) return [];
  const t = cueTextFor(text, category);
  if (t === null)
    throw new Error(`bug: "${c.name}" has no ${side} text for ${category} (checkStimuli missed it)`);
  return [renderSentence(t, product)];
}

function describe(product: Product, extra: readonly string[]): string {
  return extra.length === 0 ? product.description : product.description + " " + extra.join(" ");
}

interface CellSpec {
  block: CueBlock;
  condition: string;
  family: string;
  intensity: string | null;
  oneSided: boolean;
  version: number;
  instruction: number;
  factors: Record<string, boolean> | null;
  sentences(pair: ProductPair): Sentences;
}

function tasksForCell(
  spec: CellSpec,
  pairs: readonly ProductPair[],
  premiums: readonly number[],
  seed: string,
): CueTask[] {
  const tasks: CueTask[] = [];
  const prefix = spec.block === "main" ? "m" : spec.block === "additivity" ? "a" : `p${spec.instruction}`;
  for (const pair of pairs) {
    const s = spec.sentences(pair);
    for (const premium of premiums) {
      for (const [target, cuedFirst] of STATES) {
        const cuedIndex = target === "A" ? 0 : 1;
        const cuedProduct = pair.products[cuedIndex];
        const otherProduct = pair.products[1 - cuedIndex] as Product;
        const cued: CueOption = {
          name: cuedProduct.name,
          price: roundCents(cuedProduct.price * (1 + premium)),
          rating: cuedProduct.rating,
          ratingCount: cuedProduct.ratingCount,
          specs: cuedProduct.specs,
          description: describe(cuedProduct, s.cued),
          product: target,
          cued: true,
        };
        const other: CueOption = {
          name: otherProduct.name,
          price: otherProduct.price,
          rating: otherProduct.rating,
          ratingCount: otherProduct.ratingCount,
          specs: otherProduct.specs,
          description: describe(otherProduct, s.other),
          product: target === "A" ? "B" : "A",
          cued: false,
        };
        tasks.push({
          env: "cue",
          seed,
          taskId: `${prefix}/${spec.condition}/${pair.pairId}/g${percentLabel(premium)}/${target}${cuedFirst ? 1 : 2}`,
          block: spec.block,
          condition: spec.condition,
          family: spec.family,
          intensity: spec.intensity,
          oneSided: spec.oneSided,
          version: spec.version,
          category: pair.category,
          item: pair.item,
          pairId: pair.pairId,
          premium,
          referencePrice: otherProduct.price,
          cueTarget: target,
          cuedFirst,
          instruction: spec.instruction,
          factors: spec.factors,
          options: cuedFirst ? [cued, other] : [other, cued],
        });
      }
    }
  }
  return tasks;
}

function conditionCell(c: CueCondition, block: CueBlock, instruction: number): CellSpec {
  return {
    block,
    condition: c.name,
    family: c.family,
    intensity: c.intensity,
    oneSided: c.cue !== null && c.other === null,
    version: c.version,
    instruction,
    factors: null,
    sentences: (pair) => ({
      cued: sentence(c, "cue", pair.category, pair.products[0]),
      other: sentence(c, "other", pair.category, pair.products[0]),
    }),
  };
}

function byName(library: readonly CueCondition[], name: string, what: string): CueCondition {
  const c = library.find((x) => x.name === name);
  if (!c)
    throw new UserError(
      `${what} "${name}" is not in the cue library`,
      `names: ${library.map((x) => x.name).join(", ")}`,
    );
  return c;
}

/** The 2³ additivity cells: slot k holds cue k when bit k is set, else its length-matched filler. */
function additivityCells(
  library: readonly CueCondition[],
  cueNames: readonly string[],
  pairs: readonly ProductPair[],
): CellSpec[] {
  const cues = cueNames.map((n) => byName(library, n, "additivity cue"));
  const fillers = cueNames.map((n) => byName(library, `filler-${n}`, "additivity filler"));
  cues.forEach((c, k) => {
    if (c.other !== null || c.role !== "condition") {
      throw new UserError(`additivity cue "${c.name}" must be a one-sided condition (no other sentence)`);
    }
    const filler = fillers[k] as CueCondition;
    for (const category of new Set(pairs.map((p) => p.category))) {
      const cueText = cueTextFor(c.cue ?? "", category);
      const fillerText = filler.cue === null ? null : cueTextFor(filler.cue, category);
      if (cueText !== null && fillerText !== null && !lengthMatched(cueText, fillerText)) {
        throw new UserError(
          `filler "${filler.name}" has ${wordCount(fillerText)} words but "${c.name}" has ${wordCount(cueText)} (${category}); the factorial needs length-matched fillers (±15%)`,
        );
      }
    }
  });
  const cells: CellSpec[] = [];
  for (let bits = 0; bits < 8; bits++) {
    const on = [0, 1, 2].map((k) => ((bits >> (2 - k)) & 1) === 1);
    const label = on.map((b) => (b ? "1" : "0")).join("");
    cells.push({
      block: "additivity",
      condition: `additivity-${label}`,
      family: "additivity",
      intensity: null,
      oneSided: false,
      version: 0,
      instruction: 0,
      factors: Object.fromEntries(cueNames.map((n, k) => [n, on[k] as boolean])),
      sentences: (pair) => ({
        cued: on.flatMap((b, k) =>
          sentence((b ? cues[k] : fillers[k]) as CueCondition, "cue", pair.category, pair.products[0]),
        ),
        other: fillers.flatMap((f) => sentence(f, "cue", pair.category, pair.products[0])),
      }),
    });
  }
  return cells;
}

/**
 * Every task of a cue design. Checks the whole design first (unknown names, missing texts, cue
 * sentences already in a description) and throws a UserError before anything runs.
 */
export function buildCueTasks(
  designInput: CueDesignInput,
  allPairs: readonly ProductPair[],
  library: readonly CueCondition[],
): CueTask[] {
  const design = CueDesignSchema.parse(designInput);
  const runnable = runnableConditions(library);
  const categories = design.categories ?? [...new Set(allPairs.map((p) => p.category))];
  for (const c of categories) {
    if (!allPairs.some((p) => p.category === c)) {
      const known = [...new Set(allPairs.map((p) => p.category))].join(", ");
      throw new UserError(`no product pairs in category "${c}"`, `categories: ${known}`);
    }
  }
  const pairs = allPairs.filter((p) => categories.includes(p.category));
  const main = (design.conditions ?? runnable.map((c) => c.name)).map((n) =>
    byName(runnable, n, "condition"),
  );
  const blocks = new Set(design.blocks);
  const cells: [CellSpec, readonly number[]][] = [];
  const used = new Set<CueCondition>();
  if (blocks.has("main")) {
    for (const c of main) {
      cells.push([conditionCell(c, "main", 0), design.grid]);
      used.add(c);
    }
  }
  if (blocks.has("additivity")) {
    for (const cell of additivityCells(library, design.additivity.cues, pairs))
      cells.push([cell, design.additivity.grid]);
    for (const n of design.additivity.cues) {
      used.add(byName(library, n, "additivity cue"));
      used.add(byName(library, `filler-${n}`, "additivity filler"));
    }
  }
  if (blocks.has("paraphrases")) {
    for (const n of design.paraphrases.conditions) {
      const c = byName(runnable, n, "paraphrase condition");
      used.add(c);
      const instructions = design.paraphrases.instructions ?? (blocks.has("main") ? [1, 2, 3] : [0, 1, 2, 3]);
      for (const i of instructions) cells.push([conditionCell(c, "paraphrases", i), design.grid]);
    }
  }
  const withText = [...used].filter((c) => c.name !== PRICE_ONLY);
  // Rows would count conditions of this design, not entries of a file: the message names the cue.
  const problems = checkStimuli(pairs, withText, "the cue library").map(({ row: _row, ...p }) => p);
  if (problems.length > 0)
    throw new InvalidFileError("the cue library", problems, "fix the cue or pairs file");

  const tasks = cells.flatMap(([spec, premiums]) => tasksForCell(spec, pairs, premiums, String(design.seed)));
  return createRng(design.seed).fork("order").shuffle(tasks);
}
