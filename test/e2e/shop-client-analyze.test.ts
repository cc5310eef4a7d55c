/**
 * `bazaar analyze` of a shop run with clients, as a user runs it (in process): its regret, success
 * and uncovered figures equal a plain recomputation from `bazaar export`; `--client-faults`
 * include, exclude and only change the counts as they say, for the client tables and the shop's
 * alike, and the option is refused on a run without clients; `--report` draws regret against
 * messages with every name whole; `bazaar run`'s headline has the client table.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ClientAnalysis } from "../../analysis/shop/client/index.ts";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const HEAVY = 120_000;

let cwd: string;
let store: string;
let runId: string;
let records: ShopTrialRecord[];
let headline: { lines: string[]; json: { clients?: { cells: { agent: string }[] } } };

async function analyze(args: string[]) {
  const r = await runInProcess(["analyze", runId, "--store", store, ...args]);
  return r;
}

async function analyzeJson(args: string[] = []): Promise<{
  clients: ClientAnalysis;
  agents: { agent: string; episodes: number }[];
}> {
  const r = await analyze(["--json", "--bootstrap", "0", ...args]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

beforeAll(async () => {
  cwd = tempDir();
  store = path.join(cwd, "bazaar.db");
  const run = await runInProcess([
    "run",
    "shop",
    "--tasks",
    "20",
    "--replicates",
    "2",
    "--agent",
    "sim:asks-first,sim:careful",
    "--client",
    "sim:terse,sim:faulty",
    "--store",
    store,
    "--json",
  ]);
  expect(run.code, run.err).toBe(0);
  const out = JSON.parse(run.out);
  runId = out.runId;
  headline = { lines: [], json: out.headline };
  const file = path.join(cwd, "export.jsonl");
  const e = await runInProcess(["export", runId, "--store", store, "--out", file]);
  expect(e.code, e.err).toBe(0);
  records = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ShopTrialRecord);
}, HEAVY);

/** The plain figures of one agent's exported episodes. */
function recompute(list: readonly ShopTrialRecord[]) {
  const sum = (f: (r: ShopTrialRecord) => number) => list.reduce((a, r) => a + f(r), 0);
  const feasible = list.filter((r) => r.bestAdmissible !== null);
  const topics = ["price", "stars", "area", "free_cancellation", "breakfast"] as const;
  return {
    episodes: list.length,
    success: sum((r) => (r.success ? 1 : 0)) / list.length,
    regret: sum((r) => r.regret!) / list.length,
    captured:
      feasible.reduce((a, r) => a + r.surplus!, 0) /
      feasible.reduce((a, r) => a + r.bestAdmissible!.surplus, 0),
    learned: sum((r) => r.uncovered!.learned.length) / sum((r) => r.uncovered!.hidden.length),
    luckDen: sum((r) => r.uncovered!.hidden.length - r.uncovered!.learned.length),
    luck: sum((r) => r.uncovered!.metByLuck.length),
    byTopic: Object.fromEntries(
      topics.map((t) => {
        const hidden = list.filter((r) => r.uncovered!.hidden.includes(t));
        return [
          t,
          hidden.length
            ? hidden.filter((r) => r.uncovered!.learned.includes(t)).length / hidden.length
            : null,
        ];
      }),
    ),
    messages: sum((r) => r.burden!.messages) / list.length,
  };
}

const flaggedRecord = (r: ShopTrialRecord) => r.clientFaults!.length > 0;

