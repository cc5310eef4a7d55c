/**
 * Catalog-choice throughput: the whole path (design → xstate machine → simulated agent → SQLite
 * store) against a bare loop doing the same choices with neither machine nor store, in one run so
 * the ratio is meaningful on a shared, noisy machine. With --million it also runs 1,000,000 trials
 * in a child process and reports peak RSS at 100k and 1M trials, to show memory stays flat.
 *
 *   npx tsx bench/choice.ts [--replicates N] [--million]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveChoiceAgent } from "../agents/registry.ts";
import { CHOICE_PRESETS, LogitChooser } from "../agents/sim/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../environments/choice/design.ts";
import { choiceEnvironment } from "../environments/choice/environment.ts";
import { parseChoiceAnswer } from "../environments/choice/parse.ts";
import { renderChoiceMessages } from "../environments/choice/prompt.ts";
import { slotLetters } from "../environments/choice/types.ts";
import { createRng } from "../environments/kernel/rng.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

async function fullPath(replicates: number, dir: string): Promise<{ trials: number; ms: number }> {
  const t0 = performance.now();
  const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
  const plan = planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 2 },
    tasks,
    agents: [resolveChoiceAgent("sim:steep")],
    replicates,
    design: { bench: true },
  });
  const store = Store.open(path.join(dir, `bench-${replicates}.db`), { create: true });
  const r = await executeRun(plan, store, { concurrency: 8 });
  store.close();
  return { trials: r.ranNow, ms: performance.now() - t0 };
}

/**
 * The same work without the machine and the store: per trial, seed the agent's stream, render the
 * prompt, let the simulated shopper answer, parse the answer strictly and build the outcome.
 */
function bareLoop(replicates: number): { trials: number; ms: number; checksum: number } {
  const t0 = performance.now();
  const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
  const agent = new LogitChooser("bare", CHOICE_PRESETS.steep!.params!);
  let trials = 0;
  let checksum = 0;
  for (const task of tasks) {
    const letters = slotLetters(task.options.length);
    for (let rep = 0; rep < replicates; rep++) {
      const messages = renderChoiceMessages(task.options, task.variant);
      const acted = agent.act(
        { messages, view: { options: task.options, letters, attempt: 0 } },
        { rng: createRng(`${task.taskId}|${rep}`), trialKey: "", replicate: rep },
      );
      const text = acted.action.type === "reply" ? acted.action.text : "";
      const verdict = parseChoiceAnswer(text, letters, task.variant);
      const outcome = { chosenSlot: verdict.ok ? verdict.slot : null, raw: text, replies: [text] };
      checksum += outcome.chosenSlot ?? 0;
      trials++;
    }
  }
  return { trials, ms: performance.now() - t0, checksum };
}

function millionRun(dir: string): void {
  const script = `
    import path from "node:path";
    import { resolveChoiceAgent } from "./agents/registry.ts";
    import { DEFAULT_HOTEL_POOL } from "./datasets/hotels/index.ts";
    import { buildChoiceTasks } from "./environments/choice/design.ts";
    import { choiceEnvironment } from "./environments/choice/environment.ts";
    import { executeRun } from "./environments/runner/execute.ts";
    import { planRun } from "./environments/runner/plan.ts";
    import { Store } from "./environments/store/index.ts";
    const tasks = buildChoiceTasks({}, DEFAULT_HOTEL_POOL);
    const replicates = Math.ceil(1_000_000 / tasks.length);
    const plan = planRun({ env: choiceEnvironment, settings: { maxReasks: 2 }, tasks,
      agents: [resolveChoiceAgent("sim:steep")], replicates, design: { million: true } });
    const store = Store.open(path.join(${JSON.stringify(dir)}, "million.db"), { create: true });
    const marks = [];
    const t0 = performance.now();
    let next = 100_000;
    await executeRun(plan, store, { concurrency: 8, limit: 1_000_000, onProgress: (p) => {
      if (p.stored >= next) { marks.push([p.stored, process.resourceUsage().maxRSS / 1024]); next += 300_000; }
    } });
    store.close();
    const s = (performance.now() - t0) / 1000;
    console.log(JSON.stringify({ marks, seconds: s, finalRssMb: process.resourceUsage().maxRSS / 1024 }));
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: path.resolve(import.meta.dirname, ".."),
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(out.trim().split("\n").at(-1)!) as {
    marks: [number, number][];
    seconds: number;
    finalRssMb: number;
  };
  console.log(
    `1,000,000-trial run: ${r.seconds.toFixed(1)} s (${Math.round(1e6 / r.seconds).toLocaleString("en-US")} trials/s)`,
  );
  for (const [n, mb] of r.marks)
    console.log(`  peak RSS after ${n.toLocaleString("en-US")} trials: ${mb.toFixed(0)} MB`);
  console.log(`  peak RSS at the end: ${r.finalRssMb.toFixed(0)} MB`);
}

export async function benchChoice(): Promise<void> {
  const replicates = value("--replicates", 6);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-"));
  try {
    bareLoop(1); // warm-up of the JIT for both paths
    await fullPath(1, dir);
    const bare = bareLoop(replicates);
    const full = await fullPath(replicates, dir);
    const rate = (r: { trials: number; ms: number }) => (r.trials * 1000) / r.ms;
    console.log(
      `catalog choice, ${full.trials.toLocaleString("en-US")} trials (sim:steep, ${replicates} replicates of the default design):`,
    );
    console.log(
      `  full path (design → machine → agent → store): ${Math.round(rate(full)).toLocaleString("en-US")} stored trials/s`,
    );
    console.log(
      `  bare loop (prompt, agent, parse; no machine, no store): ${Math.round(rate(bare)).toLocaleString("en-US")} trials/s`,
    );
    console.log(`  ratio full/bare: ${((100 * rate(full)) / rate(bare)).toFixed(1)}%`);
    if (flag("--million")) millionRun(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchChoice();
