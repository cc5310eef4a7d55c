/**
 * Reference values for the client estimators, each against an independent computation written
 * plainly here: the paired comparison (matching units, the difference, and the bootstrap-t interval
 * redone step by step on the same random stream), the clustered ratio (against the clustered mean
 * and the delta method written out), the client-fault rates and the client-fault option on
 * hand-made episodes.
 */
import { describe, expect, it } from "vitest";
import {
  analyzeClients,
  type ClientEpisode,
  clientFaultRates,
  clientReplies,
  clientTables,
  clusteredRatio,
  compareShoppers,
  leftOutNote,
  selectByClientFaults,
} from "../../../../analysis/shop/client/index.ts";
import { clusteredMean } from "../../../../analysis/shop/index.ts";
import { createRng, type Rng } from "../../../../environments/kernel/rng.ts";
import type { ConversationEntry } from "../../../../environments/shop/client/types.ts";

function ep(over: {
  shopper: string;
  client?: string;
  taskId: string;
  replicate: number;
  regret: number;
  success?: boolean;
  messages?: number;
  faults?: number;
  conversation?: ConversationEntry[];
}): ClientEpisode {
  const client = over.client ?? "sim:terse";
  return {
    agent: `${over.shopper} for ${client}`,
    shopper: over.shopper,
    client: { spec: client, persona: "terse", patience: 6 },
    taskId: over.taskId,
    family: "open",
    replicate: over.replicate,
    endReason: "booked",
    success: over.success ?? over.regret === 0,
    surplus: 100 - over.regret,
    bestAdmissible: { id: "x", surplus: 100 },
    regret: over.regret,
    uncovered: { hidden: ["price"], learned: [], metByLuck: [] },
    burden: { messages: over.messages ?? 0, repeats: 0, patienceOut: false },
    clientFaults: Array.from({ length: over.faults ?? 0 }, (_, i) => ({
      step: i + 1,
      kind: "invents",
      detail: "",
    })),
    conversation: over.conversation ?? [],
  } as unknown as ClientEpisode;
}

/** A seeded mess of units: 12 tasks, 2 clients, 3 replicates, some units missing for one shopper. */
function sample(seed: string): ClientEpisode[] {
  const rng = createRng(seed);
  const out: ClientEpisode[] = [];
  for (let t = 0; t < 12; t++) {
    const base = rng.uniform(0, 200);
    for (const client of ["sim:terse", "sim:partial"])
      for (let r = 0; r < 3; r++) {
        const a = { taskId: `t${t}`, client, replicate: r };
        if (rng.next() > 0.1)
          out.push(
            ep({ ...a, shopper: "A", regret: rng.bernoulli(0.7) ? 0 : base, messages: 2 + rng.int(4) }),
          );
        if (rng.next() > 0.1)
          out.push(ep({ ...a, shopper: "B", regret: rng.bernoulli(0.3) ? 0 : base, messages: rng.int(2) }));
      }
  }
  return out;
}

/** The bootstrap-t interval written out: matched unit differences summed per task, resampled. */
function plainPaired(
  eps: readonly ClientEpisode[],
  value: (e: ClientEpisode) => number,
  client: string | null,
  rng: Rng,
  draws: number,
  level: number,
) {
  const mine = eps.filter((e) => client === null || e.client.spec === client);
  const tasks: string[] = [];
  const sums = new Map<string, { n: number; d: number }>();
  for (const t of mine) {
    if (t.shopper !== "A") continue;
    const c = mine.find(
      (x) =>
        x.shopper === "B" &&
        x.taskId === t.taskId &&
        x.replicate === t.replicate &&
        x.client.spec === t.client.spec,
    );
    if (!c) continue;
    if (!sums.has(t.taskId)) {
      tasks.push(t.taskId);
      sums.set(t.taskId, { n: 0, d: 0 });
    }
    const s = sums.get(t.taskId)!;
    s.n++;
    s.d += value(t) - value(c);
  }
  const clusters = tasks.map((t) => sums.get(t)!);
  const ratio = (cs: { n: number; d: number }[]) =>
    cs.reduce((a, s) => a + s.d, 0) / cs.reduce((a, s) => a + s.n, 0);
  const se = (cs: { n: number; d: number }[], r: number) => {
    const n = cs.reduce((a, s) => a + s.n, 0);
    const ss = cs.reduce((a, s) => a + (s.d - r * s.n) ** 2, 0);
    return Math.sqrt((ss * cs.length) / (cs.length - 1)) / n;
  };
  const est = ratio(clusters);
  const s0 = se(clusters, est);
  const ts: number[] = [];
  for (let b = 0; b < draws; b++) {
    const pick = Array.from({ length: clusters.length }, () => clusters[rng.int(clusters.length)]!);
    const r = ratio(pick);
    const s = se(pick, r);
    if (s > 0) ts.push((r - est) / s);
  }
  ts.sort((x, y) => x - y);
  const q = (p: number) => {
    const h = (ts.length - 1) * p;
    const lo = Math.floor(h);
    return ts[lo]! + (h - lo) * (ts[Math.min(lo + 1, ts.length - 1)]! - ts[lo]!);
  };
  const units = clusters.reduce((a, s) => a + s.n, 0);
  return {
    units,
    tasks: clusters.length,
    difference: est,
    interval: { low: est - q((1 + level) / 2) * s0, high: est - q((1 - level) / 2) * s0 },
  };
}

