/**
 * Two runs, or two agents, on the same tasks side by side: each side's episodes keyed by task and
 * replicate, a few per-episode measures paired on the tasks both played and compared by the shop
 * analysis' paired difference (task-clustered, bootstrap-t interval), and the tasks where the two
 * sides' outcomes differ. Run in the viewer's worker thread (worker.ts).
 */
import { type PairedSums, pairedDifference } from "../../analysis/shop/paired-difference.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { createRng } from "../../environments/kernel/rng.ts";
import { requireRun, trialRecords } from "../../environments/runner/records.ts";
import type { Store } from "../../environments/store/index.ts";
import { adapterFor } from "../tui/records/index.ts";
import type { TrialRecord } from "../tui/records/types.ts";
import type { ComparePage, CompareSide, EpisodeRow } from "./api-types.ts";

export interface CompareJob {
  a: { run: string; agent: string | null };
  b: { run: string; agent: string | null };
}

interface Measure {
  name: string;
  unit: "share" | "dollars" | "number";
  value(r: TrialRecord): number | null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const flag = (b: boolean): number => (b ? 1 : 0);

/** The measures compared per environment (each a number per episode, or none). */
export function measuresOf(env: string): Measure[] {
  switch (env) {
    case "choice":
      return [
        {
          name: "booked the first-shown option",
          unit: "share",
          value: (r) => (num(r.chosenSlot) === null ? null : flag(r.chosenSlot === 0)),
        },
        {
          name: "booked price",
          unit: "dollars",
          value: (r) => {
            const s = num(r.chosenSlot);
            return s === null ? null : num((r.options as { price?: unknown }[] | undefined)?.[s]?.price);
          },
        },
        { name: "non-response", unit: "share", value: (r) => flag(num(r.chosenSlot) === null) },
      ];
    case "cue":
      return [
        {
          name: "chose the cued product",
          unit: "share",
          value: (r) => (typeof r.choseCued === "boolean" ? flag(r.choseCued) : null),
        },
        { name: "non-response", unit: "share", value: (r) => flag(num(r.chosenSlot) === null) },
      ];
    case "bargain":
      return [
        {
          name: "deal",
          unit: "share",
          value: (r) => (r.outcome === "invalid" ? null : flag(r.outcome === "deal")),
        },
        { name: "deal price", unit: "dollars", value: (r) => num(r.dealPrice) },
        { name: "turns", unit: "number", value: (r) => num(r.turns) },
        { name: "invalid", unit: "share", value: (r) => flag(r.outcome === "invalid") },
      ];
    case "elicit":
      return [
        { name: "number given", unit: "dollars", value: (r) => num(r.value) },
        { name: "no finite number", unit: "share", value: (r) => flag(num(r.value) === null) },
      ];
    case "shop":
      return [
        { name: "success", unit: "share", value: (r) => flag(r.success === true) },
        { name: "tool calls", unit: "number", value: (r) => num(r.steps) },
        {
          name: "price paid",
          unit: "dollars",
          value: (r) => num(r.paid) ?? num((r.booked as { price?: unknown } | null)?.price),
        },
        { name: "client's regret", unit: "dollars", value: (r) => num(r.regret) },
      ];
    default:
      return [];
  }
}

/** The task an episode played: its task id (scenario, query), whatever the agent. */
export function taskOf(r: TrialRecord): string {
  const id = r.taskId ?? r.scenarioId ?? r.queryId ?? r.trialKey;
  return String(id);
}

interface Side {
  side: CompareSide;
  episodes: Map<string, { row: EpisodeRow; task: string; values: (number | null)[] }>;
}

function readSide(
  store: Store,
  s: { run: string; agent: string | null },
  measures: Measure[],
  progress: (read: number) => void,
): Side {
  const run = requireRun(store, s.run);
  if (s.agent !== null && !run.agents.includes(s.agent))
    throw new UserError(`run ${s.run} has no agent "${s.agent}"`, `its agents: ${run.agents.join(", ")}`);
  const adapter = adapterFor(run.env);
  const episodes: Side["episodes"] = new Map();
  for (const r of trialRecords(store, s.run)) {
    progress(1);
    if (s.agent !== null && r.agent !== s.agent) continue;
    const task = taskOf(r);
    const summary = adapter.summary(r);
    episodes.set(`${task}#${String(r.replicate ?? 0)}`, {
      task,
      row: {
        seq: summary.seq,
        agent: summary.agent,
        outcome: summary.outcome,
        detail: summary.detail,
        nonResponse: summary.nonResponse,
        error: summary.error,
      },
      values: measures.map((m) => m.value(r)),
    });
  }
  return {
    side: { run: s.run, agent: s.agent, env: run.env, label: s.agent ? `${s.agent} (${s.run})` : s.run },
    episodes,
  };
}

/** Differing tasks kept for the pages (a comparison of two large runs lists the first of them). */
export const MAX_DIFFERING = 5_000;

export function compareSides(
  store: Store,
  job: CompareJob,
  progress: (read: number, total: number) => void = () => {},
): Omit<ComparePage, "next" | "prev" | "status" | "progress"> {
  const ra = requireRun(store, job.a.run);
  const rb = requireRun(store, job.b.run);
  if (ra.env !== rb.env)
    throw new UserError(
      `run ${ra.id} is a ${ra.env} run and ${rb.id} a ${rb.env} run: compare runs of one environment`,
    );
  const measures = measuresOf(ra.env);
  const total = ra.done + (job.a.run === job.b.run ? 0 : rb.done);
  let read = 0;
  let said = 0;
  const tick = () => {
    read++;
    if (read - said >= 1_000) {
      said = read;
      progress(read, total);
    }
  };
  const a = readSide(store, job.a, measures, tick);
  const b = readSide(store, job.b, measures, tick);
  const paired = [...a.episodes.keys()].filter((k) => b.episodes.has(k));
  const metrics = measures.map((m, i) => {
    const clusters = new Map<string, PairedSums>();
    for (const k of paired) {
      const x = a.episodes.get(k)!;
      const y = b.episodes.get(k)!;
      const va = x.values[i];
      const vb = y.values[i];
      if (va === null || va === undefined || vb === null || vb === undefined) continue;
      const c = clusters.get(x.task) ?? { n: 0, t: 0, c: 0 };
      c.n++;
      c.t += vb;
      c.c += va;
      clusters.set(x.task, c);
    }
    const d = pairedDifference([...clusters.values()], {
      draws: 999,
      level: 0.95,
      rng: createRng(`bazaar-view-compare:${m.name}`),
    });
    return {
      name: m.name,
      a: d.control,
      b: d.treatment,
      difference: d.difference,
      low: d.interval?.low ?? null,
      high: d.interval?.high ?? null,
      n: d.units,
      unit: m.unit,
    };
  });
  const differ: ComparePage["differ"] = [];
  let differing = 0;
  for (const k of paired) {
    const x = a.episodes.get(k)!;
    const y = b.episodes.get(k)!;
    if (x.row.outcome === y.row.outcome) continue;
    differing++;
    if (differ.length < MAX_DIFFERING) differ.push({ task: k, a: x.row, b: y.row });
  }
  return {
    a: a.side,
    b: b.side,
    paired: paired.length,
    onlyA: a.episodes.size - paired.length,
    onlyB: [...b.episodes.keys()].filter((k) => !a.episodes.has(k)).length,
    metrics,
    differ,
    differing,
  };
}
