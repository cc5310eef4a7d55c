/**
 * Recovery with known truth: scripted buyers whose deal behaviour is fixed, against deterministic
 * rule sellers whose counters follow the time-dependent tactic (specs/bargain.md, Non-LLM
 * opponents), written out here from its definition — so every deal price, and from it every deal
 * rate, discount, normalized profit and paired difference, is known before the run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyzeShop,
  type NegotiationAnalysis,
  shopEpisodesFromRecords,
  shopTables,
} from "../../../analysis/shop/index.ts";
import {
  haggler,
  lister,
  overbidder,
  overpayer,
  quoter,
  runNegotiatingShop,
  type SimRun,
  walker,
} from "./negotiation-sim.ts";

const MAX_STEPS = 12;
const ROUNDS = 3;
/** The tactics' concession exponents (agents/bargain/presets.ts names them; the values are the spec's). */
const E: Record<string, number> = { "rule:linear": 1, "rule:conceder": 2 };

const ceilCents = (x: number) => Math.ceil(x * 100 - 1e-7) / 100;

/**
 * A time-dependent seller's ask at its move j (0-based): from the list price L down to its cost C
 * (shown to it in whole cents, rounded up), target = L + (C − L)·(j/(M − 1))^(1/e), rounded up to a
 * cent, M = the turn limit (the shopper's step budget).
 */
function ask(e: number, list: number, cost: number, j: number): number {
  const to = ceilCents(cost);
  const from = Math.max(list, to);
  const t = Math.min(1, j / (MAX_STEPS - 1));
  return ceilCents(from + (to - from) * t ** (1 / e));
}

interface Neg {
  id: string;
  seller: string;
  listPrice: number;
  cost: number;
  cap: number | null;
  deal: number | null;
}
interface Rec {
  agent: string;
  taskId: string;
  replicate: number;
  booked: { id: string; price: number } | null;
  paid: number | null;
  deadlock: boolean;
  negotiations: Neg[];
}

const SELLERS = ["rule:linear", "rule:conceder"];
const specOf = (role: string) => SELLERS[Number(role.slice(7)) - 1]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The paper's P′_b with its small-gap rule. */
function buyerP(cap: number, cost: number, price: number): number {
  let b = cap;
  if (b - cost >= 0 && b - cost < 1) b = cost + 1;
  else if (b - cost < 0 && b - cost > -1) b = cost - 1;
  return (b - price) / Math.abs(b - cost);
}

let run: SimRun;
let records: Rec[];
let n: NegotiationAnalysis;

beforeAll(async () => {
  run = await runNegotiatingShop({
    buyers: {
      "og-narrator:haggler": haggler(ROUNDS),
      "plain:lister": lister,
      quoter,
      walker: walker(2),
      overpayer,
    },
    sellers: SELLERS,
    tasks: 16,
    replicates: 2,
    maxSteps: MAX_STEPS,
  });
  records = run.exported() as unknown as Rec[];
  const a = analyzeShop(shopEpisodesFromRecords(records), { draws: 100, sellers: SELLERS, seed: "recovery" });
  n = a.negotiation!;
});

afterAll(() => run?.store.close());

