/**
 * Several runners, one run: runners on the same store share the run's trials through leases — each
 * trial is run (and its agent called) once, whatever the number of runners; a runner whose leases
 * run out (killed) leaves its trials to the others; a stopped runner's are free at once.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import { SHOPPER } from "../../../environments/choice/machine.ts";
import type { Acted, Agent, AgentEntry, Observation } from "../../../environments/kernel/types.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { LEASE_BLOCK, TrialLeases } from "../../../environments/store/leases.ts";
import { tempDir } from "../../helpers/cli.ts";

const design = { pairs: 150, pairAppearances: 1, triples: 0, fives: 0, seed: 9 };
const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);

/** sim:steep, answering after a pause (a model call), counting every call by trial. */
function slowSteep(calls: Map<string, number>, ms: number): AgentEntry {
  const steep = resolveChoiceAgent("sim:steep");
  const inner = steep.players[SHOPPER]!;
  const agent: Agent<unknown, unknown> = {
    id: "slow",
    async act(o: Observation<unknown>, ctx): Promise<Acted<unknown>> {
      calls.set(ctx.trialKey, (calls.get(ctx.trialKey) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, ms));
      return inner.act(o, ctx);
    },
  };
  return { label: "sim:steep", identity: steep.identity, players: { [SHOPPER]: agent } };
}

function planWith(entry: AgentEntry) {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 0 },
    tasks,
    agents: [entry],
    replicates: 1,
    design,
  });
}

async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("trial leases", () => {
  it("two holders never hold one block; a lease that runs out goes to the next to ask; done and end let go", () => {
    const file = path.join(tempDir(), "l.db");
    const a = Store.open(file, { create: true });
    const b = Store.open(file, { create: true });
    const p = planWith(slowSteep(new Map(), 0));
    a.ensureRun({ id: p.runId, env: "choice", config: p.config, total: p.total }, p.tasks);
    // A --limit of two blocks and a half: the last block is cut short.
    const half = LEASE_BLOCK / 2;
    const target = 2 * LEASE_BLOCK + half;
    const la = new TrialLeases(a, p.runId, "a", target, 1_000);
    const lb = new TrialLeases(b, p.runId, "b", target, 1_000);
    expect(la.blocks).toBe(3);
    const t = 1_000_000;
    const c1 = la.claim(t);
    const c2 = lb.claim(t);
    const c3 = la.claim(t);
    expect([c1, c2, c3].map((c) => (c && "seqs" in c ? c.block : null))).toEqual([0, 1, 2]);
    expect(c3 && "seqs" in c3 ? c3.seqs : []).toEqual(
      Array.from({ length: half }, (_, i) => 2 * LEASE_BLOCK + i),
    );
    // Everything is held: b waits on a's two blocks, the first lease running out at t + 1 s.
    expect(lb.claim(t + 10)).toEqual({ block: -1, others: 2, nextExpiry: t + 1_000 });
    // a renews one quarter in; the leases now run to t + 1,300.
    la.renew(t + 300);
    expect(lb.claim(t + 1_100)).toMatchObject({ block: -1, nextExpiry: t + 1_300 });
    // a goes silent: its blocks are b's.
    const taken = lb.claim(t + 1_400);
    expect(taken && "seqs" in taken ? taken.block : null).toBe(0);
    // a is through with block 2 (never claims it again), b releases block 1 and goes on: nothing left.
    la.done(2);
    lb.done(1);
    expect(lb.claim(t + 1_400)).toMatchObject({ block: 2 });
    lb.end();
    // Block 1 was let go with no trial of it stored: pending again, a's to take; then a has been
    // through every block.
    expect(la.claim(t + 1_500)).toMatchObject({ block: 1 });
    expect(la.claim(t + 1_500)).toBeNull();
    a.close();
    b.close();
  });

  it("four runners on one store: every trial run once, the run whole, each summary saying who did what", async () => {
    const file = path.join(tempDir(), "four.db");
    const calls = new Map<string, number>();
    const p = planWith(slowSteep(calls, 2));
    const stores = Array.from({ length: 4 }, () => Store.open(file, { create: true }));
    const results = await Promise.all(stores.map((s) => executeRun(p, s, { concurrency: 8 })));
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(p.total);
    expect(results.reduce((a, r) => a + r.ranNow, 0)).toBe(p.total);
    for (const r of results) {
      expect(r.stored).toBe(p.total);
      expect(r.byOthers).toBe(p.total - r.ranNow);
    }
    // Several runners did share it (more than one ran trials), and said so.
    expect(results.filter((r) => r.ranNow > 0).length).toBeGreaterThan(1);
    expect(results.filter((r) => r.ranNow > 0).every((r) => r.otherRunners >= 1)).toBe(true);

    // The same records as one runner alone on a fresh store.
    const alone = Store.open(path.join(tempDir(), "alone.db"), { create: true });
    await executeRun(planWith(slowSteep(new Map(), 0)), alone, { concurrency: 8 });
    const strip = (rs: Record<string, unknown>[]) =>
      rs.map((r) => JSON.stringify({ ...r, usage: undefined })).sort();
    expect(strip([...trialRecords(stores[0]!, p.runId)])).toEqual(strip([...trialRecords(alone, p.runId)]));
    for (const s of stores) s.close();
    alone.close();
  });

  it("a runner that goes silent mid-run: its leases run out and another runner finishes its trials", async () => {
    const file = path.join(tempDir(), "silent.db");
    const calls = new Map<string, number>();
    const p = planWith(slowSteep(calls, 1));
    const ghost = Store.open(file, { create: true });
    ghost.ensureRun({ id: p.runId, env: "choice", config: p.config, total: p.total }, p.tasks);
    // A runner that claimed the first two blocks and then died: its leases run out in 1.5 s.
    const dead = new TrialLeases(ghost, p.runId, "dead-runner", p.total, 1_500);
    dead.claim();
    dead.claim();
    const s = Store.open(file, { create: true });
    const started = Date.now();
    const r = await executeRun(p, s, { concurrency: 8, leaseMs: 1_500 });
    expect(r.stored).toBe(p.total);
    expect(r.ranNow).toBe(p.total);
    expect(calls.size).toBe(p.total);
    // It had to wait for the dead runner's leases to run out before taking its blocks.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    ghost.close();
    s.close();
  });

  it("a stopped runner lets go of its blocks at once, and the other finishes without re-running what it stored", async () => {
    const file = path.join(tempDir(), "stop.db");
    const calls = new Map<string, number>();
    const p = planWith(slowSteep(calls, 3));
    const sa = Store.open(file, { create: true });
    const sb = Store.open(file, { create: true });
    const stop = new AbortController();
    const a = executeRun(p, sa, { concurrency: 4, signal: stop.signal, flushMs: 20 });
    await until(() => sa.doneSeqs(p.runId, p.total).some((x) => x === 1));
    stop.abort();
    const ra = await a;
    expect(ra.interrupted).toBe(true);
    const storedByA = [...trialRecords(sa, p.runId)].map((r) => String(r.trialKey));
    expect(storedByA.length).toBe(ra.ranNow);
    // With a one-hour lease, only letting go at the stop lets b run a's blocks now.
    const rb = await executeRun(p, sb, { concurrency: 4, leaseMs: 3_600_000 });
    expect(rb.stored).toBe(p.total);
    expect(ra.ranNow + rb.ranNow).toBe(p.total);
    // What a stored was never asked again; only the trials its stop cut short (at most its
    // concurrency) were asked twice.
    expect(storedByA.every((k) => calls.get(k) === 1)).toBe(true);
    expect([...calls.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(4);
    sa.close();
    sb.close();
  });
});
