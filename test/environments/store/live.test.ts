/**
 * The live log of a run (environments/store/live.ts) through the runner: fast episodes never touch
 * it; a slow episode's turns appear for another reader while it runs and leave once its trial is
 * stored; a stop keeps where interrupted episodes were; runners say when the run has ended.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import { SHOPPER } from "../../../environments/choice/machine.ts";
import type { Acted, Agent, AgentEntry, Observation } from "../../../environments/kernel/types.ts";
import { type EpisodeListener, executeRun } from "../../../environments/runner/execute.ts";
import { planRun } from "../../../environments/runner/plan.ts";
import { Store } from "../../../environments/store/index.ts";
import { built, liveEpisodes, runIsActive, runnersOf } from "../../../environments/store/live.ts";
import { tempDir } from "../../helpers/cli.ts";

const design = { pairs: 6, pairAppearances: 1, triples: 0, fives: 0, seed: 2 };
const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);

/** sim:steep, but its first answer of each episode is unusable (so there is a re-ask) and the re-ask waits for `gate`. */
function slow(gate: Promise<void>): AgentEntry {
  const steep = resolveChoiceAgent("sim:steep");
  const inner = steep.players[SHOPPER]!;
  const agent: Agent<unknown, unknown> = {
    id: "slow",
    async act(o: Observation<unknown>, ctx): Promise<Acted<unknown>> {
      const attempt = (o.view as { attempt: number }).attempt;
      if (attempt === 0) return { action: { type: "reply", text: "Hmm, let me think." } };
      // Waits for the gate, or gives up on the run's stop as a model call does.
      await new Promise<void>((resolve, reject) => {
        gate.then(resolve);
        ctx.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
      return inner.act(o, ctx);
    },
  };
  return { label: "sim:slow", identity: { slow: true }, players: { [SHOPPER]: agent } };
}

function plan(entry: AgentEntry) {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 2 },
    tasks,
    agents: [entry],
    replicates: 1,
    design,
  });
}

async function until<T>(f: () => T, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = f();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the live log", () => {
  it("fast episodes never touch it; the runner's row says the run finished", async () => {
    const file = path.join(tempDir(), "s.db");
    const store = Store.open(file, { create: true });
    const p = plan(resolveChoiceAgent("sim:steep"));
    await executeRun(p, store, { concurrency: 4 });
    expect(liveEpisodes(store, p.runId)).toEqual([]);
    const runners = runnersOf(store, p.runId);
    expect(runners).toHaveLength(1);
    expect(runners[0]).toMatchObject({ status: "finished", pid: process.pid });
    expect(runIsActive(runners)).toBe(false);
    store.close();
  });

  it("a slow episode's turns are there for another reader while it runs, and gone once stored", async () => {
    const file = path.join(tempDir(), "s.db");
    const store = Store.open(file, { create: true });
    const reader = Store.open(file, { create: false, readonly: true });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const p = plan(slow(gate));
    const events: string[] = [];
    const listener: EpisodeListener = {
      started: (e) => events.push(`start ${e.seq}`),
      turn: (seq, t) => events.push(`turn ${seq}.${built(t).turn}`),
      ended: (seq, how) => events.push(`end ${seq} ${how}`),
    };
    const running = executeRun(p, store, { concurrency: 3, flushMs: 50, onEpisode: listener });
    // Three episodes in flight, each past its first (unusable) answer and waiting on the re-ask.
    const live = await until(
      () => liveEpisodes(reader, p.runId),
      (l) => l.length === 3,
    );
    expect(live.map((e) => e.seq).sort()).toEqual([0, 1, 2]);
    for (const e of live) {
      expect(e.agent).toBe("sim:slow");
      expect(e.turns).toEqual([
        expect.objectContaining({
          turn: 1,
          role: SHOPPER,
          action: { type: "reply", text: "Hmm, let me think." },
        }),
      ]);
      expect(e.turns[0]!.summary).toMatch(/\S/);
    }
    expect(runIsActive(runnersOf(reader, p.runId))).toBe(true);
    release();
    await running;
    expect(liveEpisodes(reader, p.runId)).toEqual([]);
    expect(events.filter((e) => e.startsWith("start"))).toHaveLength(tasks.length);
    expect(events.filter((e) => e.endsWith("stored"))).toHaveLength(tasks.length);
    expect(events).toContain("turn 0.2");
    expect(runIsActive(runnersOf(reader, p.runId))).toBe(false);
    reader.close();
    store.close();
  });

  it("a stop keeps where each interrupted episode was; the re-run replaces it", async () => {
    const file = path.join(tempDir(), "s.db");
    const store = Store.open(file, { create: true });
    const never = new Promise<void>(() => {});
    const p = plan(slow(never));
    const controller = new AbortController();
    const running = executeRun(p, store, { concurrency: 2, flushMs: 50, signal: controller.signal });
    await until(
      () => liveEpisodes(store, p.runId).length,
      (n) => n === 2,
    );
    controller.abort();
    // The agents give up on the stop: their trials are not stored.
    const r = await running;
    expect(r.interrupted).toBe(true);
    const kept = liveEpisodes(store, p.runId);
    expect(kept.map((e) => [e.seq, e.turns.length])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(runnersOf(store, p.runId).at(-1)).toMatchObject({ status: "interrupted" });
    // Running again (to the end this time): the interrupted episodes run anew and leave the log.
    const again = plan(slow(Promise.resolve()));
    expect(again.runId).toBe(p.runId);
    const done = await executeRun(again, store, { concurrency: 2 });
    expect(done.stored).toBe(tasks.length);
    expect(liveEpisodes(store, p.runId)).toEqual([]);
    store.close();
  });
});
