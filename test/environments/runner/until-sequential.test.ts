/**
 * A run that stops itself (environments/runner/{units,sequential,stop-rules}.ts), with a stopping
 * rule written here — the runner knows no estimator: the units and looks, each agent playing the
 * blocks until its rule says stop, every trial stored once, replay that runs nothing and decides the
 * same, an interrupted block resumed, and the stored rule read back.
 */

import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { resolveChoiceAgent } from "../../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import type { ChoiceTask } from "../../../environments/choice/types.ts";
import { planRun, type RunPlan } from "../../../environments/runner/plan.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { executeSequential, type StopRule } from "../../../environments/runner/sequential.ts";
import {
  clearStopRule,
  type StoredStopRule,
  saveStopRule,
  stopRuleOf,
} from "../../../environments/runner/stop-rules.ts";
import {
  designUnits,
  FIRST_LOOK_UNITS,
  LOOK_GROWTH,
  lookPoints,
  unitOrder,
} from "../../../environments/runner/units.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

const design = { pairs: 40, triples: 10, fives: 2, seed: 4 };
const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);
const unitOf = (t: unknown) => `${(t as ChoiceTask).setId}-${(t as ChoiceTask).appearance}`;

function plan(): RunPlan {
  return planRun({
    env: choiceEnvironment,
    settings: { maxReasks: 1 },
    tasks,
    agents: ["sim:steep", "sim:noisy"].map((a) => resolveChoiceAgent(a)),
    replicates: 2,
    design,
  });
}

/** Binary tasks only; agent 0 stops after look `stopAt`, agent 1 never. */
function rule(stopAt: number, seen: { agent: number; look: number; seqs: number }[] = []): StopRule {
  return {
    units: designUnits(tasks, unitOf),
    orderSeed: "run-1",
    plays: (t) => tasks[t]!.kind === "binary",
    look(agent, seqs, look) {
      seen.push({ agent, look, seqs: seqs.length });
      return agent === 0 && look === stopAt;
    },
  };
}

const records = (store: Store, runId: string) => [...trialRecords(store, runId)];
const open = (name: string) => Store.open(path.join(tempDir(), name), { create: true });

describe("units and looks", () => {
  it("a unit is every task with the same key, in design order", () => {
    const units = designUnits(tasks, unitOf);
    expect(units.flat().sort((a, b) => a - b)).toEqual(tasks.map((_, i) => i));
    for (const u of units) {
      expect(new Set(u.map((i) => unitOf(tasks[i]))).size).toBe(1);
      expect([...u].sort((a, b) => a - b)).toEqual(u);
    }
    // A binary pair's appearance is one unit of its two display orders.
    const binary = units.filter((u) => tasks[u[0]!]!.kind === "binary");
    expect(binary.every((u) => u.length === 2)).toBe(true);
  });

  it("the unit order is a seeded permutation, the same for the same seed", () => {
    const a = unitOrder(200, "run-x");
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(unitOrder(200, "run-x")).toEqual(a);
    expect(unitOrder(200, "run-y")).not.toEqual(a);
  });

  it("looks after the first units, then at least the growth more each time, the last at the end", () => {
    const looks = lookPoints(3000);
    expect(looks[0]).toBe(FIRST_LOOK_UNITS);
    expect(looks.at(-1)).toBe(3000);
    for (let k = 1; k < looks.length - 1; k++) {
      expect(looks[k]!).toBeGreaterThanOrEqual(looks[k - 1]! * LOOK_GROWTH);
      // Never much more than the growth: a target that holds is seen with little overshoot.
      expect(looks[k]!).toBeLessThanOrEqual(Math.ceil(looks[k - 1]! * LOOK_GROWTH));
    }
    expect(lookPoints(7)).toEqual([7]);
    expect(lookPoints(0)).toEqual([]);
    expect(lookPoints(12)).toEqual([10, 12]);
    expect(() => lookPoints(2.5)).toThrow(RangeError);
  });
});

