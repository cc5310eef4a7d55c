/**
 * Bargaining throughput: 6-turn rule-vs-rule sessions (a linear buyer against a hardliner seller,
 * who never meet, so every session runs all 12 messages to the turn limit) through the whole path —
 * xstate machine, metered agents, runner and SQLite store — against a bare loop of the same two
 * policies with neither machine nor store, in one run so the ratio is meaningful on a shared, noisy
 * machine. The middle figure (machine, no store) shows where the time goes.
 *
 *   npx tsx bench/bargain.ts [--replicates N] [--rounds N]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveBargainPairs } from "../agents/bargain/registry.ts";
import { TimeDependentNegotiator } from "../agents/bargain/tactics.ts";
import { defaultPriceHistoryCatalog } from "../datasets/price-history/index.ts";
import type { BargainMoveAction } from "../environments/bargain/actions.ts";
import { bargainEnvironment } from "../environments/bargain/environment.ts";
import { buildBargainTasks } from "../environments/bargain/scenarios.ts";
import type {
  BargainMove,
  BargainRole,
  BargainTask,
  BargainView,
  TranscriptEntry,
} from "../environments/bargain/types.ts";
import { runEpisode } from "../environments/kernel/episode.ts";
import { ceilCents, floorCents, samePrice } from "../environments/kernel/money.ts";
import { createRng } from "../environments/kernel/rng.ts";
import type { Acted, Agent } from "../environments/kernel/types.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const value = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

const BUYER_SPEC = "rule:linear";
const SELLER_SPEC = "rule:hardliner";

function tasks(): BargainTask[] {
  return buildBargainTasks({ scenarios: "all", maxTurns: 6 }, defaultPriceHistoryCatalog());
}

interface Timing {
  sessions: number;
  messages: number;
  ms: number;
}

async function fullPath(replicates: number, dir: string): Promise<Timing> {
  const t0 = performance.now();
  const plan = planRun({
    env: bargainEnvironment,
    settings: {},
    tasks: tasks(),
    agents: resolveBargainPairs([BUYER_SPEC], [SELLER_SPEC]),
    replicates,
    design: { bench: true },
  });
  const store = Store.open(path.join(dir, `bench-${replicates}.db`), { create: true });
  const r = await executeRun(plan, store, { concurrency: 8 });
  store.close();
  return { sessions: r.ranNow, messages: r.ranNow * 12, ms: performance.now() - t0 };
}

/** The machine and the metered agents through the episode driver, but no runner and no store. */
async function machineOnly(replicates: number): Promise<Timing> {
  const t0 = performance.now();
  const [pair] = resolveBargainPairs([BUYER_SPEC], [SELLER_SPEC]);
  let sessions = 0;
  let messages = 0;
  for (const task of tasks()) {
    for (let rep = 0; rep < replicates; rep++) {
      const r = await runEpisode<{ transcript: unknown[] }>(
        bargainEnvironment.machine,
        { task },
        pair!.players,
        {
          rng: createRng(`${task.taskId}|${rep}`),
          trialKey: "",
          replicate: rep,
        },
      );
      messages += r.output.transcript.length;
      sessions++;
    }
  }
  return { sessions, messages, ms: performance.now() - t0 };
}

/**
 * The same policies without machine or store: per session, seed a stream, let the two negotiators
 * alternate on a history they share, apply the rules (a deal only at an offered price, quit, turn
 * limit) and keep a transcript.
 */