describe("scripted buyers against rule sellers: the estimates are the known truth", () => {
  it("every haggler deal is the seller's ask at its third move", () => {
    const deals = records.filter((r) => r.agent === "og-narrator:haggler").flatMap((r) => r.negotiations);
    expect(deals.length).toBe(32);
    for (const x of deals) expect(x.deal).toBe(ask(E[specOf(x.seller)]!, x.listPrice, x.cost, ROUNDS - 1));
  });

  it("deal rate 1 for the haggler and 0 for the walker; the discount and normalized profits of the asks", () => {
    for (const seller of SELLERS) {
      const mine = records
        .filter((r) => r.agent === "og-narrator:haggler")
        .flatMap((r) => r.negotiations)
        .filter((x) => specOf(x.seller) === seller);
      const truth = mine.map((x) => ask(E[seller]!, x.listPrice, x.cost, ROUNDS - 1));
      const p = n.pairs.find((q) => q.buyer === "og-narrator:haggler" && q.seller === seller)!;
      expect(p.dealRate).toMatchObject({ estimate: 1, hits: mine.length });
      expect(p.discount.estimate).toBeCloseTo(
        mean(mine.map((x, i) => (x.listPrice - truth[i]!) / x.listPrice)),
        12,
      );
      expect(p.profits.buyer.estimate).toBeCloseTo(
        mean(mine.map((x, i) => buyerP(x.cap!, x.cost, truth[i]!))),
        12,
      );
      // Only the seller's concession separates the two: the conceder gives more by its third move.
      expect(p.discount.low).toBeLessThan(p.discount.estimate!);
      const w = n.pairs.find((q) => q.buyer === "walker" && q.seller === seller)!;
      expect(w.dealRate).toMatchObject({ estimate: 0, hits: 0 });
      expect(w.discount.estimate).toBeNull();
    }
    const lin = n.pairs.find((q) => q.buyer === "og-narrator:haggler" && q.seller === "rule:linear")!;
    const con = n.pairs.find((q) => q.buyer === "og-narrator:haggler" && q.seller === "rule:conceder")!;
    expect(con.discount.estimate!).toBeGreaterThan(lin.discount.estimate!);
  });

  it("the paired comparison pairs the same tasks and replicates, and its difference is the asks' discount in dollars", () => {
    const c = n.comparisons.find(
      (x) => x.treatment === "og-narrator:haggler" && x.control === "plain:lister",
    )!;
    const control = new Map(
      records.filter((r) => r.agent === "plain:lister").map((r) => [`${r.taskId}#${r.replicate}`, r]),
    );
    const diffs: number[] = [];
    const pDiffs: number[] = [];
    for (const r of records.filter((x) => x.agent === "og-narrator:haggler")) {
      const o = control.get(`${r.taskId}#${r.replicate}`)!;
      // Both booked the same listing: the haggler at the seller's third ask, the other at its list price.
      expect(o.booked!.id).toBe(r.booked!.id);
      const x = r.negotiations[0]!;
      const truth = ask(E[specOf(x.seller)]!, x.listPrice, x.cost, ROUNDS - 1);
      diffs.push(truth - x.listPrice);
      pDiffs.push(buyerP(x.cap!, x.cost, truth) - buyerP(x.cap!, x.cost, x.listPrice));
    }
    expect(c).toMatchObject({ units: 32, tasks: 16 });
    expect(c.paid.units).toBe(32);
    expect(c.paid.difference).toBeCloseTo(mean(diffs), 9);
    expect(c.buyerNormalized.difference).toBeCloseTo(mean(pDiffs), 9);
    expect(c.paid.interval!.high).toBeLessThan(0);
    expect(c.buyerNormalized.interval!.low).toBeGreaterThan(0);
  });

  it("the quoter quotes another seller in every offer but its first; the others never", () => {
    const q = n.quotes.find((x) => x.buyer === "quoter")!;
    const eps = records.filter((r) => r.agent === "quoter" && r.negotiations.length === 2);
    expect(eps.length).toBeGreaterThan(20);
    expect(q.offers).toBe(3 * eps.length);
    expect(q.quoteRate.hits).toBe(2 * eps.length);
    expect(q.bySource).toEqual({ counter: eps.length, list: eps.length });
    expect(q.episodes.estimate).toBe(1);
    // "I accept $X." quotes the same seller's counter: not another seller's price.
    expect(n.quotes.find((x) => x.buyer === "og-narrator:haggler")!.quoteRate).toMatchObject({ hits: 0 });
    expect(n.quotes.find((x) => x.buyer === "og-narrator:haggler")!.withAmount).toBe(32);
  });

  it("the overpayer's deals above the cap are exactly those of listings listed above it", () => {
    const mine = records.filter((r) => r.agent === "overpayer");
    const over = mine.flatMap((r) => r.negotiations).filter((x) => x.listPrice > x.cap!);
    expect(over.length).toBeGreaterThan(0);
    const rk = n.risks.find((r) => r.buyer === "overpayer")!;
    expect(rk.dealsOverCap).toBe(over.length);
    expect(rk.overpayment.hits).toBe(
      mine.filter((r) => r.negotiations.some((x) => x.listPrice > x.cap!)).length,
    );
    expect(rk.paidOverCap.hits).toBe(over.length);
    for (const b of ["og-narrator:haggler", "walker", "quoter"])
      expect(n.risks.find((r) => r.buyer === b)).toMatchObject({ dealsOverCap: 0, deadlock: { hits: 0 } });
  });
});

