/**
 * `bazaar view --bundle <dir> <run>…`: the same app and the named runs' data as static files, to
 * open from disk (file://) or any static host, offline. A page opened from file:// cannot fetch, so
 * every answer the app would ask the server for is a script file (`bazaarData(key, value)`, named
 * by ui/bundle-file.ts): the runs, each run's page and analysis, its episodes (a hundred a file),
 * and its list — every episode's row with its filter values and sort keys, which the app filters,
 * sorts and pages itself. Everything goes through the redactor first.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PagedTrial, TrialCondition } from "../../environments/store/trial-pages.ts";
import { trialsAfter } from "../../environments/store/trial-pages.ts";
import type { TrialRecord } from "../tui/records/types.ts";
import type { EpisodeRow } from "./api-types.ts";
import { ASSETS, assetsDir, CSP, indexHtml } from "./assets.ts";
import type { ViewData } from "./data.ts";
import { episodePage } from "./episode.ts";
import { bundleFile, EPISODES_PER_FILE } from "./ui/bundle-file.ts";
import { analysisFor } from "./worker.ts";

/** A bundled run's list: every episode's row, its value of each filter, and its sort keys. */
export interface BundledList {
  rows: (EpisodeRow & { f: Record<string, string>; s: Record<string, number | null> })[];
}

function pathValue(doc: unknown, path: string): unknown {
  let v: unknown = doc;
  for (const m of path.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[m[1] ?? Number(m[2])];
  }
  return v;
}

function compare(a: unknown, op: string, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return false;
  const x = typeof a === "boolean" ? Number(a) : a;
  const y = typeof b === "boolean" ? Number(b) : b;
  switch (op) {
    case "=":
      return x === y;
    case "!=":
      return x !== y;
    case "<":
      return (x as number) < (y as number);
    case "<=":
      return (x as number) <= (y as number);
    case ">":
      return (x as number) > (y as number);
    default:
      return (x as number) >= (y as number);
  }
}

/** A store condition, read on a trial the way SQL reads it on the row. */
export function holds(c: TrialCondition, t: PagedTrial): boolean {
  if ("column" in c) {
    if (c.column === "agent") return t.agent === c.equals;
    return (c.column === "nonResponse" ? t.nonResponse : t.agentError) === c.equals;
  }
  const doc = c.json === "result" ? t.result : t.task;
  const v = pathValue(doc, c.path);
  if (c.op === "is null") return v === null || v === undefined;
  if (c.op === "is not null") return v !== null && v !== undefined;
  if ("otherPath" in c) return compare(v, c.op, pathValue(doc, c.otherPath));
  return "value" in c ? compare(v, c.op, c.value) : false;
}

function script(key: string, value: unknown): string {
  return `bazaarData(${JSON.stringify(key)}, ${JSON.stringify(value)});\n`;
}

export async function writeBundle(
  data: ViewData,
  runIds: readonly string[],
  dir: string,
  log: (line: string) => void,
): Promise<{ files: number }> {
  mkdirSync(path.join(dir, "assets"), { recursive: true });
  mkdirSync(path.join(dir, "data"), { recursive: true });
  for (const name of ASSETS) copyFileSync(path.join(assetsDir(), name), path.join(dir, "assets", name));
  let files = ASSETS.length;
  const put = (key: string, value: unknown) => {
    writeFileSync(path.join(dir, bundleFile(key)), script(key, data.redactor.value(value)));
    files++;
  };
  const runs = data.runs(true);
  put("runs", runs);
  writeFileSync(
    path.join(dir, "index.html"),
    indexHtml(
      "assets/",
      [],
      `<meta http-equiv="Content-Security-Policy" content="${CSP.replace("; frame-ancestors 'none'", "")}">`,
    ),
  );
  files++;
  const ids = new Set<string>();
  for (const id of runIds) {
    const row = runs.runs.find((r) => r.id === id);
    ids.add(id);
    for (const p of row?.parts ?? []) ids.add(p.runId);
  }
  for (const id of ids) {
    const run = data.summary(id);
    put(`run/${id}`, data.runPage(id));
    const started = Date.now();
    const a = await analysisFor(data.store, id).catch((err: Error) => ({ error: err.message }));
    put(
      `analysis/${id}`,
      "error" in a
        ? { ...emptyAnalysis(), status: "failed", error: a.error }
        : { ...emptyAnalysis(), ...a, status: "ready", tookMs: Date.now() - started },
    );
    if (run.env === "market" && data.store.getRun(id) === undefined) {
      put(`market/${id}`, data.market(id));
      log(`  market ${id}: its rounds`);
      continue;
    }
    const source = data.source(id);
    const list: BundledList = { rows: [] };
    let after = -1;
    let chunk: unknown[] = [];
    let chunkNo = -1;
    const flush = () => {
      if (chunkNo >= 0) put(`episodes/${id}/${chunkNo}`, chunk);
      chunk = [];
    };
    for (;;) {
      const page = trialsAfter(data.store, id, after, 500);
      for (const t of page) {
        after = t.seq;
        const record: TrialRecord = source.record(t);
        const f: Record<string, string> = {};
        for (const facet of source.facets)
          for (const v of facet.values)
            if ((v.conditions ?? []).every((c) => holds(c, t)) && (!v.test || v.test(record))) {
              f[facet.key] = v.value;
              break;
            }
        const s: Record<string, number | null> = {};
        for (const sort of source.sorts) s[sort.key] = sort.value(record);
        list.rows.push({ ...source.row(record), f, s });
        const no = Math.floor(t.seq / EPISODES_PER_FILE);
        if (no !== chunkNo) {
          flush();
          chunkNo = no;
        }
        chunk.push(episodePage(data.store, source.context, t.seq));
      }
      if (page.length < 500) break;
    }
    flush();
    put(`list/${id}`, list);
    log(`  run ${id}: ${list.rows.length.toLocaleString("en-US")} episodes`);
  }
  return { files };
}

function emptyAnalysis() {
  return {
    status: "none",
    trials: 0,
    stale: false,
    progress: null,
    headline: [],
    blocks: [],
    figures: [],
    notes: [],
    error: null,
    tookMs: null,
  };
}
