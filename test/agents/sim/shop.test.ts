import { describe, expect, it } from "vitest";
import { logitProbabilities, SHOP_PRESETS, shopUtility } from "../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { type Agent, emptyUsage, type Observation } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  observeShop,
  type ShopOutcome,
  type ShopTask,
  type ShopTrialRecord,
  type ShopView,
  shopMachine,
  shopTrialRecord,
} from "../../../environments/shop/index.ts";

const tasks = buildShopTasks({ tasks: 60, seed: 21 }, DEFAULT_HOTEL_POOL);

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

async function runAll(name: string, reps = 1): Promise<ShopTrialRecord[]> {
  const agent = SHOP_PRESETS[name]!.make(`sim:${name}`) as Agent<unknown, unknown>;
  const out: ShopTrialRecord[] = [];
  for (let rep = 0; rep < reps; rep++) for (const t of tasks) out.push(await episode(t, agent, rep));
  return out;
}

/** A binomial share within 4.5 standard errors of p. */
function expectShare(hits: number, n: number, p: number): void {
  const se = Math.sqrt((p * (1 - p)) / n);
  expect(Math.abs(hits / n - p), `${hits}/${n} vs ${p}`).toBeLessThan(4.5 * se);
}

describe("simulated shop shoppers", () => {
  it("careful: books an admissible listing or gives up rightly in every family, opening every admissible result, in parallel calls", async () => {
    const rs = await runAll("careful");
    for (const r of rs) {
      expect(r.success).toBe(true);
      const shownAdmissible = r.shown.filter((s) => s.admissible);
      expect(r.shown.every((s) => s.admissible)).toBe(true);
      expect(shownAdmissible.every((s) => s.viewed)).toBe(true);
      if (r.admissibleCount > 0) expect(shownAdmissible).toHaveLength(r.admissibleCount);
      // Two or more results to open are opened in one message: fewer messages than calls.
      if (shownAdmissible.length >= 2) expect(r.turns).toBeLessThan(r.steps);
    }
  });

  it("careful: its booking is a draw from the logit over the admissible listings shown", async () => {
    const task = tasks.find((t) => t.family === "open" && t.admissible.length >= 5)!;
    const agent = SHOP_PRESETS.careful!.make("sim:careful") as Agent<unknown, unknown>;
    const n = 1500;
    const counts = new Map<string, number>();
    let first: ShopTrialRecord | null = null;
    for (let rep = 0; rep < n; rep++) {
      const r = await episode(task, agent, rep);
      first ??= r;
      counts.set(r.booked!.id, (counts.get(r.booked!.id) ?? 0) + 1);
    }
    const set = first!.shown;
    const p = logitProbabilities(
      set.map((s) =>
        shopUtility(SHOP_PRESETS.careful!.params.beta, { ...s, ...s.treatments }, s.rank, s.page),
      ),
    );
    set.forEach((s, i) => {
      expectShare(counts.get(s.id) ?? 0, n, p[i]!);
    });
  });

  it("first-result: never opens a listing and books the first result that looks acceptable", async () => {
    for (const r of await runAll("first-result")) {
      expect(r.shown.some((s) => s.viewed)).toBe(false);
      expect(r.trajectory[0]).toMatchObject({ tool: "search", args: {} });
      if (r.booked) {
        const c = r.request.constraints;
        const first = r.shown.find(
          (s) =>
            s.price <= c.maxPrice! &&
            (c.minStars === null || s.stars >= c.minStars) &&
            (c.areas === null || c.areas.includes(s.area)),
        );
        expect(r.booked.id).toBe(first!.id);
      }
    }
  });

  it("ignores-constraint, invents-ids and lapsing show their behaviour at their set rates", async () => {
    const ignoring = await runAll("ignores-constraint", 3);
    const ignored = ignoring.filter((r) => {
      const a = r.trajectory[0]!.args as Record<string, unknown>;
      const c = r.request.constraints;
      return (
        (c.maxPrice !== null && a.maxPrice === undefined) ||
        (c.minStars !== null && a.minStars === undefined) ||
        (c.amenities.length > 0 && a.amenities === undefined) ||
        (c.areas !== null && a.area === undefined)
      );
    }).length;
    expectShare(ignored, ignoring.length, 0.3);
    expect(ignoring.some((r) => r.booked && !r.booked.admissible)).toBe(true);

    const inventing = await runAll("invents-ids", 3);
    const invalidTurns = inventing.flatMap((r) => {
      const byTurn = new Map<number, boolean[]>();
      for (const t of r.trajectory) byTurn.set(t.turn, [...(byTurn.get(t.turn) ?? []), t.ok]);
      return [...byTurn.values()].map((oks) => oks.length === 1 && !oks[0]);
    });
    expectShare(invalidTurns.filter(Boolean).length, invalidTurns.length, 0.15);
    for (const r of inventing)
      for (const t of r.trajectory)
        if (!t.ok && t.step !== null)
          expect(t.summary).toMatch(/is not among the results you have been shown/);

    const lapsing = await runAll("lapsing", 3);
    const hasty = lapsing.filter((r) => {
      const first = r.trajectory.find((t) => t.tool === "search");
      return first && (first.args as Record<string, unknown>).sort === undefined;
    }).length;
    expectShare(hasty, lapsing.length, 0.3);
  });

  it("decides from the conversation alone as it does from the view (the serve-sim path)", async () => {
    for (const name of Object.keys(SHOP_PRESETS)) {
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
      for (const t of tasks.slice(0, 12)) await episode(t, recorder, 0);
    }
  });
});
