/**
 * Paged reads of a run's trials for the terminal UI: keyset pages on seq (so the first screen of a
 * 100,000-trial run costs what a 10-trial run does) with filters compiled to SQL, so a filtered page
 * is found by the database rather than by parsing every trial in JavaScript.
 */
import type { SqlDialect, SqlParam } from "./sql/db.ts";
import type { Store, TrialPageRow, TrialWhere } from "./store.ts";

type Scalar = string | number | boolean | null;
type CompareOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

/** One filter on a stored trial; a page matches all the conditions it is given. */
export type TrialCondition =
  | { column: "agent"; equals: string }
  | { column: "nonResponse" | "agentError"; equals: boolean }
  /** A JSON value of the stored result (`{ outcome, usage }`) or task, compared with a constant. */
  | { json: "result" | "task"; path: string; op: CompareOp; value: Scalar }
  | { json: "result" | "task"; path: string; op: "is null" | "is not null" }
  /** Two JSON values of the same document compared with each other (e.g. cost > budget). */
  | { json: "result" | "task"; path: string; op: CompareOp; otherPath: string };

/** A JSON path as the filters write it: `$.a.b`, `$.a[0]`. Anything else is refused. */
const JSON_PATH = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;
const OPS: ReadonlySet<string> = new Set(["=", "!=", "<", "<=", ">", ">="]);

/** `$.a[0].b` as `["a", 0, "b"]`. */
function segments(path: string): (string | number)[] {
  if (!JSON_PATH.test(path)) throw new Error(`trial filter: not a JSON path: ${JSON.stringify(path)}`);
  return [...path.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : Number(m[2]),
  );
}

/** One JSON condition as SQL over `t.result` or `k.task`, with its parameters. */
function jsonCondition(
  c: Extract<TrialCondition, { json: unknown }>,
  params: SqlParam[],
  d: SqlDialect,
): string {
  const doc = c.json === "result" ? "t.result" : "k.task";
  const path = segments(c.path);
  if (!("value" in c) && !("otherPath" in c)) return d.jsonIsNull(doc, path, c.op === "is not null");
  if (!OPS.has(c.op)) throw new Error(`trial filter: unknown operator ${c.op}`);
  const left = d.jsonValue(doc, path);
  if ("otherPath" in c) return `${left} ${c.op} ${d.jsonValue(doc, segments(c.otherPath))}`;
  params.push(d.jsonParam(c.value));
  return `${left} ${c.op} ${d.jsonPlaceholder}`;
}

/**
 * The filter `trialPage` takes for these conditions; undefined when there are none. Conditions on
 * the task become one set of task indexes, so each task's JSON is read once, not once per trial.
 * Paths and operators are checked here, when the filter is made.
 */
export function trialWhere(runId: string, conditions: readonly TrialCondition[]): TrialWhere | undefined {
  if (conditions.length === 0) return undefined;
  for (const c of conditions) {
    if ("json" in c) {
      segments(c.path);
      if ("otherPath" in c) segments(c.otherPath);
      if (("value" in c || "otherPath" in c) && !OPS.has(c.op))
        throw new Error(`trial filter: unknown operator ${c.op}`);
    }
  }
  return { compile: (d) => compileWhere(runId, conditions, d) };
}

function compileWhere(
  runId: string,
  conditions: readonly TrialCondition[],
  d: SqlDialect,
): { sql: string; params: SqlParam[] } {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  const taskParts: string[] = [];
  const taskParams: SqlParam[] = [];
  for (const c of conditions) {
    if ("column" in c) {
      if (c.column === "agent") {
        parts.push("t.agent = ?");
        params.push(c.equals);
      } else {
        parts.push(`t.${c.column === "nonResponse" ? "non_response" : "agent_error"} = ?`);
        params.push(c.equals ? 1 : 0);
      }
    } else if (c.json === "task") taskParts.push(jsonCondition(c, taskParams, d));
    else parts.push(jsonCondition(c, params, d));
  }
  if (taskParts.length > 0) {
    parts.push(
      `t.task_index IN (SELECT k.task_index FROM tasks k WHERE k.run_id = ? AND ${taskParts.join(" AND ")})`,
    );
    params.push(runId, ...taskParams);
  }
  return { sql: parts.join(" AND "), params };
}

/** A stored trial with its task and result parsed. */
export interface PagedTrial {
  seq: number;
  trialKey: string;
  agent: string;
  replicate: number;
  nonResponse: boolean;
  agentError: boolean;
  task: unknown;
  result: unknown;
}

function parseRows(rows: readonly TrialPageRow[]): PagedTrial[] {
  // Pages are mostly task-major runs of the same task: parse each task text once per page.
  let lastText = "";
  let lastTask: unknown;
  return rows.map((r) => {
    if (r.task !== lastText) {
      lastText = r.task;
      lastTask = JSON.parse(r.task);
    }
    return {
      seq: r.seq,
      trialKey: r.trialKey,
      agent: r.agent,
      replicate: r.replicate,
      nonResponse: r.nonResponse === 1,
      agentError: r.agentError === 1,
      task: lastTask,
      result: JSON.parse(r.result),
    };
  });
}

/** Up to `limit` matching trials with seq > afterSeq (from the start when afterSeq is -1), ascending. */
export function trialsAfter(
  store: Store,
  runId: string,
  afterSeq: number,
  limit: number,
  where?: TrialWhere,
): PagedTrial[] {
  return parseRows(store.trialPage(runId, { afterSeq, limit, where }).rows);
}

/** Up to `limit` matching trials with seq < beforeSeq, in ascending order (the page just before). */
export function trialsBefore(
  store: Store,
  runId: string,
  beforeSeq: number,
  limit: number,
  where?: TrialWhere,
): PagedTrial[] {
  return parseRows(store.trialPage(runId, { beforeSeq, limit, where }).rows).reverse();
}

/** The trial with this seq, if it is stored. */
export function trialAt(store: Store, runId: string, seq: number): PagedTrial | undefined {
  return trialsAfter(store, runId, seq - 1, 1).find((t) => t.seq === seq);
}

/** How many trials of the run match. */
export function countTrials(store: Store, runId: string, where?: TrialWhere): number {
  return store.trialPage(runId, { afterSeq: -1, limit: 0, where, count: true }).matched ?? 0;
}
