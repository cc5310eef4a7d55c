/**
 * `bazaar run market`, `runs` and `analyze` as a user runs them (the compiled CLI): a small market
 * ends with its headline, the same command again finds it whole, `runs` shows the market as one
 * row, `analyze` reads it as tables, JSON and a report, and bad options are refused before
 * anything is written.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const SMALL = [
  "--sellers",
  "5",
  "--rounds",
  "3",
  "--buyers-per-round",
  "20",
  "--adopters",
  "0,2",
  "--markets",
  "2",
];

describe("bazaar run market", () => {
  it("runs a market to its headline, resumes to nothing, and runs and analyze find it", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "market", ...SMALL, "--seller", "sim:undercut"], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // 3 rounds × 2 levels × 2 markets × (20 buyers + 5 sellers)
    expect(run.stdout).toMatch(
      /market (market-\w+): 3 of 3 rounds done; 300 of 300 trials stored \(300 this time\)/,
    );
    const id = /market (market-\w+):/.exec(run.stdout)![1]!;
    expect(run.stdout).toMatch(/^k=0 \(round 1 → 3\): HHI /m);
    expect(run.stdout).toMatch(/^k=2 \(round 1 → 3\): adopters' share /m);
    expect(run.stdout).toMatch(/^adoption k=2: adopters' share after round 1 [\d.]+% \(k\/N 40\.0%\)/m);
    expect(run.stdout).toContain(`bazaar analyze ${id}`);

    const again = await runCli(["run", "market", ...SMALL, "--seller", "sim:undercut", "--json"], { cwd });
    expect(again.code).toBe(0);
    const json = JSON.parse(again.stdout) as {
      ranNow: number;
      stored: number;
      total: number;
      runs: unknown[];
    };
    expect(json).toMatchObject({ ranNow: 0, stored: 300, total: 300 });
    // Per round its buyers' run and its sellers' run.
    expect(json.runs).toHaveLength(6);

    const store = path.join(cwd, "bazaar.db");
    const runs = await runInProcess(["runs", "--store", store]);
    expect(runs.out).toMatch(
      new RegExp(`^${id} +market +sim:persuadable,sim:undercut,sim:static +300/300 `, "m"),
    );
    // Its rounds' runs are folded into its row.
    expect(runs.out).not.toMatch(new RegExp(`^${id}-r01-buyers`, "m"));

    const text = await runInProcess(["analyze", id, "--store", store]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/Rounds \(per adoption level k, mean over its markets\)/);
    expect(text.out).toMatch(/Market k2-m1: sellers \(k = 2 adopters\)/);
    expect(text.out).toMatch(/sim:undercut \(adopter\)/);
    const a = JSON.parse((await runInProcess(["analyze", id, "--store", store, "--json"])).out) as {
      markets: { key: string; rounds: { round: number; hhi: number; sellers: { price: number }[] }[] }[];
      adoption: { k: number; markets: number }[];
    };
    expect(a.markets.map((m) => m.key)).toEqual(["k0-m1", "k0-m2", "k2-m1", "k2-m2"]);
    expect(a.adoption).toEqual([expect.objectContaining({ k: 2, markets: 2 })]);
    // Undercutters moved their prices; the k=0 markets (all static) never did.
    const prices = (key: string) =>
      a.markets.find((m) => m.key === key)!.rounds.map((r) => r.sellers.map((s) => s.price));
    expect(prices("k0-m1")[2]).toEqual(prices("k0-m1")[0]);
    expect(prices("k2-m1")[2]).not.toEqual(prices("k2-m1")[0]);
    // A round's seller run analyses as its market.
    expect((await runInProcess(["analyze", `${id}-r02-sellers`, "--store", store])).out).toContain(
      `market ${id}:`,
    );

    // watch: the market round by round, each seller's listing, bookings and turn.
    const watch = await runInProcess(["watch", id, "--store", store, "--market", "k2-m2"]);
    expect(watch.code).toBe(0);
    expect(watch.out).toMatch(/^market k2-m2 · round 3: 20 buyer episodes/m);
    expect(watch.out).toMatch(/sim:undercut \(adopter\) .*(price \$\d+ → \$\d+|kept)/);
    expect(watch.out).toContain(`bazaar watch ${id}-r01-buyers`);

    // export: every seller turn (3 rounds × 4 markets × 5 sellers), then a summary per market and round.
    const file = path.join(cwd, "market.jsonl");
    expect((await runInProcess(["export", id, "--store", store, "--out", file])).code).toBe(0);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { env: string });
    expect(lines.filter((l) => l.env === "market")).toHaveLength(60);
    expect(lines.filter((l) => l.env === "market-round")).toHaveLength(12);
    expect(lines[0]).toMatchObject({ env: "market", market: id, round: 1, seller: 1, arm: "neutral" });

    const out = path.join(cwd, "report");
    const report = await runInProcess(["analyze", id, "--store", store, "--report", out]);
    expect(report.code).toBe(0);
    for (const f of [
      "market-report.md",
      "market-k2-m1-shares.svg",
      "market-k2-m1-prices.svg",
      "market-adoption.svg",
    ])
      expect(existsSync(path.join(out, f)), f).toBe(true);
    const svg = readFileSync(path.join(out, "market-k2-m1-shares.svg"), "utf8");
    // Every seller named in full in the legend, none cut.
    expect(svg).not.toContain("…");
    expect(readFileSync(path.join(out, "market-report.md"), "utf8")).toContain("Seller turns by agent");
  });

  it("a seller from outside (module:) plays the adopters' turns with the same tools and rules", async () => {
    const cwd = tempDir();
    const store = path.join(cwd, "m.db");
    const agent = `module:${path.join(REPO_ROOT, "test/fixtures/market/cost-pricer.mjs")}`;
    const run = await runInProcess([
      "run",
      "market",
      ...SMALL,
      "--seller",
      agent,
      "--store",
      store,
      "--json",
    ]);
    expect(run.code, run.err).toBe(0);
    const { marketId } = JSON.parse(run.out) as { marketId: string };
    const a = JSON.parse((await runInProcess(["analyze", marketId, "--store", store, "--json"])).out) as {
      markets: {
        key: string;
        sellers: { seller: number; adopter: boolean; cost: number }[];
        rounds: { sellers: { seller: number; price: number }[] }[];
      }[];
      descriptions: { agent: string; text: string }[];
      sellerTurns: { byAgent: Record<string, { turns: number; changed: number; invalidCalls: number }> };
    };
    // 3 rounds × 2 markets × 2 adopters: priced at cost from round 2 on, their descriptions rewritten once.
    expect(a.sellerTurns.byAgent[agent]).toMatchObject({ turns: 12, invalidCalls: 0 });
    for (const m of a.markets.filter((x) => x.key.startsWith("k2-"))) {
      for (const s of m.sellers.filter((x) => x.adopter))
        expect(m.rounds[1]!.sellers.find((x) => x.seller === s.seller)!.price).toBe(s.cost);
    }
    expect(a.descriptions.filter((d) => d.agent === agent)).toHaveLength(4);
    expect(a.descriptions.every((d) => d.text.startsWith("Our lowest rate."))).toBe(true);
  });

  it("refuses what it cannot run, before writing anything", async () => {
    const cwd = tempDir();
    const store = path.join(cwd, "x.db");
    const bad = async (args: string[], message: RegExp) => {
      const r = await runInProcess(["run", "market", "--store", store, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
    };
    await bad(["--adopters", "9"], /9 adopters is more than the 8 sellers/);
    await bad(["--adopters", "1,x"], /--adopters: expected whole numbers/);
    await bad(["--cost-share", "0.9-0.5"], /low end 0.9 is above its high end 0.5/);
    await bad(["--cost-share", "1.5"], /--cost-share: expected a share from 0 to 1/);
    await bad(["--price-cap", "0.5"], /--price-cap: expected a multiple of at least 1/);
    await bad(["--seller", "sim:nope"], /unknown seller "sim:nope"/);
    await bad(["--buyer", "sim:careful,sim:persuadable"], /--buyer takes one agent/);
    await bad(["--limit", "10"], /--limit does not apply to market runs/);
    await bad(["--sellers", "1"], /sellers must be at least 2/);
    await bad(["--tasks", "3"], /--tasks is an option of .*`run shop`, not of `run market`/);
    expect(existsSync(store)).toBe(false);
  });
});
