/**
 * Simulated shoppers with known susceptibility to description arms: each shows its truth at its set
 * rates on battery designs — the persuadable shopper's booking is a draw from its logit with the
 * arm β, the injectable one follows the first injecting listing it was shown at `follow[arm]`, the
 * credulous one books the first false claim of a required amenity at `credulity` — while the
 * careful shopper does exactly what it does on neutral descriptions. All read arms off the text, so
 * they decide from the conversation alone as they do in process (the serve-sim path).
 */
import { describe, expect, it } from "vitest";
import {
  CAREFUL_BETA,
  CREDULOUS_CREDULITY,
  INJECTABLE_FOLLOW,
  logitProbabilities,
  PERSUADABLE_BETA,
  SHOP_PRESETS,
  shopUtility,
} from "../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { type Agent, emptyUsage, type Observation } from "../../../environments/kernel/types.ts";
import {
  ARM_COVARIATES,
  buildShopTasks,
  isAdmissible,
  observeShop,
  type ShopDesignInput,
  type ShopOutcome,
  type ShopTask,
  type ShopTrialRecord,
  type ShopView,
  shopMachine,
  shopTrialRecord,
} from "../../../environments/shop/index.ts";

async function episode(
  task: ShopTask,
  agent: Agent<unknown, unknown>,
  rep: number,
): Promise<ShopTrialRecord> {
  const r = await runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper: agent },
    { rng: createRng(`${task.taskId}/${rep}`), trialKey: `${task.taskId}/${rep}`, replicate: rep },
  );
  return shopTrialRecord({
    run: "r",
    trialKey: "k",
    seq: 0,
    agent: agent.id,
    replicate: rep,
    task,
    outcome: r.output,
    usage: emptyUsage(),
  });
}

async function runAll(name: string, tasks: readonly ShopTask[], reps = 1): Promise<ShopTrialRecord[]> {
  const agent = SHOP_PRESETS[name]!.make(`sim:${name}`) as Agent<unknown, unknown>;
  const out: ShopTrialRecord[] = [];
  for (let rep = 0; rep < reps; rep++) for (const t of tasks) out.push(await episode(t, agent, rep));
  return out;
}

function design(extra: Partial<ShopDesignInput>, tasks = 120, seed = 41): ShopTask[] {
  return buildShopTasks({ tasks, seed, descriptions: "battery", ...extra }, DEFAULT_HOTEL_POOL);
}

/** A binomial share within 4.5 standard errors of p. */
function expectShare(hits: number, n: number, p: number, what: string): void {
  const se = Math.sqrt((p * (1 - p)) / n);
  expect(Math.abs(hits / n - p), `${what}: ${hits}/${n} vs ${p}`).toBeLessThan(4.5 * se);
}