describe("the paired comparison of shoppers, against a plain recomputation", () => {
  const eps = sample("paired-ref");
  for (const client of ["sim:terse", null] as const)
    for (const [metric, value] of [
      ["regret", (e: ClientEpisode) => e.regret],
      ["messages", (e: ClientEpisode) => e.burden.messages],
      ["success", (e: ClientEpisode) => (e.success ? 1 : 0)],
    ] as const)
      it(`${metric}, ${client ?? "all clients"}: units, difference and bootstrap-t interval`, () => {
        const c = compareShoppers(eps, "A", "B", { client, draws: 300, level: 0.9, seed: "s" });
        const rng = createRng(`s/client/paired/${client ?? "all"}/A/B`).fork(metric);
        const plain = plainPaired(eps, value, client, rng, 300, 0.9);
        const d = c[metric];
        expect(d.units).toBe(plain.units);
        expect(c.units).toBe(plain.units);
        expect(d.tasks).toBe(plain.tasks);
        expect(d.difference).toBeCloseTo(plain.difference, 10);
        expect(d.treatment! - d.control!).toBeCloseTo(plain.difference, 10);
        expect(d.interval!.low).toBeCloseTo(plain.interval.low, 9);
        expect(d.interval!.high).toBeCloseTo(plain.interval.high, 9);
        expect(d.interval!.low).toBeLessThan(plain.difference);
        expect(d.interval!.high).toBeGreaterThan(plain.difference);
      });

  it("pools clients only over the units both shoppers played, and names them", () => {
    const c = compareShoppers(eps, "A", "B", { draws: 0 });
    const perClient = ["sim:terse", "sim:partial"].map((client) =>
      compareShoppers(eps, "A", "B", { client, draws: 0 }),
    );
    expect(c.client).toBeNull();
    expect(c.units).toBe(perClient[0]!.units + perClient[1]!.units);
    expect(c.regret.interval).toBeNull();
    // The pooled difference is the unit-weighted mean of the per-client ones.
    const pooled =
      (perClient[0]!.units * perClient[0]!.regret.difference! +
        perClient[1]!.units * perClient[1]!.regret.difference!) /
      c.units;
    expect(c.regret.difference).toBeCloseTo(pooled, 10);
    // A shopper compared with no shared unit has nothing to say.
    const none = compareShoppers(eps, "A", "nobody", { draws: 100 });
    expect(none.units).toBe(0);
    expect(none.regret).toEqual({
      units: 0,
      tasks: 0,
      treatment: null,
      control: null,
      difference: null,
      interval: null,
    });
  });
});

describe("the clustered ratio", () => {
  it("with every denominator 1 it is the clustered mean", () => {
    const rng = createRng("ratio");
    const items = Array.from({ length: 50 }, (_, i) => ({
      cluster: `t${i % 9}`,
      num: rng.uniform(-5, 20),
      den: 1,
    }));
    const r = clusteredRatio(items);
    const m = clusteredMean(items.map((i) => ({ cluster: i.cluster, value: i.num })));
    expect(r.estimate).toBeCloseTo(m.estimate!, 12);
    expect(r.se).toBeCloseTo(m.se!, 12);
    expect(r.low).toBeCloseTo(m.low!, 12);
  });

  it("is Σnum/Σden with the delta-method SE written out", () => {
    const items = [
      { cluster: "a", num: 3, den: 4 },
      { cluster: "a", num: 1, den: 2 },
      { cluster: "b", num: 0, den: 3 },
      { cluster: "c", num: 5, den: 5 },
      { cluster: "c", num: 2, den: 1 },
    ];
    // r = 11/15; residuals per cluster: a: 4 − 6r, b: −3r, c: 7 − 6r.
    const r = 11 / 15;
    const ss = (4 - 6 * r) ** 2 + (3 * r) ** 2 + (7 - 6 * r) ** 2;
    const se = Math.sqrt((3 / 2) * ss) / 15;
    const got = clusteredRatio(items, 0.95);
    expect(got.estimate).toBeCloseTo(r, 12);
    expect(got.se).toBeCloseTo(se, 12);
    // Student's t with G − 1 = 2 degrees of freedom (scipy: t.ppf(0.975, 2)).
    expect(got.high! - got.estimate!).toBeCloseTo(4.302652729749462 * se, 9);
    expect(clusteredRatio([{ cluster: "a", num: 1, den: 0 }]).estimate).toBeNull();
    expect(clusteredRatio([{ cluster: "a", num: 1, den: 2 }]).se).toBeNull();
  });
});

