/** The release's response files: conjoint_results_<model>[_5opt][_swap].csv. */
import type { Problem } from "../../environments/kernel/errors.ts";
import { intCell, readCsvTable } from "./csv-table.ts";

/** Task ids of the swapped-order runs are the original ids plus this. */
export const SWAP_OFFSET = 10000;

export interface ResponseRow {
  /** The original task id (the swap offset already removed). */
  taskId: number;
  /** The ORIGINAL label of the booked option ("A", "B", …), as the release records it in both runs. */
  choice: string;
  /** What the model answered (in the swap run, the letter as displayed). */
  raw: string;
  row: number;
}

/**
 * Rows of a swap file whose ids lack the +10000 offset. The release has such a block
 * (`conjoint_results_mistral_7b-instruct-fp16_swap.csv`: ids 1001–4600 before 10001–13600); its
 * triage counts them and its fits drop them. They are kept apart, never read as answers to a task,
 * and reported by the importer.
 */
export interface OddRows {
  file: string;
  /** The rows (1-based, as in the file) and ids, in file order. */
  rows: { row: number; taskId: number; choice: string; raw: string }[];
  why: string;
}

/**
 * How often each choice letter occurs among odd rows ("" for a blank): what the reference's triage
 * reads of them (it counts every A and B of a response file, matched to a task or not).
 */
export function oddRowLetters(odd: OddRows): Record<string, number> {
  const letters: Record<string, number> = {};
  for (const r of odd.rows) {
    const letter = r.choice.trim().toUpperCase();
    letters[letter] = (letters[letter] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(letters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface ParsedResponses {
  rows: ResponseRow[];
  odd: OddRows | null;
}

export const UNOFFSET_WHY = `id without the +${SWAP_OFFSET} offset of a swap file: answers no task of the swapped order`;

/**
 * Reads one response file. In a swap file, ids must carry the +10000 offset; rows without it are
 * set apart as odd rows (see OddRows) — unless no row of the file has the offset, which means the
 * file is not a swap file at all and is a problem. Ids are checked against the task file later (by
 * the caller, which knows the tasks).
 */
export function parseResponseFile(
  text: string,
  file: string,
  swap: boolean,
  problems: Problem[],
): ParsedResponses {
  const table = readCsvTable(text, file, ["task_id", "choice", "raw_output"], problems);
  if (!table) return { rows: [], odd: null };
  const out: ResponseRow[] = [];
  const odd: OddRows["rows"] = [];
  const seen = new Map<number, number>();
  for (const r of table.rows) {
    const where = { file, row: r.row, field: "task_id" };
    const id = intCell(r.get("task_id"), where, problems);
    if (id === null) continue;
    if (swap && id <= SWAP_OFFSET) {
      odd.push({ row: r.row, taskId: id, choice: r.get("choice"), raw: r.get("raw_output") });
      continue;
    }
    if (!swap && id > SWAP_OFFSET) {
      problems.push({
        ...where,
        message: `${id} carries the swap offset in a file of original-order answers`,
      });
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push({ ...where, message: `task ${id} answered twice (first at row ${first})` });
      continue;
    }
    seen.set(id, r.row);
    out.push({
      taskId: swap ? id - SWAP_OFFSET : id,
      choice: r.get("choice"),
      raw: r.get("raw_output"),
      row: r.row,
    });
  }
  if (odd.length > 0 && out.length === 0) {
    for (const o of odd)
      problems.push({
        file,
        row: o.row,
        field: "task_id",
        message: `${o.taskId} lacks the +${SWAP_OFFSET} offset of a swap file (no row of this file has it: is it an original-order file named _swap?)`,
      });
    return { rows: [], odd: null };
  }
  return { rows: out, odd: odd.length > 0 ? { file, rows: odd, why: UNOFFSET_WHY } : null };
}

/** "rows 2–3,601 (ids 1001–4600)" — a short description of a block of odd rows. */
export function describeOddRows(odd: OddRows): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const span = (a: number, b: number) => (a === b ? n(a) : `${n(a)}–${n(b)}`);
  const rows = odd.rows.map((r) => r.row);
  const ids = odd.rows.map((r) => r.taskId);
  return `${n(odd.rows.length)} row${odd.rows.length === 1 ? "" : "s"} (rows ${span(Math.min(...rows), Math.max(...rows))}, ids ${span(Math.min(...ids), Math.max(...ids))})`;
}
