/**
 * The market's LLM path: `bazaar run market --seller openai:<model>` drives the LangGraph agent with
 * the seller tools through ChatOpenAI over HTTP, against serve-sim's simulated sellers (known
 * policies). The same market through the real client stores, round by round, the listings the
 * native simulated seller stores; descriptions and prices move, in tools and in text mode; a
 * malformed call is refused, counted and not fatal (the seller tries again and its turn counts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import type { MarketAnalysis } from "../../analysis/market/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const SMALL = [
  "--sellers",
  "4",
  "--rounds",
  "3",
  "--buyers-per-round",
  "12",
  "--adopters",
  "2",
  "--seed",
  "5",
];

async function ok(args: string[]): Promise<string> {
  const r = await runInProcess(args);
  expect(r.code, `${args.join(" ")}\n${r.err}`).toBe(0);
  return r.out;
}

/** Runs a small market with `seller` and returns its analysis. */
async function market(seller: string, extra: string[] = []): Promise<MarketAnalysis & { market: string }> {
  const store = `${tempDir()}/m.db`;
  const run = JSON.parse(
    await ok([
      "run",
      "market",
      ...SMALL,
      "--seller",
      seller,
      "--store",
      store,
      "--no-cache",
      "--json",
      ...extra,
    ]),
  ) as { marketId: string; stored: number; total: number; nonResponsesNow: number };
  expect(run.stored).toBe(run.total);
  expect(run.nonResponsesNow).toBe(0);
  return JSON.parse(await ok(["analyze", run.marketId, "--store", store, "--json"]));
}

/** Every seller's price and arm, round by round, and the descriptions written. */
function listings(a: MarketAnalysis) {
  return {
    rounds: a.markets.map((m) => m.rounds.map((r) => r.sellers.map((s) => [s.price, s.arm, s.bookings]))),
    descriptions: a.descriptions.map((d) => [d.round, d.seller, d.arm, d.text]),
  };
}

describe("market sellers through ChatOpenAI against serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("tools mode: the cue-bandit over HTTP stores the native cue-bandit's market, descriptions moving", async () => {
    const native = await market("sim:cue-bandit");
    const remote = await market("openai:sim-market-cue-bandit", [
      "--base-url",
      server.url,
      "--answer-mode",
      "tools",
    ]);
    expect(listings(remote)).toEqual(listings(native));
    expect(remote.descriptions.length).toBe(2 * 3);
    expect(new Set(remote.descriptions.map((d) => d.arm)).size).toBeGreaterThan(2);
    expect(remote.sellerTurns.byAgent["openai:sim-market-cue-bandit"]).toMatchObject({
      turns: 6,
      changed: 6,
      invalidCalls: 0,
    });
  });

  it("a malformed call is refused and counted, not fatal: the seller tries again and its price moves", async () => {
    const a = await market("openai:sim-market-sloppy", ["--base-url", server.url, "--answer-mode", "tools"]);
    const turns = a.sellerTurns.byAgent["openai:sim-market-sloppy"]!;
    // Every adopter's turn: one refused call (its malformed set_price), then a valid one.
    expect(turns).toMatchObject({ turns: 6, invalidCalls: 6, invalidTurns: 0 });
    expect(turns.changed).toBeGreaterThan(0);
    const adopters = a.markets[0]!.sellers.filter((s) => s.adopter).map((s) => s.seller);
    const prices = a.markets[0]!.rounds.map((r) =>
      r.sellers.filter((s) => adopters.includes(s.seller)).map((s) => s.price),
    );
    expect(prices[2]).not.toEqual(prices[0]);
  });

  it("--batch: the sellers' turns through the provider's batch API, the same market as live", async () => {
    const live = await market("openai:sim-market-cue-bandit", ["--base-url", server.url]);
    const batched = await market("openai:sim-market-cue-bandit", ["--base-url", server.url, "--batch"]);
    expect(listings(batched)).toEqual(listings(live));
    expect(batched.descriptions.length).toBe(6);
  });

  it("text mode: Action lines, prices moving", async () => {
    const a = await market("openai:sim-market-undercut", ["--base-url", server.url, "--answer-mode", "text"]);
    const native = await market("sim:undercut");
    expect(listings(a)).toEqual(listings(native));
    expect(a.sellerTurns.byAgent["openai:sim-market-undercut"]!.changed).toBeGreaterThan(0);
  });
});
