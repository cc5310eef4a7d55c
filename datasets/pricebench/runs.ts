/** A release's responses as ordinary catalog-choice runs: one run per model, trials as the runner stores them. */

import type { ChoiceOutcome } from "../../environments/choice/machine.ts";
import type { ChoiceTask } from "../../environments/choice/types.ts";
import { sha256Hex, stableHash } from "../../environments/kernel/hash.ts";
import { emptyUsage } from "../../environments/kernel/types.ts";
import type { RunInfo, StoredTrial } from "../../environments/store/index.ts";
import { priceBenchModel } from "./models.ts";
import type { PriceBenchRelease, ResponseFile } from "./release.ts";
import { describeOddRows, oddRowLetters, SWAP_OFFSET } from "./responses.ts";
import type { PriceBenchTask } from "./tasks.ts";

/** Marks a run as imported from PriceBench, so `analyze` also reports the reference's convention. */
export const PRICEBENCH_SOURCE = "pricebench";

export interface ImportedRun {
  run: RunInfo;
  model: string;
  agent: string;
  tasks: ChoiceTask[];
  trials: StoredTrial[];
  /** Answers per block and order, non-responses, and tasks of the release left unanswered. */
  summary: {
    responses: number;
    nonResponses: number;
    byFile: { file: string; responses: number; nonResponses: number }[];
    unanswered: { binary: number; ternary: number; five: number };
    /** Rows set apart as quirks of the release's files: which file, which rows, and why. */
    oddRows: OddRowSummary[];
  };
}

/**
 * Rows of one response file set apart as a quirk (they answer no task), as the run's config keeps
 * them: enough to report them and for the reference convention's triage to count them as the
 * release's does (its first-shown rate reads every A and B of a file), never as answers to a task.
 */
export interface OddRowSummary {
  file: string;
  /** Whether the file is a swapped-order file (there "B" was shown first). */
  swap: boolean;
  count: number;
  /** "3,600 rows (rows 1–3,600, ids 1,001–4,600)". */
  rows: string;
  why: string;
  /** Choice letters among them ("" for a blank). */
  letters: Record<string, number>;
}

const SET_PREFIX = { binary: "b", ternary: "t", five: "f" } as const;

/**
 * The task as it was displayed: options in original order, or reversed in the swap run ([B, A];
 * [C, B, A]; [E, D, C, B, A]) — the reference's swap.
 */
export function displayedTask(task: PriceBenchTask, swap: boolean, block: "main" | "five"): ChoiceTask {
  const k = task.options.length;
  const order = Array.from({ length: k }, (_, s) => (swap ? k - 1 - s : s));
  const id = swap ? task.id + SWAP_OFFSET : task.id;
  return {
    env: "choice",
    taskId: block === "five" ? `5opt-${id}` : String(id),
    kind: task.kind,
    setId: `${SET_PREFIX[task.kind]}${task.groupId}`,
    appearance: task.rep,
    order,
    options: order.map((i) => task.options[i]!),
    variant: "plain",
  };
}

/**
 * The outcome of one answer. `choice` names the ORIGINAL label in both runs, so the display slot
 * is where that label was shown. A blank or impossible choice is a non-response kept with its text.
 */
export function outcomeOf(task: ChoiceTask, choice: string, raw: string): ChoiceOutcome {
  const label = choice.trim().toUpperCase();
  const index = /^[A-Z]$/.test(label) ? label.charCodeAt(0) - 65 : -1;
  const slot = index >= 0 ? task.order.indexOf(index) : -1;
  if (slot >= 0) return { chosenSlot: slot, nonResponse: null, raw, replies: [raw] };
  const reason =
    label === "" ? "empty" : index >= 0 ? `out of range: ${label}` : `not a choice letter: ${label}`;
  return { chosenSlot: null, nonResponse: { reason, raw }, raw, replies: [raw] };
}

export function priceBenchRunId(model: string): string {
  return `pricebench-${model}`;
}

export function priceBenchAgent(model: string): string {
  return `pricebench:${model}`;
}

function fileOrder(f: ResponseFile): number {
  return (f.block === "five" ? 2 : 0) + (f.swap ? 1 : 0);
}

