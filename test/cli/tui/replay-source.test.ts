import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapterFor, episodeModel, type TrialRecord } from "../../../cli/tui/records/index.ts";
import { StoreReplaySource } from "../../../cli/tui/replay/source.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import { Store, type StoredTrial } from "../../../environments/store/index.ts";
import { countTrials, trialsAfter, trialWhere } from "../../../environments/store/trial-pages.ts";
import { tempDir } from "../../helpers/cli.ts";
import { type FixtureRun, fixtureRun } from "./fixtures.ts";

let bargain: FixtureRun;
let choice: FixtureRun;

function sourceOf(f: FixtureRun): StoreReplaySource {
  const r = f.store.getRun(f.plan.runId)!;
  return new StoreReplaySource(f.store, {
    id: r.id,
    env: r.env,
    total: r.total,
    done: r.done,
    agents: r.agents,
  });
}

beforeAll(async () => {
  bargain = await fixtureRun("bargain", 300);
  choice = await fixtureRun("choice", 2_500, { agent: "sim:steep,sim:primacy" });
});
afterAll(() => {
  bargain.store.close();
  choice.store.close();
});

describe("trial pages", () => {
  it("pages by seq in both directions, under filters compiled to SQL", () => {
    const { store, plan } = bargain;
    const deals = trialWhere(plan.runId, [
      { json: "result", path: "$.outcome.outcome", op: "=", value: "deal" },
    ]);
    const page = trialsAfter(store, plan.runId, 10, 5, deals);
    const expected = bargain.records.filter((r) => Number(r.seq) > 10 && r.outcome === "deal").slice(0, 5);
    expect(page.map((t) => t.seq)).toEqual(expected.map((r) => r.seq));
    expect(countTrials(store, plan.runId, deals)).toBe(
      bargain.records.filter((r) => r.outcome === "deal").length,
    );
    const ci = trialWhere(plan.runId, [
      { json: "task", path: "$.cost", op: ">", otherPath: "$.budget" },
      { column: "nonResponse", equals: false },
    ]);
    const ciRecords = bargain.records.filter(
      (r) => Number(r.cost) > Number(r.budget) && r.outcome !== "invalid",
    );
    expect(countTrials(store, plan.runId, ci)).toBe(ciRecords.length);
  });

  it("refuses a JSON path that is not one (no SQL from outside)", () => {
    expect(() => trialWhere("r", [{ json: "task", path: "$.a') OR 1=1 --", op: "is null" }])).toThrow(
      /not a JSON path/,
    );
  });
});

describe("StoreReplaySource", () => {
  it("lists summaries in seq order and pages back from the end", () => {
    const src = sourceOf(bargain);
    const first = src.after(-1, 50, {});
    expect(first.items.map((i) => i.seq)).toEqual(bargain.records.slice(0, 50).map((r) => r.seq));
    expect(first.exhausted).toBe(false);
    const last = src.before(Number.MAX_SAFE_INTEGER, 20, {});
    expect(last.items.map((i) => i.seq)).toEqual(bargain.records.slice(-20).map((r) => r.seq));
    expect(src.before(last.frontier, 1_000, {}).exhausted).toBe(true);
  });

  it("filters by agent, outcome, MI/CI and non-response, and counts the matches", () => {
    const src = sourceOf(bargain);
    const agent = bargain.plan.agents[4]!.label;
    const filter = { agent, outcome: "deal", interest: "MI", nonResponse: "no" };
    const want = bargain.records.filter(
      (r) => r.agent === agent && r.outcome === "deal" && r.interest === "MI",
    );
    expect(src.after(-1, 1_000, filter).items.map((i) => i.seq)).toEqual(want.map((r) => r.seq));
    expect(src.count(filter)).toBe(want.length);
    const invalid = bargain.records.filter((r) => r.outcome === "invalid").map((r) => r.seq);
    expect(src.after(-1, 1_000, { nonResponse: "yes" }).items.map((i) => i.seq)).toEqual(invalid);
  });

  it("opens an episode as the live view would show it, task included", () => {
    const src = sourceOf(bargain);
    const rec = bargain.records[17]!;
    const ep = src.episode(Number(rec.seq))!;
    expect(ep.record).toEqual(rec);
    expect(ep.model).toEqual(episodeModel(rec));
    expect(src.episode(1_000_000)).toBeNull();
  });

  it("gives running statistics as of any episode, equal to folding the run by hand", () => {
    const src = sourceOf(choice);
    const rec = choice.records[2_203]!;
    expect(src.stats(rec)).toBeNull(); // the pass has not started
    while (src.indexStep() < 1);
    const a = adapterFor("choice");
    const fold = a.stats.init();
    for (const r of choice.records)
      if (Number(r.seq) <= Number(rec.seq) && r.agent === rec.agent) a.stats.add(fold, r);
    expect(src.stats(rec)).toEqual(a.stats.view(fold, rec));
  });

  it("opens the first page of a 100,000-trial run in milliseconds", () => {
    const store = Store.open(path.join(tempDir(), "big.db"), { create: true });
    const tasks = buildChoiceTasks({ pairs: 10, triples: 0, fives: 0 }, DEFAULT_HOTEL_POOL);
    store.ensureRun({ id: "big", env: "choice", config: {}, total: 100_000 }, tasks);
    const usage = JSON.stringify(emptyUsage());
    const rows: StoredTrial[] = Array.from({ length: 100_000 }, (_, seq) => ({
      runId: "big",
      seq,
      trialKey: `k${seq}`,
      agent: seq % 2 ? "sim:a" : "sim:b",
      taskIndex: seq % tasks.length,
      replicate: 0,
      nonResponse: false,
      agentError: false,
      resultJson: `{"outcome":{"chosenSlot":${seq % 2},"nonResponse":null,"raw":"A","replies":["A"]},"usage":${usage}}`,
    }));
    store.writeTrials(rows);
    const src = new StoreReplaySource(store, {
      id: "big",
      env: "choice",
      total: 100_000,
      done: 100_000,
      agents: ["sim:a", "sim:b"],
    });
    const t0 = performance.now();
    const first = src.after(-1, 100, {});
    const last = src.before(Number.MAX_SAFE_INTEGER, 100, { agent: "sim:a", outcome: "B" });
    const middle = src.after(50_000, 100, { outcome: "A" });
    const ep = src.episode(73_210);
    const ms = performance.now() - t0;
    expect(first.items).toHaveLength(100);
    expect(last.items.at(-1)!.seq).toBe(99_999);
    expect(middle.items[0]!.seq).toBe(50_002);
    expect((ep!.record as TrialRecord).seq).toBe(73_210);
    expect(ms).toBeLessThan(250);
    store.close();
  });
});
