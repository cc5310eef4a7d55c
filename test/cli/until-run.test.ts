/**
 * `bazaar run choice --until …` in this process, as a user runs it: a run stopped at one target and
 * extended to a tighter one stores every trial once and equals the run asked for the tighter target
 * from the start; a run stopped by a signal is resumed by the same command into the same run;
 * `bazaar analyze` reports the intervals the run's headline reported; and those intervals are the
 * estimates the choice analysis computes on its own path (β ln p and the WTP estimate), Fieller's
 * inequality, and the first-shown share counted from the exported trials. And what is refused: exit
 * 2, one line saying what to write, nothing stored.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { resolveChoiceAgent } from "../../agents/registry.ts";
import { scoreSession } from "../../analysis/bargain/session.ts";
import { binaryDesign, DEFAULT_CONVENTION } from "../../analysis/choice/index.ts";
import { choiceTrialsFromRecords } from "../../analysis/choice/records.ts";
import { fitBinaryLogit } from "../../analysis/logit/index.ts";
import { shopEpisodesFromRecords } from "../../analysis/shop/records.ts";
import { normalQuantile, tQuantile } from "../../analysis/stats/distributions.ts";
import { MIN_DESIGN_EFFECT, wilsonInterval } from "../../analysis/stats/sequential.ts";
import { untilRun } from "../../cli/run/until-rule.ts";
import { DEFAULT_HOTEL_POOL } from "../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../environments/choice/design.ts";
import { choiceEnvironment } from "../../environments/choice/environment.ts";
import { planRun } from "../../environments/runner/plan.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { executeSequential } from "../../environments/runner/sequential.ts";
import { Store } from "../../environments/store/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

const DESIGN = ["--agent", "sim:steep,sim:locked", "--pairs", "150", "--triples", "10", "--fives", "0"];
const LOOSE = "beta-lnp±2.2,wtp±$40,first-shown±8pts";
const TIGHT = "beta-lnp+-1.6,wtp±$30,first-shown±6pts";

interface TargetJson {
  agent: string;
  estimand: string;
  estimate: number | null;
  low: number | null;
  high: number | null;
  halfWidth: number | null;
  status: string;
}
interface RunJson {
  runId: string;
  stored: number;
  ranNow: number;
  interrupted: boolean;
  until: {
    agents: { agent: string; stoppedAt: number | null; trialsStored: number; designTrials: number }[];
  };
  headline: { targets: { targets: TargetJson[] } };
}

async function run(dir: string, until: string): Promise<RunJson> {
  const r = await runInProcess([
    "run",
    "choice",
    ...DESIGN,
    "--until",
    until,
    "--store",
    path.join(dir, "bazaar.db"),
    "--json",
  ]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as RunJson;
}

function records(dir: string, runId: string) {
  const store = Store.open(path.join(dir, "bazaar.db"), { create: false });
  try {
    return [...trialRecords(store, runId)];
  } finally {
    store.close();
  }
}

const extended = tempDir();
const direct = tempDir();
let loose: RunJson;
let tight: RunJson;
let fresh: RunJson;

beforeAll(async () => {
  loose = await run(extended, LOOSE);
  tight = await run(extended, TIGHT);
  fresh = await run(direct, TIGHT);
});

describe("a run stopped at a target, extended to a tighter one", () => {
  it("runs only what the tighter target adds, stores every trial once, and equals the run asked for it from the start", () => {
    expect(tight.runId).toBe(loose.runId);
    expect(fresh.runId).toBe(loose.runId);
    expect(loose.stored).toBeGreaterThan(0);
    expect(tight.stored).toBeGreaterThan(loose.stored);
    expect(tight.ranNow).toBe(tight.stored - loose.stored);
    const a = records(extended, tight.runId);
    const b = records(direct, fresh.runId);
    expect(a).toHaveLength(tight.stored);
    expect(new Set(a.map((r) => r.trialKey)).size).toBe(a.length);
    expect(a).toEqual(b);
    expect(tight.until).toEqual(fresh.until);
    expect(tight.headline.targets).toEqual(fresh.headline.targets);
    // The engaged shopper played on; the locked one stopped within its first looks under both.
    const [steep, locked] = tight.until.agents;
    expect(steep!.trialsStored).toBeGreaterThan(loose.until.agents[0]!.trialsStored);
    expect(locked!.stoppedAt).toBeGreaterThanOrEqual(loose.until.agents[1]!.stoppedAt!);
    expect(locked!.trialsStored).toBeLessThan(100);
    expect(tight.headline.targets.targets.every((t) => t.status === "met" || t.status === "moot")).toBe(true);
  });

  it("bazaar analyze reports the intervals the run's headline reported", async () => {
    const r = await runInProcess([
      "analyze",
      tight.runId,
      "--store",
      path.join(extended, "bazaar.db"),
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const analyzed = JSON.parse(r.out) as { targets: unknown };
    expect(analyzed.targets).toEqual(tight.headline.targets);
  });
});

describe("a run stopped by a signal", () => {
  it("is resumed by the same command into the run it would have been", async () => {
    const dir = tempDir();
    const db = path.join(dir, "bazaar.db");
    // A signal once 100 trials are stored (sim agents answer without yielding to timers, so the
    // store's writes are where the run is seen to progress).
    let written = 0;
    let sent = -1;
    const write = Store.prototype.writeTrials;
    const spy = vi.spyOn(Store.prototype, "writeTrials").mockImplementation(function (
      this: Store,
      rows,
      failed,
    ) {
      write.call(this, rows, failed);
      written += rows.length;
      if (sent < 0 && written >= 100) {
        sent = written;
        process.emit("SIGTERM");
      }
    });
    const cut = await runInProcess(["run", "choice", ...DESIGN, "--until", TIGHT, "--store", db, "--json"]);
    spy.mockRestore();
    expect(sent).toBeGreaterThanOrEqual(100);
    const partial = storedTrials(db);
    expect(partial).toBeLessThan(fresh.stored);
    expect(cut.code).not.toBe(0);
    const resumed = await run(dir, TIGHT);
    expect(resumed.ranNow).toBe(fresh.stored - partial);
    expect(records(dir, resumed.runId)).toEqual(records(direct, fresh.runId));
    expect(resumed.headline.targets).toEqual(fresh.headline.targets);
    // Played again without --until, the run is no longer a stopped sample: analyze says no targets.
    const plain = await runInProcess(["run", "choice", ...DESIGN, "--limit", "1", "--store", db, "--json"]);
    expect(plain.code, plain.err).toBe(0);
    const a = await runInProcess(["analyze", resumed.runId, "--store", db, "--json"]);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).not.toHaveProperty("targets");
  });
});

describe("the run's intervals against independent computations", () => {
  const row = (agent: string, estimand: string) =>
    fresh.headline.targets.targets.find((t) => t.agent === agent && t.estimand === estimand)!;

  it("β ln p and the WTP estimate are the choice analysis's; the WTP ends solve Fieller's inequality", async () => {
    const r = await runInProcess([
      "analyze",
      fresh.runId,
      "--store",
      path.join(direct, "bazaar.db"),
      "--json",
    ]);
    const analysis = JSON.parse(r.out) as {
      analyses: {
        default: {
          agents: {
            agent: string;
            binary: {
              log: { names: string[]; coefficients: { estimate: number; ciLow: number; ciHigh: number }[] };
            };
            wtp: { log: { estimate: number } };
          }[];
        };
      };
    };
    const steep = analysis.analyses.default.agents.find((a) => a.agent === "sim:steep")!;
    const lnPrice = steep.binary.log.coefficients[steep.binary.log.names.indexOf("lnPrice")]!;
    const beta = row("sim:steep", "beta-lnp");
    expect(beta.estimate).toBeCloseTo(lnPrice.estimate, 6);
    expect(beta.low).toBeCloseTo(lnPrice.ciLow, 6);
    expect(beta.high).toBeCloseTo(lnPrice.ciHigh, 6);
    const wtp = row("sim:steep", "wtp");
    expect(wtp.estimate).toBeCloseTo(steep.wtp.log.estimate, 6);
    // Fieller: (a − θb)² = z²·Var(a − θb) at both ends, a = −250·β_review, b = β ln p.
    const trials = choiceTrialsFromRecords(records(direct, fresh.runId)).filter(
      (t) => t.agent === "sim:steep" && t.kind === "binary",
    );
    const fit = fitBinaryLogit(binaryDesign(trials, { priceForm: "log" }, DEFAULT_CONVENTION));
    if (fit.status !== "ok") throw new Error("the steep shopper's logit did not fit");
    const i = fit.names.indexOf("review");
    const j = fit.names.indexOf("lnPrice");
    const a = -250 * fit.coefficients[i]!.estimate;
    const b = fit.coefficients[j]!.estimate;
    const [vaa, vbb, vab] = [250 * 250 * fit.vcov[i]![i]!, fit.vcov[j]![j]!, -250 * fit.vcov[i]![j]!];
    const z2 = normalQuantile(0.975) ** 2;
    for (const theta of [wtp.low!, wtp.high!]) {
      const lhs = (a - theta * b) ** 2;
      expect(lhs).toBeCloseTo(z2 * (vaa - 2 * theta * vab + theta * theta * vbb), 6);
    }
  });

  it("first-shown is counted from the exported trials, its Wilson interval on the clustered effective sample", () => {
    for (const agent of ["sim:steep", "sim:locked"]) {
      const units = new Map<string, { hits: number; n: number }>();
      for (const r of records(direct, fresh.runId)) {
        if (r.agent !== agent || r.chosenSlot === null) continue;
        const order = r.order as number[];
        const slot = r.chosenSlot as number;
        if (order[slot]! > 1) continue;
        const key = `${r.cluster}-${r.appearance}`;
        const u = units.get(key) ?? { hits: 0, n: 0 };
        u.n++;
        if (slot < order.indexOf(1 - order[slot]!)) u.hits++;
        units.set(key, u);
      }
      const us = [...units.values()];
      const n = us.reduce((s, u) => s + u.n, 0);
      const p = us.reduce((s, u) => s + u.hits, 0) / n;
      const g = us.length;
      let deff = 1; // at 0 or 1: one answer per task here (no replicates)
      if (p > 0 && p < 1) {
        const ss = us.reduce((s, u) => s + (u.hits - p * u.n) ** 2, 0);
        deff = Math.max(MIN_DESIGN_EFFECT, ((g / (g - 1)) * ss) / (n * n) / ((p * (1 - p)) / n));
      }
      const w = wilsonInterval(p, n / deff);
      const got = row(agent, "first-shown");
      expect(got.estimate).toBeCloseTo(p, 12);
      expect(got.low).toBeCloseTo(w.low, 12);
      expect(got.high).toBeCloseTo(w.high, 12);
    }
  });
});

/** A run of `env` under `--until` in its own store, its records and `analyze --json`. */
async function envRun(env: string, args: string[]) {
  const dir = tempDir();
  const store = path.join(dir, "bazaar.db");
  const r = await runInProcess(["run", env, ...args, "--store", store, "--json"]);
  expect(r.code, r.err).toBe(0);
  const result = JSON.parse(r.out) as RunJson & {
    until: { agents: { agent: string; designTrials: number }[] };
  };
  const a = await runInProcess(["analyze", result.runId, "--store", store, "--json"]);
  expect(a.code, a.err).toBe(0);
  return {
    result,
    records: records(dir, result.runId),
    analysis: JSON.parse(a.out) as Record<string, unknown>,
  };
}