export function importedRuns(release: PriceBenchRelease): ImportedRun[] {
  const main = new Map(release.tasks.map((t) => [t.id, t]));
  const five = new Map((release.fiveTasks ?? []).map((t) => [t.id, t]));
  const inputHash = new Map(release.inputs.map((i) => [i.name, sha256Hex(i.text).slice(0, 16)]));
  // Every model answered the same tasks: build and hash each displayed task once.
  const shown = new Map<string, { task: ChoiceTask; hash: string }>();
  const display = (block: "main" | "five", swap: boolean, id: number) => {
    const key = `${block}|${swap}|${id}`;
    let entry = shown.get(key);
    if (!entry) {
      const task = displayedTask((block === "five" ? five : main).get(id)!, swap, block);
      entry = { task, hash: stableHash(task, 32) };
      shown.set(key, entry);
    }
    return entry;
  };
  const runs: ImportedRun[] = [];
  for (const [model, files] of release.models) {
    const agent = priceBenchAgent(model);
    const runId = priceBenchRunId(model);
    const identity = { source: PRICEBENCH_SOURCE, model };
    const agentHash = stableHash(identity, 32);
    const tasks: ChoiceTask[] = [];
    const trials: StoredTrial[] = [];
    const byFile: ImportedRun["summary"]["byFile"] = [];
    const answered = { main: new Set<string>(), five: new Set<string>() };
    let nonResponses = 0;
    for (const f of [...files].sort((a, b) => fileOrder(a) - fileOrder(b))) {
      let fileNon = 0;
      for (const r of [...f.rows].sort((a, b) => a.taskId - b.taskId)) {
        const { task, hash } = display(f.block, f.swap, r.taskId);
        const outcome = outcomeOf(task, r.choice, r.raw);
        const seq = trials.length;
        const trialKey = sha256Hex(`${hash}|${agentHash}|0`).slice(0, 24);
        const nonResponse = outcome.chosenSlot === null;
        if (nonResponse) fileNon++;
        answered[f.block].add(`${r.taskId}|${f.swap}`);
        tasks.push(task);
        trials.push({
          runId,
          seq,
          trialKey,
          agent,
          taskIndex: seq,
          replicate: 0,
          nonResponse,
          agentError: false,
          resultJson: JSON.stringify({ outcome, usage: emptyUsage() }),
        });
      }
      nonResponses += fileNon;
      byFile.push({ file: f.name, responses: f.rows.length, nonResponses: fileNon });
    }
    const oddRows: OddRowSummary[] = files.flatMap((f) =>
      f.odd
        ? [
            {
              file: f.name,
              swap: f.swap,
              count: f.odd.rows.length,
              rows: describeOddRows(f.odd),
              why: f.odd.why,
              letters: oddRowLetters(f.odd),
            },
          ]
        : [],
    );
    const known = priceBenchModel(model);
    const unansweredOf = (list: Iterable<PriceBenchTask>, set: Set<string>, kind: string, block: string) => {
      const orders = files.filter((f) => f.block === block).map((f) => f.swap);
      let n = 0;
      for (const t of list)
        for (const swap of orders) if (t.kind === kind && !set.has(`${t.id}|${swap}`)) n++;
      return n;
    };
    runs.push({
      run: {
        id: runId,
        env: "choice",
        total: trials.length,
        config: {
          env: "choice",
          source: PRICEBENCH_SOURCE,
          model,
          ...(known ? { displayName: known.name, provider: known.provider } : {}),
          agents: [agent],
          agentIdentities: [identity],
          files: files.map((f) => ({ file: f.name, sha256: inputHash.get(f.name) })),
          release: ["hotel_pool.json", "conjoint_tasks.csv", "tasks_5opt.csv"]
            .filter((n) => inputHash.has(n))
            .map((n) => ({ file: n, sha256: inputHash.get(n) })),
          ...(oddRows.length > 0 ? { oddRows } : {}),
        },
      },
      model,
      agent,
      tasks,
      trials,
      summary: {
        responses: trials.length,
        nonResponses,
        byFile,
        unanswered: {
          binary: unansweredOf(main.values(), answered.main, "binary", "main"),
          ternary: unansweredOf(main.values(), answered.main, "ternary", "main"),
          five: unansweredOf(five.values(), answered.five, "five", "five"),
        },
        oddRows,
      },
    });
  }
  return runs;
}

/** What a PriceBench run's config says about its model and its set-apart rows (empty for other runs). */
export function priceBenchRunInfo(config: unknown): {
  displayName?: string;
  provider?: string;
  oddRows: OddRowSummary[];
} {
  if (!isPriceBenchRun(config)) return { oddRows: [] };
  const c = config as { displayName?: unknown; provider?: unknown; oddRows?: unknown };
  const oddRows = Array.isArray(c.oddRows) ? (c.oddRows as OddRowSummary[]) : [];
  return {
    ...(typeof c.displayName === "string" ? { displayName: c.displayName } : {}),
    ...(typeof c.provider === "string" ? { provider: c.provider } : {}),
    oddRows,
  };
}

/** Whether a stored run's config marks it as a PriceBench import. */
export function isPriceBenchRun(config: unknown): boolean {
  return (
    typeof config === "object" &&
    config !== null &&
    (config as { source?: unknown }).source === PRICEBENCH_SOURCE
  );
}
