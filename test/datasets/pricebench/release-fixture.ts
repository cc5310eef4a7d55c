/**
 * A small PriceBench-format release made from the project's own generated hotel pool and simulated
 * shoppers — the same file layout as the real release, none of its rows.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_HOTEL_POOL, type Hotel } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import type { ChoiceOption, ChoiceTask } from "../../../environments/choice/types.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { csvCell } from "../../../environments/store/index.ts";
import { presetPolicy, simulateTask } from "../../analysis/choice/simulate.ts";

const FIELDS = [
  "hotel_id",
  "name",
  "stars",
  "neighborhood",
  "review_score",
  "review_count",
  "room_type",
  "cancellation_free",
  "breakfast_included",
  "amenities",
  "price",
];

function poolJson(pool: readonly Hotel[]): string {
  const hotels = pool.map((h) => ({
    id: h.id,
    name: h.name,
    stars: h.stars,
    neighborhood: h.neighborhood,
    review_score_base: h.reviewScoreBase,
    review_count_base: h.reviewCountBase,
    price_min: h.priceMin,
    price_max: h.priceMax,
    room_types: h.roomTypes,
    cancellation_free_prob: h.freeCancellationProb,
    breakfast_prob: h.breakfastProb,
    amenities: h.amenities,
  }));
  return `${JSON.stringify({ description: "bazaar test fixture", hotels }, null, 2)}\n`;
}

function optionCells(o: ChoiceOption | undefined, float: boolean): string[] {
  if (!o) return FIELDS.map(() => "");
  const flag = (b: boolean) => (float ? (b ? "1.0" : "0.0") : b ? "1" : "0");
  return [
    o.hotelId,
    o.name,
    o.stars,
    o.neighborhood,
    o.reviewScore,
    o.reviewCount,
    o.roomType,
    flag(o.freeCancellation),
    flag(o.breakfast),
    "Free WiFi; Gym",
    o.price,
  ].map((v) => csvCell(v));
}

export interface FixtureTask {
  id: number;
  type: "binary" | "ternary" | "fiveopt";
  group: number;
  rep: number;
  options: ChoiceOption[];
}

function taskCsv(tasks: readonly FixtureTask[], letters: number): string {
  const prefixes = "abcde".slice(0, letters).split("");
  const header = [
    "task_id",
    "task_type",
    "group_id",
    "rep",
    ...prefixes.flatMap((p) => FIELDS.map((f) => `${p}_${f}`)),
  ];
  // As in the release, a column that is empty on some rows (the c_ columns) holds floats.
  const lines = tasks.map((t) =>
    [
      t.id,
      t.type,
      t.group,
      t.rep,
      ...prefixes.flatMap((_, i) => optionCells(t.options[i], i === 2 && letters === 3)),
    ].join(","),
  );
  return `${[header.join(","), ...lines].join("\n")}\n`;
}

/** Canonical (original-order) tasks from a bazaar design: one per drawn appearance. */
export function fixtureTasks(
  pairs: number,
  triples: number,
  fives: number,
  pool: readonly Hotel[],
): FixtureTask[] {
  const built = buildChoiceTasks(
    {
      seed: "pricebench-fixture",
      pairs,
      pairAppearances: 2,
      triples,
      tripleAppearances: 3,
      fives,
      fiveAppearances: 1,
    },
    pool,
  );
  const canonical = built.filter((t) => t.order.every((c, s) => c === s));
  let id = 0;
  let fiveId = 0;
  return canonical.map((t) => {
    const group = Number(t.setId.slice(1));
    if (t.kind === "five")
      return { id: ++fiveId, type: "fiveopt", group, rep: t.appearance, options: t.options };
    return {
      id: ++id,
      type: t.kind,
      group: t.kind === "binary" ? group : pairs + group,
      rep: t.appearance,
      options: t.options,
    };
  });
}

function shown(t: FixtureTask, swap: boolean): ChoiceTask {
  const k = t.options.length;
  const order = Array.from({ length: k }, (_, s) => (swap ? k - 1 - s : s));
  return {
    env: "choice",
    taskId: String(t.id),
    kind: t.type === "fiveopt" ? "five" : t.type,
    setId: String(t.group),
    appearance: t.rep,
    order,
    options: order.map((i) => t.options[i]!),
    variant: "plain",
  };
}

/** Response rows of one simulated model: choice = ORIGINAL label, raw = the displayed letter. */
function responses(tasks: readonly FixtureTask[], preset: string, swap: boolean, seed: string): string {
  const rng = createRng(seed);
  const policy = presetPolicy(preset);
  const lines = tasks.map((t) => {
    const task = shown(t, swap);
    const slot = simulateTask(task, policy, rng);
    const raw = slot === null ? "I cannot decide." : String.fromCharCode(65 + slot);
    const choice = slot === null ? "" : String.fromCharCode(65 + task.order[slot]!);
    return [swap ? t.id + 10000 : t.id, choice, csvCell(raw)].join(",");
  });
  return `${["task_id,choice,raw_output", ...lines].join("\n")}\n`;
}

export interface FixtureRelease {
  dir: string;
  tasks: FixtureTask[];
  fiveTasks: FixtureTask[];
}

/** Writes a release into `dir`: pool, tasks, five-option tasks, and both orders for each model. */
export function writeFixtureRelease(
  dir: string,
  opts: {
    models: Record<string, string>;
    pairs?: number;
    triples?: number;
    fives?: number;
    responsesFolder?: boolean;
  },
): FixtureRelease {
  const pool = DEFAULT_HOTEL_POOL.slice(0, 60);
  const all = fixtureTasks(opts.pairs ?? 40, opts.triples ?? 10, opts.fives ?? 6, pool);
  const tasks = all.filter((t) => t.type !== "fiveopt");
  const fiveTasks = all.filter((t) => t.type === "fiveopt");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "hotel_pool.json"), poolJson(pool));
  writeFileSync(path.join(dir, "conjoint_tasks.csv"), taskCsv(tasks, 3));
  writeFileSync(path.join(dir, "tasks_5opt.csv"), taskCsv(fiveTasks, 5));
  const out = opts.responsesFolder ? path.join(dir, "responses") : dir;
  mkdirSync(out, { recursive: true });
  for (const [model, preset] of Object.entries(opts.models)) {
    for (const swap of [false, true]) {
      const tail = swap ? "_swap" : "";
      writeFileSync(
        path.join(out, `conjoint_results_${model}${tail}.csv`),
        responses(tasks, preset, swap, `${model}${tail}`),
      );
      writeFileSync(
        path.join(out, `conjoint_results_${model}_5opt${tail}.csv`),
        responses(fiveTasks, preset, swap, `${model}5${tail}`),
      );
    }
  }
  return { dir, tasks, fiveTasks };
}