function bareLoop(replicates: number): Timing & { checksum: number } {
  const t0 = performance.now();
  const buyer: Agent<BargainView, BargainMoveAction> = new TimeDependentNegotiator("bare-buyer", 1);
  const seller: Agent<BargainView, BargainMoveAction> = new TimeDependentNegotiator("bare-seller", 0);
  let sessions = 0;
  let messages = 0;
  let checksum = 0;
  for (const task of tasks()) {
    const base = {
      codename: task.scenarioId,
      title: task.product.title,
      description: task.product.description,
      listedPrice: task.listedPrice,
      maxTurns: task.maxTurns,
    };
    const limits: Record<BargainRole, number> = {
      buyer: floorCents(task.budget),
      seller: ceilCents(task.cost),
    };
    for (let rep = 0; rep < replicates; rep++) {
      const ctx = { rng: createRng(`${task.taskId}|${rep}`), trialKey: "", replicate: rep };
      let history: BargainMove[] = [];
      const transcript: TranscriptEntry[] = [];
      let ended = false;
      for (let turn = 1; turn <= task.maxTurns && !ended; turn++) {
        for (const role of ["buyer", "seller"] as const) {
          const view: BargainView = { ...base, role, limit: limits[role], history };
          const { action } = (role === "buyer" ? buyer : seller).act(
            { messages: [], view },
            ctx,
          ) as Acted<BargainMoveAction>;
          const price = "price" in action ? action.price : null;
          transcript.push({ turn, role, action: action.type, price, talk: action.talk ?? "" });
          if (action.type === "deal") {
            ended = true;
            checksum += history.some(
              (m) => m.role !== role && m.type === "offer" && samePrice(m.price!, price!),
            )
              ? 1
              : 0;
            break;
          }
          if (action.type === "quit") {
            ended = true;
            break;
          }
          history = [...history, { role, type: action.type, price, talk: action.talk ?? "" }];
        }
      }
      messages += transcript.length;
      sessions++;
    }
  }
  return { sessions, messages, ms: performance.now() - t0, checksum };
}

/** Wall-clock and CPU time of one measured call. */
async function timed<T extends Timing>(fn: () => T | Promise<T>): Promise<T & { cpuMs: number }> {
  const cpu = process.cpuUsage();
  const r = await fn();
  const used = process.cpuUsage(cpu);
  return { ...r, cpuMs: (used.user + used.system) / 1000 };
}

export async function benchBargain(): Promise<void> {
  const replicates = value("--replicates", 20);
  const rounds = value("--rounds", 3);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-bargain-"));
  try {
    // Warm-up of the JIT for every path.
    bareLoop(1);
    await machineOnly(1);
    await fullPath(1, dir);
    // Rounds alternate the three paths; each path's best round counts (least disturbed by a busy machine).
    type Measured = Timing & { cpuMs: number };
    const best: Record<"bare" | "machine" | "full", Measured | null> = {
      bare: null,
      machine: null,
      full: null,
    };
    const keep = (k: keyof typeof best, m: Measured) => {
      const b = best[k];
      if (!b || m.ms < b.ms) best[k] = m;
    };
    for (let r = 0; r < rounds; r++) {
      keep("bare", await timed(() => bareLoop(replicates)));
      keep("machine", await timed(() => machineOnly(replicates)));
      const roundDir = path.join(dir, `round-${r}`);
      mkdirSync(roundDir);
      keep("full", await timed(() => fullPath(replicates, roundDir)));
    }
    const { bare, machine, full } = best as Record<keyof typeof best, Measured>;
    const rate = (t: Timing) => (t.sessions * 1000) / t.ms;
    const cpuRate = (t: Measured) => (t.sessions * 1000) / t.cpuMs;
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    console.log(
      `bargaining, ${n(full.sessions)} sessions of 6 turns (${BUYER_SPEC} buyer vs ${SELLER_SPEC} seller, 12 messages each, ${replicates} replicates of 300 scenarios; best of ${rounds} rounds):`,
    );
    const line = (label: string, t: Measured, unit: string) =>
      console.log(
        `  ${label.padEnd(58)} ${n(rate(t)).padStart(7)} ${unit}/s wall · ${n(cpuRate(t)).padStart(7)} per CPU-second`,
      );
    line("full path (machine → metered agents → runner → SQLite store)", full, "stored sessions");
    line("machine only (episode driver, no runner, no store)", machine, "sessions");
    line("bare loop (same policies and rules, no machine, no store)", bare, "sessions");
    console.log(
      `  ratio full/bare: ${((100 * rate(full)) / rate(bare)).toFixed(1)}% wall, ${((100 * cpuRate(full)) / cpuRate(bare)).toFixed(1)}% CPU`,
    );
    if (machine.messages !== bare.messages)
      console.log(`  (message counts differ: ${machine.messages} vs ${bare.messages})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBargain();