/** Hits per unit → the clustered Wilson interval, computed here from its definition. */
function clusteredWilson(units: { hits: number; n: number }[], tasks: number) {
  const n = units.reduce((s, u) => s + u.n, 0);
  const p = units.reduce((s, u) => s + u.hits, 0) / n;
  const g = units.length;
  let neff = tasks;
  if (p > 0 && p < 1) {
    const ss = units.reduce((s, u) => s + (u.hits - p * u.n) ** 2, 0);
    neff = n / Math.max(MIN_DESIGN_EFFECT, ((g / (g - 1)) * ss) / (n * n) / ((p * (1 - p)) / n));
  }
  return { p, ...wilsonInterval(p, neff) };
}

describe("shop and bargaining targets against their analyses", () => {
  it("shop success: the shop analysis's share, the interval clustered by task (replicates one unit)", async () => {
    const {
      result,
      records: recs,
      analysis,
    } = await envRun("shop", [
      "--agent",
      "sim:first-result,sim:careful",
      "--tasks",
      "24",
      "--replicates",
      "2",
      "--until",
      "success±10pts",
    ]);
    const agents = analysis.agents as { agent: string; outcomes: { success: { estimate: number } } }[];
    for (const a of agents) {
      const episodes = shopEpisodesFromRecords(recs.filter((r) => r.agent === a.agent));
      const byTask = new Map<string, { hits: number; n: number }>();
      for (const e of episodes) {
        const u = byTask.get(e.taskId) ?? { hits: 0, n: 0 };
        u.n++;
        if (e.success) u.hits++;
        byTask.set(e.taskId, u);
      }
      const want = clusteredWilson([...byTask.values()], byTask.size);
      const got = result.headline.targets.targets.find((t) => t.agent === a.agent)!;
      expect(got.estimate).toBeCloseTo(a.outcomes.success.estimate, 12);
      expect(got.estimate).toBeCloseTo(want.p, 12);
      expect(got.low).toBeCloseTo(want.low, 12);
      expect(got.high).toBeCloseTo(want.high, 12);
    }
    // The careful shopper books right every time: met on the distinct tasks, not on their replicates.
    const careful = result.until.agents.find((a) => a.agent === "sim:careful") as {
      stoppedAt: number | null;
    };
    expect(careful.stoppedAt).not.toBeNull();
  });

  it("shop regret (with a client): the client analysis's clustered mean and interval", async () => {
    const { result, analysis } = await envRun("shop", [
      "--agent",
      "sim:asks-first",
      "--client",
      "sim:terse",
      "--tasks",
      "30",
      "--replicates",
      "1",
      "--until",
      "regret±$5",
    ]);
    const cells = (
      analysis.clients as {
        cells: { agent: string; regret: { estimate: number; low: number; high: number } }[];
      }
    ).cells;
    expect(cells).toHaveLength(1);
    const got = result.headline.targets.targets[0]!;
    expect(got.agent).toBe(cells[0]!.agent);
    expect(got.estimate).toBeCloseTo(cells[0]!.regret.estimate, 9);
    expect(got.low).toBeCloseTo(cells[0]!.regret.low, 9);
    expect(got.high).toBeCloseTo(cells[0]!.regret.high, 9);
  });

  it("bargaining: the deal rate and the SNP are the bargaining analysis's, the SNP scaled to the design's sessions", async () => {
    const {
      result,
      records: recs,
      analysis,
    } = await envRun("bargain", ["--scenarios", "40", "--until", "deal-rate±10pts,snp±3"]);
    const pairings = analysis.pairings as {
      buyer: string;
      seller: string;
      summary: { ALL: { sessions: number; dealRateValid: number; buyer: { snp: number } } };
    }[];
    for (const pr of pairings) {
      const agent = `${pr.buyer} vs ${pr.seller}`;
      const sessions = recs
        .filter((r) => r.agent === agent)
        .map((r) => scoreSession(r as unknown as Parameters<typeof scoreSession>[0]));
      const row = (estimand: string) =>
        result.headline.targets.targets.find((t) => t.agent === agent && t.estimand === estimand)!;
      const valid = sessions.filter((x) => x.valid);
      // One session a scenario here (no replicates): each unit one answer.
      const want = clusteredWilson(
        valid.map((x) => ({ hits: x.deal ? 1 : 0, n: 1 })),
        valid.length,
      );
      expect(row("deal-rate").estimate).toBeCloseTo(pr.summary.ALL.dealRateValid, 12);
      expect(row("deal-rate").low).toBeCloseTo(want.low, 12);
      expect(row("deal-rate").high).toBeCloseTo(want.high, 12);
      const design = result.until.agents.find((a) => a.agent === agent)!.designTrials;
      expect(row("snp").estimate).toBeCloseTo((pr.summary.ALL.buyer.snp * design) / sessions.length, 9);
      // The t interval of the per-session mean, times the design's sessions.
      const x = sessions.map((v) => (v.deal ? v.buyerNormalized! : 0));
      const m = x.reduce((s, v) => s + v, 0) / x.length;
      const se = Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - 1) / x.length);
      expect(row("snp").halfWidth).toBeCloseTo(tQuantile(0.975, x.length - 1) * se * design, 9);
    }
  });
});

