/** The release's response files: conjoint_results_<model>[_5opt][_swap].csv. */
import type { Problem } from "../../errors/index.ts";
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
 * Reads one response file. In a swap file every id must carry the +10000 offset; ids are checked
 * against the task file later (by the caller, which knows the tasks).
 */
export function parseResponseFile(
  text: string,
  file: string,
  swap: boolean,
  problems: Problem[],
): ResponseRow[] {
  const table = readCsvTable(text, file, ["task_id", "choice", "raw_output"], problems);
  if (!table) return [];
  const out: ResponseRow[] = [];
  const seen = new Map<number, number>();
  for (const r of table.rows) {
    const where = { file, row: r.row, field: "task_id" };
    const id = intCell(r.get("task_id"), where, problems);
    if (id === null) continue;
    if (swap && id <= SWAP_OFFSET) {
      problems.push({ ...where, message: `${id} lacks the +${SWAP_OFFSET} offset of a swap file` });
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
  return out;
}