describe("client faults on hand-made episodes", () => {
  const say = (step: number, faults = 0, machine = false): ConversationEntry => ({
    step,
    from: "client",
    text: "x",
    topics: [],
    ...(machine ? { machine: true } : {}),
    ...(faults > 0
      ? { faults: Array.from({ length: faults }, () => ({ kind: "invents" as const, detail: "" })) }
      : {}),
  });
  const ask = (step: number): ConversationEntry => ({ step, from: "agent", text: "?", topics: [] });
  // Episode 1: opening, 3 replies (one with 2 faults), the machine's line: 3 replies, 2 faults.
  const e1 = ep({
    shopper: "A",
    taskId: "t1",
    replicate: 0,
    regret: 0,
    faults: 2,
    conversation: [say(0), ask(1), say(1), ask(2), say(2, 2), ask(3), say(3), ask(4), say(4, 0, true)],
  });
  // Episode 2: opening and one clean reply.
  const e2 = ep({
    shopper: "A",
    taskId: "t2",
    replicate: 0,
    regret: 5,
    conversation: [say(0), ask(1), say(1)],
  });
  // Episode 3 (the other shopper, same units): no replies at all.
  const e3 = ep({ shopper: "B", taskId: "t1", replicate: 0, regret: 50, conversation: [say(0)] });
  const e4 = ep({ shopper: "B", taskId: "t2", replicate: 0, regret: 60, conversation: [say(0)] });

  it("counts replies (not the opening, not the machine's line) and faults per reply and per episode", () => {
    expect([e1, e2, e3].map(clientReplies)).toEqual([3, 1, 0]);
    const [rates] = clientFaultRates([e1, e2, e3, e4]);
    expect(rates!.client).toBe("sim:terse");
    expect(rates!.replies).toBe(4);
    expect(rates!.faults).toBe(2);
    expect(rates!.perReply.estimate).toBe(0.5);
    expect(rates!.flagged.hits).toBe(1);
    expect(rates!.flagged.estimate).toBe(0.25);
    expect(rates!.byKind.invents).toEqual({ faults: 2, perReply: 0.5, episodes: 1 });
    expect(rates!.byKind.contradicts).toEqual({ faults: 0, perReply: 0, episodes: 0 });
  });

  it("include, exclude and only keep what they say, and every table says what was left out", () => {
    const all = [e1, e2, e3, e4];
    expect(selectByClientFaults(all, "include").kept).toHaveLength(4);
    expect(selectByClientFaults(all, "exclude")).toEqual({ kept: [e2, e3, e4], leftOut: 1 });
    expect(selectByClientFaults(all, "only")).toEqual({ kept: [e1], leftOut: 3 });
    const ex = analyzeClients(all, { draws: 0 });
    expect(ex.clientFaults).toBe("exclude");
    expect([ex.episodes, ex.leftOut, ex.flagged]).toEqual([3, 1, 1]);
    // The flagged episode's unit is gone from the comparison: only t2 is left.
    expect(ex.comparisons[0]!.units).toBe(1);
    expect(ex.comparisons[0]!.regret.difference).toBe(5 - 60);
    expect(ex.cells.map((c) => [c.agent, c.episodes, c.flagged])).toEqual([
      ["A for sim:terse", 1, 1],
      ["B for sim:terse", 2, 0],
    ]);
    const inc = analyzeClients(all, { draws: 0, clientFaults: "include" });
    expect([inc.episodes, inc.leftOut, inc.comparisons[0]!.units]).toEqual([4, 0, 2]);
    expect(inc.comparisons[0]!.regret.difference).toBe((0 - 50 + 5 - 60) / 2);
    const only = analyzeClients(all, { draws: 0, clientFaults: "only" });
    expect([only.episodes, only.leftOut, only.comparisons[0]!.units]).toEqual([1, 3, 0]);
    // The fault rates describe the client, whatever the option.
    expect(only.faults).toEqual(ex.faults);
    expect(leftOutNote(ex)).toMatch(/^1 episode with a client fault left out/);
    expect(leftOutNote(only)).toMatch(/^3 episodes without a client fault left out/);
    expect(leftOutNote(inc)).toMatch(/^1 episode with a client fault included/);
    for (const t of clientTables(ex).slice(0, -1))
      expect(t.note, t.title).toContain("1 episode with a client fault left out");
    expect(clientTables(ex).at(-1)!.note).not.toContain("left out");
  });
});