describe("a line per look", () => {
  it("says each target's half-width now against the one asked, and which agents stop", async () => {
    const design = { pairs: 60, triples: 0, fives: 0, seed: 3 };
    const plan = planRun({
      env: choiceEnvironment,
      settings: { maxReasks: 1 },
      tasks: buildChoiceTasks(design, DEFAULT_HOTEL_POOL),
      agents: ["sim:steep", "sim:locked"].map((a) => resolveChoiceAgent(a)),
      replicates: 1,
      design,
    });
    const until = (await untilRun(plan, ["beta-lnp±3,first-shown±9pts"]))!;
    const store = Store.open(path.join(tempDir(), "looks.db"), { create: true });
    const lines: string[] = [];
    const result = await executeSequential(
      plan,
      store,
      { concurrency: 4 },
      until.rule(store, (l) => lines.push(l)),
    );
    store.close();
    expect(lines).toHaveLength(result.looks);
    expect(lines[0]).toMatch(
      /^look 1\/\d+: sim:steep: beta-lnp (–|±[\d.]+) → ±3, first-shown ±[\d.]+pts → ±9pts · sim:locked: /,
    );
    // The locked shopper's β ln p does not apply; it stops at its look and is not looked at after.
    const locked = result.agents[1]!.stoppedAt!;
    expect(lines[locked]).toMatch(
      /sim:locked: beta-lnp n\/a → ±3, first-shown ±[\d.]+pts → ±9pts \(stops here\)$/,
    );
    expect(lines.slice(locked + 1).every((l) => !l.includes("sim:locked"))).toBe(true);
  });
});

