/**
 * Haggling in the shop (issue #26's speed figure): stored negotiating shop episodes per second — the
 * seller-playing haggler against two rule sellers (boulware and linear) on catalogs where every
 * listing takes offers — beside plain shop episodes of the same tasks (the same catalogs with their
 * offers taken away, where the same policy is the careful shopper and books at list price). Both
 * through the whole path (plan → runner → machine → agents → SQLite), alternating in one process,
 * each path's best round counted, so the ratio holds on a shared, noisy machine. A negotiating
 * episode does more (its offers are tool calls, each answered by a seller's turn): the figures say
 * how many calls and seller turns an episode makes, and the cost per call.
 *
 *   npx tsx bench/negotiation.ts [--tasks N] [--replicates N] [--rounds N]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveBargainPlayer } from "../agents/bargain/registry.ts";
import { HAGGLER_PRESETS } from "../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../datasets/hotels/index.ts";
import type { Agent, AgentEntry } from "../environments/kernel/types.ts";
import { executeRun } from "../environments/runner/execute.ts";
import { planRun } from "../environments/runner/plan.ts";
import { negotiatingShopEnvironment } from "../environments/shop/environment.ts";
import {
  buildShopTasks,
  type ShopOutcome,
  type ShopTask,
  shopEnvironment,
} from "../environments/shop/index.ts";
import { Store } from "../environments/store/index.ts";

const args = process.argv.slice(2);
const value = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

const BUYER = "seller-playing-haggler";

/** Open tasks, every listing taking offers, dealt to two sellers. */
function negotiating(tasks: number): ShopTask[] {
  return buildShopTasks(
    { tasks, seed: "bench-offers", families: { open: 1 }, minAdmissible: 4, negotiable: 1, negotiators: 2 },
    DEFAULT_HOTEL_POOL,
  );
}

/** The same tasks without offers: no negotiator on any listing, no offer tool. */
function plain(tasks: readonly ShopTask[]): ShopTask[] {
  return tasks.map((t) => {
    const { offers: _offers, ...rules } = t.rules;
    return {
      ...t,
      rules,
      listings: t.listings.map(({ negotiation: _n, ...l }) => l),
    };
  });
}

function entry(withSellers: boolean): AgentEntry {
  const shopper = HAGGLER_PRESETS[BUYER]!.make(`sim:${BUYER}`);
  const sellers: Record<string, Agent<unknown, unknown>> = withSellers
    ? {
        "seller-1": resolveBargainPlayer("rule:boulware", "seller").agent,
        "seller-2": resolveBargainPlayer("rule:linear", "seller").agent,
      }
    : {};
  return {
    label: `sim:${BUYER}`,
    identity: { bench: BUYER, withSellers },
    players: { shopper: shopper as never, ...sellers },
  };
}

interface Measured {
  episodes: number;
  calls: number;
  offers: number;
  ms: number;
  cpuMs: number;
}

/** design → plan → runner → machine → agents → SQLite, as `bazaar run shop` does it. */
async function fullPath(
  tasks: readonly ShopTask[],
  offers: boolean,
  replicates: number,
  dir: string,
): Promise<Measured> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const plan = planRun({
    env: offers ? negotiatingShopEnvironment : shopEnvironment,
    settings: {},
    tasks,
    agents: [entry(offers)],
    replicates,
    design: { bench: offers ? "offers" : "plain" },
  });
  const store = Store.open(path.join(dir, "bench.db"), { create: true });
  const r = await executeRun(plan, store, { concurrency: 8 });
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  let calls = 0;
  let offerCalls = 0;
  for (const row of store.trialRows(plan.runId)) {
    const o = (row.result as { outcome: ShopOutcome }).outcome;
    calls += o.steps;
    for (const n of o.negotiations ?? []) offerCalls += n.offers.filter((m) => m.side === "buyer").length;
  }
  store.close();
  return { episodes: r.ranNow, calls, offers: offerCalls, ms, cpuMs: (used.user + used.system) / 1000 };
}

export async function benchNegotiation(): Promise<void> {
  const n = value("--tasks", 150);
  const replicates = value("--replicates", 8);
  const rounds = value("--rounds", 3);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-offers-"));
  try {
    const withOffers = negotiating(n);
    const without = plain(withOffers);
    for (const offers of [true, false]) {
      const warm = path.join(dir, `warm-${offers}`);
      mkdirSync(warm);
      await fullPath((offers ? withOffers : without).slice(0, 30), offers, 1, warm);
    }
    const best: Record<"plain" | "offers", Measured | null> = { plain: null, offers: null };
    const keep = (k: keyof typeof best, m: Measured) => {
      const b = best[k];
      if (!b || m.ms < b.ms) best[k] = m;
    };
    for (let r = 0; r < rounds; r++) {
      // Alternating order, so neither path always runs on the warmer (or the busier) machine.
      const order: (keyof typeof best)[] = r % 2 === 0 ? ["plain", "offers"] : ["offers", "plain"];
      for (const k of order) {
        const d = path.join(dir, `${k}-${r}`);
        mkdirSync(d);
        keep(k, await fullPath(k === "offers" ? withOffers : without, k === "offers", replicates, d));
      }
    }
    const p = best.plain!;
    const o = best.offers!;
    const rate = (m: Measured) => (m.episodes / m.ms) * 1000;
    console.log(
      `negotiating shop (${n} tasks × ${replicates}, sim:${BUYER} vs rule:boulware and rule:linear, best of ${rounds}):`,
    );
    console.log(
      `  plain      ${rate(p).toFixed(0)} episodes/s · ${(p.calls / p.episodes).toFixed(1)} calls an episode · ${((p.cpuMs / p.calls) * 1000).toFixed(0)} µs CPU a call`,
    );
    console.log(
      `  with offers ${rate(o).toFixed(0)} episodes/s · ${(o.calls / o.episodes).toFixed(1)} calls (${(o.offers / o.episodes).toFixed(1)} offers, each a seller turn) an episode · ${((o.cpuMs / o.calls) * 1000).toFixed(0)} µs CPU a call`,
    );
    console.log(
      `  ratio: negotiating episodes at ${((rate(o) / rate(p)) * 100).toFixed(0)}% of the plain rate; per call ${((o.cpuMs / o.calls / (p.cpuMs / p.calls)) * 100).toFixed(0)}% of the plain CPU`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNegotiation();