describe("bazaar analyze, a shop run with clients", () => {
  it("the export has client episodes, some of them flagged for a client fault (sim:faulty)", () => {
    expect(records).toHaveLength(20 * 2 * 4);
    const flagged = records.filter(flaggedRecord);
    expect(flagged.length).toBeGreaterThan(5);
    expect(flagged.every((r) => r.client!.spec === "sim:faulty")).toBe(true);
  });

  for (const mode of ["exclude", "include", "only"] as const)
    it(
      `--client-faults ${mode}: regret, success, captured, uncovered and messages equal a plain recomputation from the export`,
      async () => {
        const j = await analyzeJson(mode === "exclude" ? [] : ["--client-faults", mode]);
        const keep = (r: ShopTrialRecord) =>
          mode === "include" ? true : mode === "exclude" ? !flaggedRecord(r) : flaggedRecord(r);
        const kept = records.filter(keep);
        const c = j.clients;
        expect(c.clientFaults).toBe(mode);
        expect(c.episodes).toBe(kept.length);
        expect(c.leftOut).toBe(records.length - kept.length);
        expect(c.flagged).toBe(records.filter(flaggedRecord).length);
        // The shop's own tables read the same episodes.
        expect(j.agents.reduce((a, g) => a + g.episodes, 0)).toBe(kept.length);
        expect(c.cells).toHaveLength(4);
        for (const cell of c.cells) {
          const mine = kept.filter((r) => r.agent === cell.agent);
          expect(cell.episodes, cell.agent).toBe(mine.length);
          expect(cell.flagged).toBe(records.filter((r) => r.agent === cell.agent && flaggedRecord(r)).length);
          if (mine.length === 0) {
            expect(cell.regret.estimate).toBeNull();
            continue;
          }
          const p = recompute(mine);
          expect(cell.success.estimate, cell.agent).toBeCloseTo(p.success, 12);
          expect(cell.regret.estimate, cell.agent).toBeCloseTo(p.regret, 9);
          if (Number.isFinite(p.captured))
            expect(cell.captured.estimate, cell.agent).toBeCloseTo(p.captured, 12);
          expect(cell.uncovered.learned.estimate, cell.agent).toBeCloseTo(p.learned, 12);
          expect(cell.uncovered.metByLuck.den).toBe(p.luckDen);
          expect(cell.uncovered.metByLuck.num).toBe(p.luck);
          const byTopic = cell.uncovered.byTopic as Record<string, { estimate: number | null }>;
          for (const [t, v] of Object.entries(p.byTopic))
            expect(byTopic[t]!.estimate, `${cell.agent} ${t}`).toBe(v);
          expect(cell.burden.messages.estimate).toBeCloseTo(p.messages, 12);
        }
        // The client-fault rates read every episode, whatever the option.
        const faulty = c.faults.find((f) => f.client === "sim:faulty")!;
        const mine = records.filter((r) => r.client!.spec === "sim:faulty");
        expect(faulty.faults).toBe(mine.reduce((a, r) => a + r.clientFaults!.length, 0));
        expect(faulty.flagged.hits).toBe(mine.filter(flaggedRecord).length);
        expect(c.faults.find((f) => f.client === "sim:terse")!.faults).toBe(0);
      },
      HEAVY,
    );

  it(
    "prints the client tables with what each left out, and refuses a --client-faults it does not know",
    async () => {
      const r = await analyze(["--bootstrap", "0"]);
      expect(r.code, r.err).toBe(0);
      const left = records.filter(flaggedRecord).length;
      expect(r.out).toContain("Working for a client: success on the hidden requirements");
      expect(r.out).toContain("Hidden requirements uncovered");
      expect(r.out).toContain("Burden on the client");
      expect(r.out).toContain("Shoppers compared on the same tasks, clients and replicates");
      expect(r.out).toContain("Client faults per client model");
      // Every table but the fault rates says how many episodes it left out.
      const tables = r.out.split("\n\n").filter((b) => b.includes("───"));
      const note = `${left} episodes with a client fault left out (--client-faults include keeps them).`;
      const withNote = tables.filter((b) => b.includes(note));
      expect(withNote.length).toBe(tables.length - 1);
      expect(tables.find((b) => !b.includes(note))).toContain("Client faults per client model");
      const bad = await analyze(["--client-faults", "some"]);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/--client-faults: expected include, exclude, only, got "some"/);
    },
    HEAVY,
  );

  it(
    "--report draws regret against messages, every shopper and client named whole",
    async () => {
      const dir = path.join(cwd, "report");
      const r = await analyze(["--report", dir, "--bootstrap", "0"]);
      expect(r.code, r.err).toBe(0);
      expect(readdirSync(dir)).toContain("shop-client-regret.svg");
      const svg = readFileSync(path.join(dir, "shop-client-regret.svg"), "utf8");
      for (const name of ["sim:asks-first", "sim:careful", "sim:terse", "sim:faulty"])
        expect(svg).toContain(`>${name}<`);
      expect(svg).toMatch(/with a client fault left out/);
      const md = readFileSync(path.join(dir, "shop-report.md"), "utf8");
      expect(md).toContain("shop-client-regret.svg");
      expect(md).toContain("Working for a client");
    },
    HEAVY,
  );

  it("bazaar run's headline has a row per shopper × client", () => {
    expect(headline.json.clients?.cells.map((c) => c.agent).sort()).toEqual(
      [
        "sim:asks-first for sim:faulty",
        "sim:asks-first for sim:terse",
        "sim:careful for sim:faulty",
        "sim:careful for sim:terse",
      ].sort(),
    );
  });
});

describe("bazaar analyze, a shop run without clients", () => {
  it(
    "has no client analysis, and refuses --client-faults with what to do",
    async () => {
      const dir = tempDir();
      const plainStore = path.join(dir, "bazaar.db");
      const run = await runInProcess([
        "run",
        "shop",
        "--tasks",
        "8",
        "--agent",
        "sim:careful",
        "--store",
        plainStore,
        "--json",
      ]);
      expect(run.code, run.err).toBe(0);
      const id = JSON.parse(run.out).runId as string;
      expect(JSON.parse(run.out).headline.clients).toBeUndefined();
      const ok = await runInProcess(["analyze", id, "--store", plainStore, "--json", "--bootstrap", "0"]);
      expect(ok.code, ok.err).toBe(0);
      expect(JSON.parse(ok.out).clients).toBeUndefined();
      const r = await runInProcess(["analyze", id, "--store", plainStore, "--client-faults", "include"]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--client-faults applies to shop runs with clients, and run .* has none/);
      expect(r.err).toMatch(/bazaar run shop --client/);
    },
    HEAVY,
  );
});