describe("simulated shoppers and descriptions", () => {
  it("careful: descriptions move it not at all (arm β 0): the same episodes as on neutral descriptions", async () => {
    for (const a of ARM_COVARIATES) expect(CAREFUL_BETA[a]).toBe(0);
    const battery = design({}, 60);
    const neutral = buildShopTasks({ tasks: 60, seed: 41 }, DEFAULT_HOTEL_POOL);
    const [b, n] = [await runAll("careful", battery), await runAll("careful", neutral)];
    b.forEach((r, i) => {
      expect(r.success).toBe(true);
      expect(r.trajectory).toEqual(n[i]!.trajectory);
    });
  });

  it("persuadable: its booking is a draw from the logit over the admissible listings shown, arm β included", async () => {
    const tasks = design(
      { arms: ["social-proof", "authority", "urgency", "loss-aversion"], armRate: 0.6 },
      200,
    );
    const task = tasks
      .filter((t) => t.family === "open" && t.admissible.length >= 5)
      .find((t) => {
        const adm = t.listings.filter((l) => t.admissible.includes(l.id));
        return new Set(adm.map((l) => l.description.arm)).size >= 3;
      })!;
    expect(task).toBeDefined();
    const agent = SHOP_PRESETS.persuadable!.make("sim:persuadable") as Agent<unknown, unknown>;
    const n = 1500;
    const counts = new Map<string, number>();
    let first: ShopTrialRecord | null = null;
    for (let rep = 0; rep < n; rep++) {
      const r = await episode(task, agent, rep);
      first ??= r;
      counts.set(r.booked!.id, (counts.get(r.booked!.id) ?? 0) + 1);
    }
    const set = first!.shown;
    expect(set.every((s) => s.admissible)).toBe(true);
    const p = logitProbabilities(
      set.map((s) => shopUtility(PERSUADABLE_BETA, { ...s, ...s.treatments }, s.rank, s.page)),
    );
    const flat = logitProbabilities(
      set.map((s) => shopUtility(CAREFUL_BETA, { ...s, ...s.treatments }, s.rank, s.page)),
    );
    set.forEach((s, i) => {
      expectShare(counts.get(s.id) ?? 0, n, p[i]!, `${s.id} (${s.arm})`);
    });
    // The arms matter here: without them the probabilities would differ visibly.
    expect(Math.max(...p.map((x, i) => Math.abs(x - flat[i]!)))).toBeGreaterThan(0.04);
  });

  it("injectable: follows the first injecting listing it was shown at follow[arm], whatever that breaks", async () => {
    const tasks = design({ arms: ["injection-basic", "injection-strong"], armRate: 0.3 }, 200);
    const records = await runAll("injectable", tasks, 3);
    const exposed = { "injection-basic": 0, "injection-strong": 0 };
    const followed = { "injection-basic": 0, "injection-strong": 0 };
    for (const r of records) {
      const first = r.shown.find((s) => s.arm === "injection-basic" || s.arm === "injection-strong");
      if (!first || first.admissible) continue;
      const arm = first.arm as keyof typeof exposed;
      exposed[arm]++;
      if (r.booked?.id === first.id) followed[arm]++;
    }
    for (const arm of ["injection-basic", "injection-strong"] as const) {
      expect(exposed[arm], arm).toBeGreaterThan(100);
      expectShare(followed[arm], exposed[arm], INJECTABLE_FOLLOW[arm], arm);
    }
    // It books nothing else that breaks a constraint, and searches once without filters.
    for (const r of records) {
      if (r.booked && !r.booked.admissible) expect(r.booked.arm).toMatch(/^injection-/);
      expect(
        r.trajectory.some((t) => t.tool === "search" && JSON.stringify(t.args) === '{"sort":"recommended"}'),
      ).toBe(true);
    }
  });

  it("credulous: books the first listing that falsely claims a required amenity (and meets the rest) at its credulity", async () => {
    const tasks = design({ arms: ["false-claim"], armRate: 1 }, 200);
    const records = await runAll("credulous", tasks, 2);
    let exposed = 0;
    let believed = 0;
    for (const r of records) {
      const c = r.request.constraints;
      // Its searches filter price, stars and area: all it is shown meets them, so uptake is the credulity.
      for (const s of r.shown) expect(isAdmissible(s, { ...c, amenities: [] })).toBe(true);
      const first = r.shown.find(
        (s) =>
          s.arm === "false-claim" &&
          s.claims !== null &&
          c.amenities.includes(s.claims) &&
          isAdmissible({ ...s, freeCancellation: true, breakfast: true }, { ...c, amenities: [] }),
      );
      if (!first) {
        if (r.booked) expect(r.booked.admissible).toBe(true);
        continue;
      }
      exposed++;
      if (r.booked?.id === first.id) {
        believed++;
        expect(r.booked.admissible).toBe(false);
        expect(r.constraints?.amenities).toBe(false);
      }
    }
    expect(exposed).toBeGreaterThan(100);
    expectShare(believed, exposed, CREDULOUS_CREDULITY, "believed");
  });

  it("persuadable, injectable and credulous decide from the conversation alone as they do from the view", async () => {
    const tasks = design({}, 16);
    for (const name of ["persuadable", "injectable", "credulous"]) {
      const shopper = SHOP_PRESETS[name]!.make(name);
      const recorder: Agent<unknown, unknown> = {
        id: name,
        act(obs, ctx) {
          const o = obs as Observation<ShopView>;
          const fromView = shopper.decide(o.view, createRng(`${ctx.trialKey}/${o.view.steps}`));
          const read = observeShop(o.messages);
          expect(read?.view).toEqual(o.view);
          const fromText = shopper.decide(read!.view, createRng(`${ctx.trialKey}/${o.view.steps}`));
          expect(fromText).toEqual(fromView);
          return { action: fromView };
        },
      };
      for (const t of tasks) await episode(t, recorder, 0);
    }
  });
});
