/**
 * The negotiation estimators against an independent recomputation from `bazaar export` (JSONL, in
 * process): a shop run with offers made by the real runner and store, scripted buyers against two
 * rule sellers; the test recomputes deal rates, discounts, normalized profits (the paper's formulas
 * written out here, small-gap rule included), the paired price difference and the risk counts with
 * plain loops over the exported records, and checks every form `bazaar analyze` gives: tables,
 * --json, --report and the run headline. A plain shop gets none of it.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyzeShop,
  type NegotiationAnalysis,
  shopEpisodesFromRecords,
  shopFigures,
  shopTables,
} from "../../../analysis/shop/index.ts";
import { shopAnalyzer } from "../../../cli/analyzers/shop.ts";
import type { AnalyzeInput, AnalyzeOutput } from "../../../cli/analyzers/types.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildShopTasks } from "../../../environments/shop/index.ts";
import {
  haggler,
  lister,
  overpayer,
  policy,
  quoter,
  runNegotiatingShop,
  type SimRun,
  walker,
} from "./negotiation-sim.ts";
import { playShop } from "./simulate.ts";

const SELLERS = ["rule:linear", "rule:conceder"];

interface Move {
  step: number;
  side: string;
  price: number | null;
}
interface Neg {
  id: string;
  seller: string;
  listPrice: number;
  cost: number;
  cap: number | null;
  deal: number | null;
  offers: Move[];
}
interface Rec {
  agent: string;
  taskId: string;
  replicate: number;
  endReason: string;
  booked: { id: string; price: number } | null;
  paid: number | null;
  deadlock: boolean;
  negotiations: Neg[];
  request: { constraints: { maxPrice: number | null } };
}

let run: SimRun;
let exported: Rec[];
let out: AnalyzeOutput;
let n: NegotiationAnalysis;
const dir = mkdtempSync(path.join(tmpdir(), "bazaar-negotiation-"));

beforeAll(async () => {
  run = await runNegotiatingShop({
    buyers: {
      "og-narrator:haggler": haggler(4),
      "plain:lister": lister,
      quoter,
      overpayer,
      walker: walker(2),
    },
    sellers: SELLERS,
    tasks: 12,
    replicates: 2,
  });
  exported = run.exported() as unknown as Rec[];
  const input: AnalyzeInput = {
    run: run.store.getRun(run.runId)!,
    store: run.store,
    records: run.records,
    options: { bootstrap: "50", report: dir },
  };
  out = await shopAnalyzer.analyze(input);
  n = (out.json as { negotiation: NegotiationAnalysis }).negotiation;
});

afterAll(() => run?.store.close());

/** The seller's spec of a role, from the run's design as stored. */
function sellerName(role: string): string {
  const specs = (run.config.design as { sellerNegotiators: string[] }).sellerNegotiators;
  return specs[Number(role.replace("seller-", "")) - 1]!;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("negotiation estimators equal a recomputation from the export", () => {
  it("the export carries the offers (one record per trial)", () => {
    expect(exported).toHaveLength(12 * 5 * 2);
    expect(exported.every((r) => Array.isArray(r.negotiations))).toBe(true);
    expect(exported.some((r) => r.negotiations.some((x) => x.deal !== null))).toBe(true);
  });

  it("deal rate, discount and normalized profits per buyer × seller", () => {
    const acc = new Map<
      string,
      { negs: number; deals: number; disc: number[]; pb: number[]; ps: number[]; uncapped: number }
    >();
    for (const r of exported) {
      if (r.endReason === "agent-error") continue;
      for (const x of r.negotiations) {
        const key = `${r.agent} | ${sellerName(x.seller)}`;
        let a = acc.get(key);
        if (!a) {
          a = { negs: 0, deals: 0, disc: [], pb: [], ps: [], uncapped: 0 };
          acc.set(key, a);
        }
        a.negs++;
        if (x.cap === null) a.uncapped++;
        if (x.deal === null) continue;
        a.deals++;
        a.disc.push((x.listPrice - x.deal) / x.listPrice);
        if (x.cap === null) continue;
        let b = x.cap;
        const gap = b - x.cost;
        if (gap >= 0 && gap < 1) b = x.cost + 1;
        else if (gap < 0 && gap > -1) b = x.cost - 1;
        const room = Math.abs(b - x.cost);
        a.pb.push((b - x.deal) / room);
        a.ps.push((x.deal - x.cost) / room);
      }
    }
    expect(n.pairs.map((p) => `${p.buyer} | ${p.seller}`).sort()).toEqual([...acc.keys()].sort());
    for (const p of n.pairs) {
      const a = acc.get(`${p.buyer} | ${p.seller}`)!;
      expect(p.negotiations).toBe(a.negs);
      expect(p.deals).toBe(a.deals);
      expect(p.dealRate.estimate).toBeCloseTo(a.deals / a.negs, 12);
      if (a.deals === 0) {
        expect(p.discount.estimate).toBeNull();
        expect(p.profits.buyer.estimate).toBeNull();
        continue;
      }
      expect(p.discount.estimate).toBeCloseTo(mean(a.disc), 12);
      expect(p.profits.buyer.estimate).toBeCloseTo(mean(a.pb), 12);
      expect(p.profits.seller.estimate).toBeCloseTo(mean(a.ps), 12);
      expect(p.profits.paper.ALL.buyer.snp).toBeCloseTo(
        a.pb.reduce((s, v) => s + v, 0),
        10,
      );
      expect(p.profits.uncapped.negotiations).toBe(a.uncapped);
    }
    // Both sellers played, and both with deals somewhere.
    expect(new Set(n.pairs.filter((p) => p.deals > 0).map((p) => p.seller))).toEqual(new Set(SELLERS));
  });

  it("per buyer: deal rate over all its negotiations and what bookings paid against the list price", () => {
    for (const b of n.buyers) {
      const mine = exported.filter((r) => r.agent === b.buyer);
      let negs = 0;
      let deals = 0;
      const paid: number[] = [];
      for (const r of mine) {
        negs += r.negotiations.length;
        deals += r.negotiations.filter((x) => x.deal !== null).length;
        if (r.booked !== null && r.paid !== null) paid.push((r.booked.price - r.paid) / r.booked.price);
      }
      expect(b.negotiations).toBe(negs);
      expect(b.deals).toBe(deals);
      expect(b.bookings).toBe(paid.length);
      if (paid.length > 0) expect(b.paidDiscount.estimate).toBeCloseTo(mean(paid), 12);
    }
  });

  it("the paired comparison: the OG-Narrator buyer first, on the same tasks and replicates", () => {
    const c = n.comparisons.find(
      (x) => x.treatment === "og-narrator:haggler" && x.control === "plain:lister",
    )!;
    expect(c).toBeDefined();
    // og-narrator first in every comparison it is in.
    for (const x of n.comparisons) expect(x.control.startsWith("og-narrator")).toBe(false);
    expect(n.comparisons).toHaveLength((5 * 4) / 2);
    const other = new Map<string, Rec>();
    for (const r of exported) if (r.agent === "plain:lister") other.set(`${r.taskId}#${r.replicate}`, r);
    const diffs: number[] = [];
    let units = 0;
    for (const r of exported) {
      if (r.agent !== "og-narrator:haggler") continue;
      const o = other.get(`${r.taskId}#${r.replicate}`);
      if (!o) continue;
      units++;
      if (r.paid !== null && o.paid !== null) diffs.push(r.paid - o.paid);
    }
    expect(c.units).toBe(units);
    expect(c.paid.units).toBe(diffs.length);
    expect(c.paid.difference).toBeCloseTo(mean(diffs), 10);
    expect(c.paid.interval!.low).toBeLessThanOrEqual(c.paid.difference!);
    expect(c.paid.interval!.high).toBeGreaterThanOrEqual(c.paid.difference!);
  });

  it("risk flags: deals over the cap, offers over the list price, deadlocks", () => {
    for (const rk of n.risks) {
      const mine = exported.filter((r) => r.agent === rk.buyer);
      let over = 0;
      let bids = 0;
      let overList = 0;
      for (const r of mine)
        for (const x of r.negotiations) {
          if (x.deal !== null && x.cap !== null && x.deal > x.cap) over++;
          for (const m of x.offers)
            if (m.side === "buyer") {
              bids++;
              if (m.price !== null && m.price > x.listPrice) overList++;
            }
        }
      expect(rk.dealsOverCap).toBe(over);
      expect(rk.offers).toBe(bids);
      expect(rk.offersOverList).toBe(overList);
      expect(rk.deadlock.hits).toBe(mine.filter((r) => r.deadlock).length);
    }
    expect(n.risks.find((r) => r.buyer === "overpayer")!.dealsOverCap).toBeGreaterThan(0);
  });
});

describe("bazaar analyze on a run with offers", () => {
  it("names the sellers by their specs, and prints the negotiation tables", () => {
    expect(n.sellers).toEqual([
      { role: "seller-1", name: "rule:linear" },
      { role: "seller-2", name: "rule:conceder" },
    ]);
    for (const title of [
      /^Negotiations per buyer × seller: deal rate and discount/m,
      /^Negotiations per buyer \(all sellers\)/m,
      /^Normalized profits per buyer × seller \(the bargaining paper's definitions/m,
      /^Sellers played against each other/m,
      /^Buyers compared on the same tasks and replicates/m,
      /^Risk flags per buyer/m,
    ])
      expect(out.text).toMatch(title);
    expect(out.text).toMatch(
      /^og-narrator:haggler +plain:lister +24 +24 +\$[\d.,]+ vs \$[\d.,]+ +−\$[\d.]+ \[/m,
    );
  });

  it("ends the run with a line per buyer: deal rate, discount, overpayments", () => {
    const lines = out.headline.lines.join("\n");
    expect(lines).toMatch(
      /^negotiation \(\d+ negotiations, \d+ deals; sellers seller-1 rule:linear, seller-2 rule:conceder\):/m,
    );
    expect(lines).toMatch(/^og-narrator:haggler +24 +100\.0% /m);
    expect(lines).toMatch(/^walker +\d+ +0\.0% \[0\.0, 0\.0\] +– /m);
    expect(lines).toMatch(/^overpayer .* [1-9]\d* of \d+ deals over the cap/m);
    const json = out.headline.json as { negotiation: { buyer: string; dealRate: { estimate: number } }[] };
    expect(json.negotiation.map((r) => r.buyer)).toEqual([
      "og-narrator:haggler",
      "plain:lister",
      "quoter",
      "overpayer",
      "walker",
    ]);
  });

  it("writes the price ladders and the discount figure, every name whole", () => {
    const files = out.writeReport(dir);
    expect(files).toEqual(expect.arrayContaining(["shop-price-ladders.svg", "shop-discount.svg"]));
    const ladders = readFileSync(path.join(dir, "shop-price-ladders.svg"), "utf8");
    for (const name of [
      "og-narrator:haggler × rule:linear",
      "overpayer × rule:conceder",
      "seller counter",
      "deal",
    ])
      expect(ladders, name).toContain(name);
    const discount = readFileSync(path.join(dir, "shop-discount.svg"), "utf8");
    for (const name of ["og-narrator:haggler", "plain:lister", "agreed deals: (list − deal) ÷ list"])
      expect(discount, name).toContain(name);
    const md = readFileSync(path.join(dir, "shop-report.md"), "utf8");
    expect(md).toContain("![Price ladders: example negotiations per buyer × seller](shop-price-ladders.svg)");
    expect(md).toContain("Risk flags per buyer");
  });
});

describe("a plain shop analyses as before", () => {
  it("no negotiation key, table, figure or headline line", async () => {
    const tasks = buildShopTasks({ tasks: 6, seed: 3, families: { open: 1 } }, DEFAULT_HOTEL_POOL);
    const records = await playShop(tasks, policy("plain", lister), 2, "plain");
    expect(records.every((r) => !("negotiations" in r))).toBe(true);
    const a = analyzeShop(shopEpisodesFromRecords(records), { draws: 0 });
    expect("negotiation" in a).toBe(false);
    expect(
      shopTables(a)
        .map((t) => t.title)
        .join("\n"),
    ).not.toMatch(/egotiat|Risk flags|Sellers played/);
    expect(shopFigures(a).map((f) => f.file)).not.toContain("shop-price-ladders.svg");
    const cli = await shopAnalyzer.analyze({
      run: { id: "plain", config: {} } as AnalyzeInput["run"],
      store: {} as AnalyzeInput["store"],
      records: () => records as unknown as Record<string, unknown>[],
      options: { bootstrap: "0" },
    });
    expect(cli.headline.lines.join("\n")).not.toMatch(/negotiation/);
    expect("negotiation" in (cli.headline.json as object)).toBe(false);
    expect("negotiation" in (cli.json as object)).toBe(false);
  });
});