describe("bazaar run … --until refusals (in process)", () => {
  const run = async (args: string[]) => {
    const dir = tempDir();
    const store = path.join(dir, "bazaar.db");
    const r = await runInProcess([...args, "--store", store]);
    return { ...r, stored: existsSync(store) };
  };

  it("an unknown estimand: exit 2 naming the valid ones, nothing stored", async () => {
    const r = await run(["run", "choice", "--agent", "sim:steep", "--until", "price±1"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--until "price±1": `run choice` has no estimand "price"/);
    expect(r.err).toMatch(/beta-lnp .*wtp .*first-shown/);
    expect(r.stored).toBe(false);
    const shop = await run(["run", "shop", "--agent", "sim:careful", "--until", "beta-lnp±1"]);
    expect(shop.code).toBe(2);
    expect(shop.err).toMatch(/success .*regret/);
  });

  it("elicit refuses --until; --until with --limit and an estimand the design cannot inform are refused", async () => {
    const elicit = await run(["run", "elicit", "--until", "x±1"]);
    expect(elicit.code).toBe(2);
    expect(elicit.err).toMatch(/--until does not apply to `run elicit`/);
    expect(elicit.stored).toBe(false);
    const limited = await run(["run", "choice", "--until", "beta-lnp±1", "--limit", "10"]);
    expect(limited.code).toBe(2);
    expect(limited.err).toMatch(/--until and --limit/);
    const regret = await run(["run", "shop", "--until", "regret±$5"]);
    expect(regret.code).toBe(2);
    expect(regret.err).toMatch(/no task of this design informs it\n.*--client/);
  });
});
