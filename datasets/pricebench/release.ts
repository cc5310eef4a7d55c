/** Finding and reading a PriceBench release folder: pool, tasks and every model's response files. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import { loadHotelPool } from "../hotels/load.ts";
import type { Hotel } from "../hotels/schema.ts";
import { type OddRows, parseResponseFile, type ResponseRow } from "./responses.ts";
import { type PriceBenchTask, parseTaskFile } from "./tasks.ts";

export type ResponseBlock = "main" | "five";

export interface ResponseFile {
  model: string;
  block: ResponseBlock;
  swap: boolean;
  path: string;
  /** The file name, as the run config lists it. */
  name: string;
  rows: ResponseRow[];
  /** Rows set apart as a quirk of the file (reported, never read as answers). */
  odd: OddRows | null;
}

export interface PriceBenchRelease {
  dir: string;
  pool: Hotel[];
  tasks: PriceBenchTask[];
  fiveTasks: PriceBenchTask[] | null;
  /** Response files by model tag, in file-name order. */
  models: Map<string, ResponseFile[]>;
  /** Text of each input file, for the run identity (hashed by the caller). */
  inputs: { name: string; text: string }[];
}

const RESPONSE_FILE = /^conjoint_results_(.+?)(_5opt)?(_swap)?\.csv$/;

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Response files sit in the folder itself or in a `responses/` subfolder. */
function responseFiles(dir: string): { file: string; model: string; block: ResponseBlock; swap: boolean }[] {
  const folders = [dir, path.join(dir, "responses")].filter(
    (d) => existsSync(d) && statSync(d).isDirectory(),
  );
  const out: { file: string; model: string; block: ResponseBlock; swap: boolean }[] = [];
  for (const folder of folders) {
    for (const name of readdirSync(folder).sort()) {
      const m = RESPONSE_FILE.exec(name);
      if (!m) continue;
      out.push({
        file: path.join(folder, name),
        model: m[1]!,
        block: m[2] ? "five" : "main",
        swap: m[3] !== undefined,
      });
    }
  }
  return out;
}

export interface ReleaseTasks {
  dir: string;
  pool: Hotel[];
  tasks: PriceBenchTask[];
  fiveTasks: PriceBenchTask[] | null;
  /** Text of each task-side input file (pool, tasks), for the run identity. */
  inputs: { name: string; text: string }[];
  /** Where tasks_5opt.csv would be. */
  fivePath: string;
}

function failOn(file: string, problems: Problem[]): void {
  if (problems.length > 0)
    throw new InvalidFileError(
      file,
      problems,
      "fix the file or re-download the release; nothing was written",
    );
}

/**
 * The release's pool and tasks (conjoint_tasks.csv, and tasks_5opt.csv when present), validated; any
 * problem is an InvalidFileError naming file, row and field.
 */
export function readReleaseTasks(dir: string): ReleaseTasks {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UserError(
      `${dir} is not a folder`,
      "give the folder that holds hotel_pool.json and conjoint_tasks.csv",
    );
  const poolPath = path.join(dir, "hotel_pool.json");
  const tasksPath = path.join(dir, "conjoint_tasks.csv");
  for (const f of [poolPath, tasksPath]) {
    if (!existsSync(f))
      throw new UserError(
        `${f} is missing`,
        "a PriceBench release holds hotel_pool.json and conjoint_tasks.csv",
      );
  }
  const pool = loadHotelPool(poolPath, { chainRule: "pricebench" });
  const byId = new Map(pool.map((h) => [h.id, h]));
  const inputs = [{ name: "hotel_pool.json", text: readText(poolPath) }];
  let problems: Problem[] = [];
  const tasksText = readText(tasksPath);
  inputs.push({ name: "conjoint_tasks.csv", text: tasksText });
  const tasks = parseTaskFile(tasksText, tasksPath, byId, false, problems);
  failOn(tasksPath, problems);
  const fivePath = path.join(dir, "tasks_5opt.csv");
  let fiveTasks: PriceBenchTask[] | null = null;
  if (existsSync(fivePath)) {
    problems = [];
    const text = readText(fivePath);
    inputs.push({ name: "tasks_5opt.csv", text });
    fiveTasks = parseTaskFile(text, fivePath, byId, true, problems);
    failOn(fivePath, problems);
  }
  return { dir, pool, tasks, fiveTasks, inputs, fivePath };
}

/**
 * Reads everything, validating as it goes; any problem in any file is an InvalidFileError naming
 * file, row and field (the first file with problems), before anything is written anywhere.
 */
export function readPriceBenchRelease(
  dir: string,
  opts: { models?: readonly string[] } = {},
): PriceBenchRelease {
  const { pool, tasks, fiveTasks, inputs, fivePath } = readReleaseTasks(dir);
  let problems: Problem[] = [];
  const found = responseFiles(dir);
  const wanted = opts.models ? new Set(opts.models) : null;
  if (wanted) {
    const known = new Set(found.map((f) => f.model));
    const unknown = [...wanted].filter((m) => !known.has(m));
    if (unknown.length > 0)
      throw new UserError(
        `no response files for ${unknown.join(", ")} in ${dir}`,
        `models there: ${[...known].join(", ") || "none"}`,
      );
  }
  const models = new Map<string, ResponseFile[]>();
  const taskIds = {
    main: new Map(tasks.map((t) => [t.id, t])),
    five: new Map((fiveTasks ?? []).map((t) => [t.id, t])),
  };
  for (const f of found) {
    if (wanted && !wanted.has(f.model)) continue;
    if (f.block === "five" && !fiveTasks)
      throw new UserError(
        `${f.file} answers five-option tasks, but ${fivePath} is missing`,
        "add tasks_5opt.csv to the folder",
      );
    problems = [];
    const text = readText(f.file);
    const { rows, odd } = parseResponseFile(text, f.file, f.swap, problems);
    for (const r of rows) {
      if (!taskIds[f.block].has(r.taskId)) {
        const id = f.swap ? r.taskId + 10000 : r.taskId;
        problems.push({
          file: f.file,
          row: r.row,
          field: "task_id",
          message: `task ${id} is not in ${f.block === "five" ? "tasks_5opt.csv" : "conjoint_tasks.csv"}`,
        });
      }
    }
    failOn(f.file, problems);
    inputs.push({ name: path.basename(f.file), text });
    const list = models.get(f.model) ?? [];
    list.push({
      model: f.model,
      block: f.block,
      swap: f.swap,
      path: f.file,
      name: path.basename(f.file),
      rows,
      odd,
    });
    models.set(f.model, list);
  }
  if (models.size === 0)
    throw new UserError(
      `no response files (conjoint_results_<model>.csv) in ${dir} or ${path.join(dir, "responses")}`,
    );
  return { dir, pool, tasks, fiveTasks, models, inputs };
}
