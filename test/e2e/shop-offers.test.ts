/**
 * Offers through the CLI (in process): `run shop --negotiable` stores episodes whose records carry
 * each listing's negotiator and cost and the negotiation fields of the export contract; bad offer
 * options are refused before anything is written; `run market --negotiable` runs its rounds with
 * offers; a seller negotiator from outside plays as natively; and each offer rule is played through
 * the CLI by a `module:` shopper (agents from outside are given the offer tool).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceOf } from "../../environments/kernel/surface.ts";
import { SHOP_WITH_OFFERS, surfaceEnvironment } from "../../environments/registry.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

/** A stored run exported through the CLI (`bazaar export`), its records read back. */
async function exportedRecords<T = Record<string, unknown>>(runId: string, store: string): Promise<T[]> {
  const out = path.join(tempDir(), "export.jsonl");
  expect((await runInProcess(["export", runId, "--store", store, "--out", out])).code).toBe(0);
  return readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as T);
}

describe("offers from the command line", () => {
  it("refuses impossible offer options with a message saying what and how, storing nothing", async () => {
    const store = path.join(tempDir(), "bad.db");
    const cases: [string[], RegExp][] = [
      [["--seller-negotiator", "rule:boulware"], /--seller-negotiator needs --negotiable/],
      [["--offer-rounds", "3"], /--offer-rounds needs --negotiable/],
      [["--negotiable", "0.5", "--offer-rounds", "0"], /--offer-rounds/],
      [["--negotiable", "1.5"], /--negotiable.*rate from 0 to 1/],
      [["--negotiable", "0.5", "--seller-negotiator", "rule:nope"], /unknown seller "rule:nope"/],
      [["--negotiable", "0.5", "--seller-negotiator", "rule:linear,rule:linear"], /named twice/],
      // An mcp: seller is served (exec: and module: sellers play in run: test/e2e/outside-sellers.long.test.ts).
      [
        ["--negotiable", "0.5", "--seller-negotiator", "mcp:my-seller"],
        /mcp: agents connect to bazaar serve[\s\S]*bazaar serve shop --negotiable <share> --role seller --agent-name my-seller/,
      ],
    ];
    for (const [extra, message] of cases) {
      const r = await runInProcess(["run", "shop", "--tasks", "2", "--store", store, ...extra]);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect(existsSync(store)).toBe(false);
  });

  it("a shop run with offers exports each listing's negotiator and cost, and every episode's negotiations, price paid and deadlock flag", async () => {
    const dir = tempDir();
    const store = path.join(dir, "offers.db");
    const run = await runInProcess([
      "run",
      "shop",
      "--tasks",
      "6",
      "--replicates",
      "1",
      "--agent",
      "sim:careful",
      "--negotiable",
      "0.5",
      "--seller-negotiator",
      "rule:boulware,sim:llm",
      "--offer-rounds",
      "4",
      "--store",
      store,
      "--json",
    ]);
    expect(run.code, run.err).toBe(0);
    const runId = (JSON.parse(run.out) as { runId: string }).runId;
    const records = await exportedRecords(runId, store);
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.rules).toMatchObject({ offers: true, offerRounds: 4 });
      expect(Array.isArray(r.negotiations)).toBe(true);
      expect(typeof r.deadlock).toBe("boolean");
      const booked = r.booked as { price: number } | null;
      expect(r.paid).toBe(booked ? booked.price : null);
      const shown = r.shown as { negotiation?: { seller: string; cost: number }; price: number }[];
      const negotiable = shown.filter((s) => s.negotiation);
      for (const s of negotiable) {
        expect(["seller-1", "seller-2"]).toContain(s.negotiation!.seller);
        expect(s.negotiation!.cost).toBeLessThan(s.price);
      }
    }
    expect(records.some((r) => (r.shown as { negotiation?: unknown }[]).some((s) => s.negotiation))).toBe(
      true,
    );
  });

  it("a market with offers runs its rounds through the shop with offers", async () => {
    const store = path.join(tempDir(), "market.db");
    const r = await runInProcess([
      "run",
      "market",
      "--sellers",
      "4",
      "--rounds",
      "2",
      "--buyers-per-round",
      "6",
      "--negotiable",
      "0.5",
      "--seller-negotiator",
      "rule:linear",
      "--buyer",
      "sim:seller-playing-haggler",
      "--store",
      store,
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const marketId = (JSON.parse(r.out) as { marketId: string }).marketId;
    // Each round's haggling as the buyer episodes' records have it: deals booked, paid against list.
    const a = JSON.parse((await runInProcess(["analyze", marketId, "--store", store, "--json"])).out) as {
      markets: {
        rounds: { round: number; bookings: number; haggled?: { dealBookings: number; discount: number } }[];
      }[];
    };
    const booked = (
      await exportedRecords<{ booked: { price: number } | null; paid: number | null }>(
        `${marketId}-r01-buyers`,
        store,
      )
    ).filter((x) => x.booked);
    const round1 = a.markets[0]!.rounds.find((x) => x.round === 1)!;
    expect(round1.haggled!.dealBookings).toBe(booked.filter((x) => x.paid! < x.booked!.price).length);
    expect(round1.haggled!.dealBookings).toBeGreaterThan(0);
    const list = booked.reduce((t, x) => t + x.booked!.price, 0);
    const paid = booked.reduce((t, x) => t + x.paid!, 0);
    expect(round1.haggled!.discount).toBeCloseTo(1 - paid / list, 12);
    expect((await runInProcess(["analyze", marketId, "--store", store])).out).toMatch(/bookings at a deal/);
    const again = await runInProcess([
      "run",
      "market",
      "--sellers",
      "4",
      "--rounds",
      "2",
      "--buyers-per-round",
      "6",
      "--store",
      store,
      "--json",
    ]);
    expect(again.code).toBe(0);
    // Without offers it is another market (its identity names the negotiators).
    expect(JSON.parse(again.out).marketId).not.toBe(JSON.parse(r.out).marketId);
  });

  it("a seller negotiator from outside (module:) answers offers exactly as the same policy natively", async () => {
    const dir = tempDir();
    const exported = async (seller: string, name: string) => {
      const store = path.join(dir, `${name}.db`);
      const args = ["run", "shop", "--tasks", "6", "--replicates", "1", "--negotiable", "1"];
      const r = await runInProcess([
        ...args,
        "--agent",
        "sim:seller-playing-haggler",
        "--seller-negotiator",
        seller,
        "--store",
        store,
        "--json",
      ]);
      expect(r.code, r.err).toBe(0);
      const runId = (JSON.parse(r.out) as { runId: string }).runId;
      return exportedRecords<{
        taskId: string;
        negotiations: { deal: number | null }[];
        paid: number | null;
      }>(runId, store);
    };
    const outside = await exported("module:test/fixtures/outside-modules/sim-agents.ts#boulware", "outside");
    const native = await exported("rule:boulware", "native");
    expect(outside.map((r) => [r.taskId, r.negotiations, r.paid])).toEqual(
      native.map((r) => [r.taskId, r.negotiations, r.paid]),
    );
    expect(outside.some((r) => r.negotiations.some((n) => n.deal !== null))).toBe(true);
  });

  it("gives agents from outside (MCP, exec:, module:) the offer tool in a shop with offers, and only there", () => {
    const names = (env: string) => surfaceOf(surfaceEnvironment(env), "shopper").tools.map((t) => t.name);
    expect(names(SHOP_WITH_OFFERS)).toEqual(["search", "view", "offer", "book", "give_up"]);
    expect(names("shop")).toEqual(["search", "view", "book", "give_up"]);
  });

  describe("the offer rules, each played through the CLI by a module: shopper against rule:linear", () => {
    const FIXTURE = "test/fixtures/outside-modules/offer-rules.ts";
    const played = async (exportName: string, extra: string[] = []) => {
      const dir = tempDir();
      const store = path.join(dir, "rules.db");
      const r = await runInProcess([
        "run",
        "shop",
        "--tasks",
        "4",
        "--families",
        "open",
        "--replicates",
        "1",
        "--negotiable",
        "0.5",
        "--seller-negotiator",
        "rule:linear",
        "--agent",
        `module:${FIXTURE}#${exportName}`,
        "--store",
        store,
        "--json",
        ...extra,
      ]);
      expect(r.code, r.err).toBe(0);
      const runId = (JSON.parse(r.out) as { runId: string }).runId;
      return exportedRecords<ExportedEpisode>(runId, store);
    };
    interface ExportedEpisode {
      endReason: string;
      paid: number | null;
      deadlock: boolean;
      booked: { id: string; price: number } | null;
      negotiations: {
        id: string;
        deal: number | null;
        offers: { side: string; move: string; price: number | null; answer?: string }[];
      }[];
      trajectory: { tool: string; ok: boolean; summary: string }[];
    }

    it("an offer to a listing that takes none is answered with an error, and no negotiation starts", async () => {
      for (const e of await played("offersToPlain")) {
        const offer = e.trajectory.find((t) => t.tool === "offer")!;
        expect(offer.ok).toBe(false);
        expect(offer.summary).toMatch(/does not take offers/);
        expect(e.negotiations).toEqual([]);
      }
    });

    it("a deal only at a price the counterpart offered: the shopper's offer at the seller's counter is the deal, and book pays it", async () => {
      for (const e of await played("takesCounter")) {
        const n = e.negotiations[0]!;
        const counter = n.offers.findLast((m) => m.side === "seller" && m.move === "counter")!;
        const taken = n.offers.at(-1)!;
        expect(taken).toMatchObject({ side: "buyer", move: "offer", price: counter.price, answer: "deal" });
        expect(n.deal).toBe(counter.price);
        expect(e.endReason).toBe("booked");
        expect(e.booked!.id).toBe(n.id);
        expect(e.paid).toBe(n.deal);
        expect(e.paid!).toBeLessThan(e.booked!.price);
      }
    });

    it("a counter on the last step ends the episode out of steps with the deadlock flag", async () => {
      for (const e of await played("neverAgrees", ["--max-steps", "6"])) {
        expect(e.endReason).toBe("out-of-steps");
        expect(e.deadlock).toBe(true);
        const n = e.negotiations[0]!;
        expect(n.deal).toBeNull();
        expect(n.offers.at(-1)).toMatchObject({ side: "seller", move: "counter" });
      }
    });
  });
});
