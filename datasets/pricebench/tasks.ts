/** The release's task files: conjoint_tasks.csv (binary + ternary) and tasks_5opt.csv. */
import type { ChoiceOption, TaskKind } from "../../environments/choice/types.ts";
import type { Problem } from "../../environments/kernel/errors.ts";
import type { Hotel } from "../hotels/schema.ts";
import { intCell, numberCell, readCsvTable } from "./csv-table.ts";

/** One task as the release stores it: options in their original (A, B, C, …) order. */
export interface PriceBenchTask {
  /** The release's task id (1–3600 in conjoint_tasks.csv, 1–300 in tasks_5opt.csv). */
  id: number;
  kind: TaskKind;
  /** The unique option set (450 pairs, 300 triples, 300 quintets). */
  groupId: number;
  /** Which appearance (re-draw) of the set. */
  rep: number;
  options: ChoiceOption[];
}

export const OPTION_FIELDS = [
  "hotel_id",
  "name",
  "stars",
  "neighborhood",
  "review_score",
  "review_count",
  "room_type",
  "cancellation_free",
  "breakfast_included",
  "price",
] as const;

const PREFIXES = ["a", "b", "c", "d", "e"];
const KIND_OF: Record<string, { kind: TaskKind; size: number }> = {
  binary: { kind: "binary", size: 2 },
  ternary: { kind: "ternary", size: 3 },
  fiveopt: { kind: "five", size: 5 },
};

/**
 * Reads a task file. `file` names it in problems; `pool` maps hotel ids to the pool's hotels (the
 * chain family comes from there). Problems are pushed, not thrown, so one pass reports them all.
 */
export function parseTaskFile(
  text: string,
  file: string,
  pool: ReadonlyMap<number, Hotel>,
  five: boolean,
  problems: Problem[],
): PriceBenchTask[] {
  const prefixes = PREFIXES.slice(0, five ? 5 : 2);
  const required = [
    "task_id",
    "task_type",
    "group_id",
    "rep",
    ...prefixes.flatMap((p) => OPTION_FIELDS.map((f) => `${p}_${f}`)),
  ];
  const table = readCsvTable(text, file, required, problems);
  if (!table) return [];
  const tasks: PriceBenchTask[] = [];
  const seen = new Map<number, number>();
  for (const r of table.rows) {
    const at = (field: string) => ({ file, row: r.row, field });
    const before = problems.length;
    const id = intCell(r.get("task_id"), at("task_id"), problems);
    const type = r.get("task_type");
    const shape = KIND_OF[type];
    if (!shape || (shape.kind === "five") !== five) {
      problems.push({
        ...at("task_type"),
        message: `expected ${five ? '"fiveopt"' : '"binary" or "ternary"'}, got ${JSON.stringify(type)}`,
      });
    }
    const groupId = intCell(r.get("group_id"), at("group_id"), problems);
    const rep = intCell(r.get("rep"), at("rep"), problems);
    if (id !== null) {
      const first = seen.get(id);
      if (first !== undefined)
        problems.push({ ...at("task_id"), message: `duplicate task id ${id} (first at row ${first})` });
      else seen.set(id, r.row);
    }
    const options: ChoiceOption[] = [];
    for (const p of PREFIXES.slice(0, shape?.size ?? 0)) {
      const option = parseOption(p, r.get, at, pool, problems, table.columns.has(`${p}_amenities`));
      if (option) options.push(option);
    }
    if (problems.length > before || !shape || id === null || groupId === null || rep === null) continue;
    tasks.push({ id, kind: shape.kind, groupId, rep, options });
  }
  return tasks;
}

function parseOption(
  p: string,
  get: (column: string) => string,
  at: (field: string) => { file: string; row: number; field: string },
  pool: ReadonlyMap<number, Hotel>,
  problems: Problem[],
  withAmenities: boolean,
): ChoiceOption | null {
  const before = problems.length;
  const hotelId = intCell(get(`${p}_hotel_id`), at(`${p}_hotel_id`), problems);
  const hotel = hotelId === null ? undefined : pool.get(hotelId);
  if (hotelId !== null && !hotel)
    problems.push({ ...at(`${p}_hotel_id`), message: `hotel ${hotelId} is not in hotel_pool.json` });
  const text = (field: string) => {
    const v = get(`${p}_${field}`);
    if (v === "") problems.push({ ...at(`${p}_${field}`), message: "is empty" });
    return v;
  };
  const flag = (field: string) => {
    const v = get(`${p}_${field}`);
    // Columns that are empty on some rows come out of pandas as floats ("1.0").
    if (/^1(\.0+)?$/.test(v) || v.toLowerCase() === "true") return true;
    if (/^0(\.0+)?$/.test(v) || v.toLowerCase() === "false") return false;
    problems.push({ ...at(`${p}_${field}`), message: `expected 0 or 1, got ${JSON.stringify(v)}` });
    return false;
  };
  const range = (field: string, lo: number, hi: number, whole: boolean) => {
    const cell = get(`${p}_${field}`);
    const v = whole
      ? intCell(cell, at(`${p}_${field}`), problems)
      : numberCell(cell, at(`${p}_${field}`), problems);
    if (v !== null && !(v >= lo && v <= hi))
      problems.push({ ...at(`${p}_${field}`), message: `${v} is outside ${lo}–${hi}` });
    return v ?? Number.NaN;
  };
  const option: ChoiceOption = {
    hotelId: hotelId ?? -1,
    name: text("name"),
    stars: range("stars", 1, 5, true),
    neighborhood: text("neighborhood"),
    chain: hotel?.chain ?? "Independent",
    price: range("price", 0.01, Number.POSITIVE_INFINITY, false),
    roomType: text("room_type"),
    freeCancellation: flag("cancellation_free"),
    breakfast: flag("breakfast_included"),
    reviewScore: range("review_score", 0, 10, false),
    reviewCount: range("review_count", 0, Number.POSITIVE_INFINITY, true),
  };
  // "Free WiFi; Air conditioning": the pool's list as the release's task writer joins it.
  if (withAmenities)
    option.amenities = get(`${p}_amenities`)
      .split(";")
      .map((a) => a.trim())
      .filter(Boolean);
  return problems.length > before ? null : option;
}