describe("deadlock", () => {
  it("a buyer still haggling when the steps run out is flagged in every episode", async () => {
    const r = await runNegotiatingShop({
      buyers: { stubborn: haggler(50), walker: walker(1) },
      sellers: ["rule:boulware"],
      tasks: 4,
      replicates: 1,
      maxSteps: 5,
    });
    try {
      const a = analyzeShop(shopEpisodesFromRecords(r.records()), { draws: 0 }).negotiation!;
      expect(a.risks.find((x) => x.buyer === "stubborn")!.deadlock).toMatchObject({ estimate: 1, n: 4 });
      expect(a.risks.find((x) => x.buyer === "walker")!.deadlock).toMatchObject({ estimate: 0, n: 4 });
      expect(a.buyers.find((x) => x.buyer === "stubborn")!.dealRate.estimate).toBe(0);
    } finally {
      r.store.close();
    }
  });
});

describe("offers above the list price and offer rounds, as risk flags", () => {
  it("flags every bid above a list price, and no bid at it: the overbidder in each episode it haggles, the overpayer never", async () => {
    const r = await runNegotiatingShop({
      buyers: { overbidder, overpayer, walker: walker(1) },
      sellers: ["rule:linear"],
      tasks: 6,
      replicates: 1,
    });
    try {
      const episodes = shopEpisodesFromRecords(r.records());
      const a = analyzeShop(episodes, { draws: 0 }).negotiation!;
      const haggled = episodes.filter(
        (e) =>
          e.agent === "overbidder" && (e as unknown as { negotiations: unknown[] }).negotiations.length > 0,
      );
      expect(haggled.length).toBeGreaterThan(2);
      const over = a.risks.find((x) => x.buyer === "overbidder")!;
      expect(over).toMatchObject({ offers: haggled.length, offersOverList: haggled.length });
      expect(over.overList).toMatchObject({ hits: haggled.length, n: 6 });
      // The overpayer bids exactly the list price: at it, not above it.
      const atList = a.risks.find((x) => x.buyer === "overpayer")!;
      expect(atList.offers).toBeGreaterThan(0);
      expect(atList).toMatchObject({ offersOverList: 0, overList: { hits: 0 } });
      expect(a.risks.find((x) => x.buyer === "walker")).toMatchObject({ offersOverList: 0 });
      const risks = shopTables(analyzeShop(episodes, { draws: 0 })).find((t) =>
        t.title.startsWith("Risk flags"),
      )!;
      expect(risks.header).toContain("offers over list");
      expect(risks.header).not.toContain("out of offer rounds");
      expect(risks.rows.find((row) => row[0] === "overbidder")).toContain(
        `${haggled.length} of ${haggled.length}`,
      );
    } finally {
      r.store.close();
    }
  });

  it("negotiations that ran out of offer rounds are counted apart, and are no deadlock", async () => {
    const r = await runNegotiatingShop({
      buyers: { walker: walker(2) },
      sellers: ["rule:linear"],
      tasks: 6,
      replicates: 1,
      offerRounds: 2,
    });
    try {
      const a = analyzeShop(shopEpisodesFromRecords(r.records()), { draws: 0 });
      const rk = a.negotiation!.risks[0]!;
      // A lowball is below every seller's cost, so no deal: each pair ends at its second answer.
      expect(rk.negotiations).toBeGreaterThan(2);
      expect(rk.atTurnLimit).toBe(rk.negotiations);
      expect(rk.deadlock.hits).toBe(0);
      const risks = shopTables(a).find((t) => t.title.startsWith("Risk flags"))!;
      expect(risks.header.at(-1)).toBe("out of offer rounds");
      expect(risks.rows[0]!.at(-1)).toBe(`${rk.negotiations} of ${rk.negotiations}`);
    } finally {
      r.store.close();
    }
  });
});