describe("executeSequential", () => {
  it("plays each agent's blocks until its rule stops it; every trial once, only the tasks that play", async () => {
    const p = plan();
    const store = open("a.db");
    const seen: { agent: number; look: number; seqs: number }[] = [];
    const result = await executeSequential(p, store, { concurrency: 4 }, rule(2, seen));
    const played = designUnits(tasks, unitOf).filter((u) => tasks[u[0]!]!.kind === "binary");
    const looks = lookPoints(played.length);
    expect(result.lookCount).toBe(looks.length);
    expect(result.looks).toBe(looks.length);
    const [steep, noisy] = result.agents as [(typeof result.agents)[0], (typeof result.agents)[0]];
    // Two tasks a unit, two replicates: four trials per unit and agent.
    expect(steep).toMatchObject({ stoppedAt: 2, unitsPlayed: looks[2], trialsStored: looks[2]! * 4 });
    expect(noisy).toMatchObject({ stoppedAt: null, unitsPlayed: played.length });
    expect(noisy.trialsStored).toBe(played.length * 4);
    expect(noisy.designTrials).toBe(tasks.length * 2);
    // Agent 0 was looked at 3 times, agent 1 at every look.
    expect(seen.filter((s) => s.agent === 0).map((s) => s.look)).toEqual([0, 1, 2]);
    expect(seen.filter((s) => s.agent === 1)).toHaveLength(looks.length);
    const recs = records(store, p.runId);
    expect(recs).toHaveLength(steep.trialsStored + noisy.trialsStored);
    expect(new Set(recs.map((r) => r.trialKey)).size).toBe(recs.length);
    expect(recs.every((r) => r.kind === "binary")).toBe(true);
    // The agent stopped early holds a random sample of the design's units, not its first tasks.
    const firstUnits = new Set(
      unitOrder(designUnits(tasks, unitOf).length, "run-1")
        .map((u) => designUnits(tasks, unitOf)[u]!)
        .filter((u) => tasks[u[0]!]!.kind === "binary")
        .slice(0, looks[2])
        .map((u) => unitOf(tasks[u[0]!])),
    );
    const steepUnits = new Set(
      recs.filter((r) => r.agent === "sim:steep").map((r) => `${r.cluster}-${r.appearance}`),
    );
    expect(steepUnits).toEqual(firstUnits);
    store.close();
  });

  it("replays stored blocks without running anything and decides the same; a later stop goes on", async () => {
    const p = plan();
    const store = open("b.db");
    const first = await executeSequential(p, store, { concurrency: 4 }, rule(1));
    expect(first.agents[0]!.stoppedAt).toBe(1);
    const again = await executeSequential(p, store, { concurrency: 4 }, rule(1));
    expect(again.ranNow).toBe(0);
    expect(again.agents).toEqual(first.agents);
    // A rule that stops agent 0 later extends it on the same trials: the run one stopping at look 3
    // from the start gives.
    const later = await executeSequential(p, store, { concurrency: 4 }, rule(3));
    const looks = lookPoints(first.agents[0]!.units);
    expect(later.ranNow).toBe((looks[3]! - looks[1]!) * 4);
    const direct = open("c.db");
    await executeSequential(p, direct, { concurrency: 2 }, rule(3));
    expect(records(store, p.runId)).toEqual(records(direct, p.runId));
    store.close();
    direct.close();
  });

  it("a run stopped mid-block makes no decision on part of it, and the same call resumes it", async () => {
    const p = plan();
    const full = open("full.db");
    const whole = await executeSequential(p, full, { concurrency: 3 }, rule(4));
    const store = open("partial.db");
    const stop = new AbortController();
    const looked: { agent: number; look: number; seqs: number }[] = [];
    const cut = await executeSequential(
      p,
      store,
      {
        concurrency: 3,
        signal: stop.signal,
        onProgress: (pr) => {
          if (pr.ranNow >= 70) stop.abort();
        },
      },
      rule(4, looked),
    );
    expect(cut.interrupted).toBe(true);
    // Cut inside the first block (80 trials): no agent was looked at.
    expect(looked).toEqual([]);
    const kept = records(store, p.runId).length;
    expect(kept).toBeGreaterThanOrEqual(70);
    expect(kept).toBeLessThan(records(full, p.runId).length);
    expect(cut.agents[0]!.stoppedAt).toBeNull();
    const resumed = await executeSequential(p, store, { concurrency: 5 }, rule(4));
    expect(resumed.ranNow).toBe(records(full, p.runId).length - kept);
    expect(resumed.agents).toEqual(whole.agents);
    expect(records(store, p.runId)).toEqual(records(full, p.runId));
    full.close();
    store.close();
  });

  it("refuses a limit or seqs of its own", async () => {
    await expect(
      executeSequential(plan(), open("d.db"), { concurrency: 1, limit: 5 }, rule(0)),
    ).rejects.toThrow(RangeError);
  });
});

describe("the stored stopping rule", () => {
  it("is read back as written, replaced by a later one, and null for a run without one", () => {
    const store = open("rules.db");
    const p = plan();
    store.ensureRun({ id: p.runId, env: p.env.name, config: p.config, total: p.total }, p.tasks);
    expect(stopRuleOf(store, p.runId)).toBeNull();
    const rule1: StoredStopRule = {
      targets: [{ estimand: "beta-lnp", halfWidth: 1, written: "beta-lnp±1.0" }],
      level: 0.95,
      method: "fixed-width sequential rule",
      firstLook: FIRST_LOOK_UNITS,
      lookGrowth: LOOK_GROWTH,
    };
    saveStopRule(store, p.runId, rule1);
    expect(stopRuleOf(store, p.runId)).toEqual(rule1);
    const rule2 = { ...rule1, targets: [{ estimand: "beta-lnp", halfWidth: 0.6, written: "beta-lnp+-0.6" }] };
    saveStopRule(store, p.runId, rule2);
    expect(stopRuleOf(store, p.runId)).toEqual(rule2);
    clearStopRule(store, p.runId);
    expect(stopRuleOf(store, p.runId)).toBeNull();
    store.close();
  });

  it("clearing a store that never held a rule makes no table", () => {
    const file = path.join(tempDir(), "plain.db");
    const store = Store.open(file, { create: true });
    clearStopRule(store, "choice-0");
    store.close();
    const db = new Database(file, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    db.close();
    expect(tables.map((t) => t.name)).not.toContain("run_stop_rules");
  });
});
