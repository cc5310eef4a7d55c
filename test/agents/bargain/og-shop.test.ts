/**
 * The OG-Narrator as a market buyer: it never offers above the request's cap (every offer of many
 * seeded episodes, against rule and simulated sellers, with several schedules and budgets), its
 * offers are the paper's schedule of the cap, it books the cheapest admissible deal or list price,
 * within the step budget; the narrator words each offer from that pair's dialogue alone and cannot
 * change its price; with an LLM narrator that never gives a sentence (serve-sim), every offer is the
 * template line, noted on its move and counted by the analysis as a fallback; the shop registry
 * refuses it without offers.
 */
import { describe, expect, it } from "vitest";
import type { NarrationRequest, Narrator } from "../../../agents/bargain/narrator.ts";
import { offerAt, parseSchedule, scheduleFactors } from "../../../agents/bargain/offer-generator.ts";
import { OgShopBuyer, ogShopEntry } from "../../../agents/bargain/og-shop.ts";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import { analyzeShop, shopEpisodesFromRecords, shopTables } from "../../../analysis/shop/index.ts";
import { shopHeadline } from "../../../cli/analyzers/shop.ts";
import { resolveShopAgent } from "../../../cli/run/shop-plan.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { isNarratorFallbackNote } from "../../../environments/bargain/record.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { type Agent, type AgentContext, emptyUsage } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  isAdmissible,
  type ShopOutcome,
  type ShopTask,
  shopTrialRecord,
} from "../../../environments/shop/index.ts";
import { playWithSellers } from "../../environments/shop/helpers.ts";

/** An episode as the store keeps it (the export record), for the analysis. */
function recordOf(task: ShopTask, agent: string, outcome: ShopOutcome): object {
  return JSON.parse(
    JSON.stringify(
      shopTrialRecord({
        run: "r",
        trialKey: agent,
        seq: 0,
        agent,
        replicate: 0,
        task,
        outcome,
        usage: emptyUsage(),
      }),
    ),
  );
}

function play(
  task: ShopTask,
  shopper: Agent<unknown, unknown>,
  sellers: readonly string[],
  seed = "og",
): Promise<ShopOutcome> {
  return playWithSellers(task, shopper, sellers, seed);
}

const og = (schedule?: string) =>
  ogShopEntry("og-narrator", { settings: {} }, { ogSchedule: schedule ? parseSchedule(schedule) : undefined })
    .players.shopper!;

/** What a booking could have cost: the lowest deal or list price among the admissible listings shown. */
function cheapestOnOffer(task: ShopTask, o: ShopOutcome): number {
  const deals = new Map(o.negotiations!.map((n) => [n.id, n.deal]));
  const prices = o.shown
    .filter((s) => task.admissible.includes(s.id))
    .map((s) => deals.get(s.id) ?? task.listings.find((l) => l.id === s.id)!.price);
  return Math.min(...prices);
}

describe("the OG-Narrator in the shop", () => {
  it("never offers above the cap, and books the cheapest admissible deal or list price within the step budget", async () => {
    const designs: [{ seed: number; negotiable: number; maxSteps: number }, string[]][] = [
      [{ seed: 3, negotiable: 0.5, maxSteps: 15 }, ["rule:boulware", "sim:llm"]],
      [{ seed: 4, negotiable: 1, maxSteps: 15 }, ["rule:conceder", "rule:tit-for-tat", "sim:anchored"]],
      [{ seed: 5, negotiable: 0.7, maxSteps: 30 }, ["rule:linear", "sim:erratic", "rule:hardliner"]],
      [{ seed: 6, negotiable: 0.3, maxSteps: 8 }, ["sim:savvy", "rule:conceder"]],
    ];
    let offers = 0;
    let deals = 0;
    for (const [design, sellers] of designs) {
      const tasks = buildShopTasks({ tasks: 30, negotiators: sellers.length, ...design }, DEFAULT_HOTEL_POOL);
      for (const schedule of [undefined, "exp", "0.4,0.7,0.9"]) {
        const buyer = og(schedule);
        for (const task of tasks) {
          const o = await play(task, buyer, sellers);
          const where = `${task.taskId} ${schedule ?? "linear"} ${sellers.join(",")}`;
          const cap = task.request.constraints.maxPrice!;
          expect(o.steps, where).toBeLessThanOrEqual(task.rules.maxSteps);
          expect(o.invalidCalls, where).toBe(0);
          for (const n of o.negotiations!) {
            expect(task.admissible, where).toContain(n.id);
            for (const m of n.offers) {
              if (m.side !== "buyer") continue;
              offers++;
              expect(m.price!, where).toBeLessThanOrEqual(cap);
              expect(m.price!, where).toBeLessThan(n.listPrice);
            }
            if (n.deal !== null) deals++;
          }
          if (task.admissible.length === 0) {
            expect(o.endReason, where).toBe("gave-up");
            continue;
          }
          expect(o.endReason, where).toBe("booked");
          expect(task.admissible, where).toContain(o.bookedId);
          expect(o.paid, where).toBe(cheapestOnOffer(task, o));
        }
      }
    }
    expect(offers).toBeGreaterThan(500);
    expect(deals).toBeGreaterThan(20);
  });

  it("offers the paper's schedule of min(cap, list price) to every negotiable seller the budget fits, while below the list price", async () => {
    const tasks = buildShopTasks(
      { tasks: 30, seed: 9, negotiable: 0.6, negotiators: 1, families: { open: 1 } },
      DEFAULT_HOTEL_POOL,
    );
    let checked = 0;
    for (const task of tasks) {
      // A hardliner always asks the list price: the generator's offers run their whole course.
      const o = await play(task, og(), ["rule:hardliner"]);
      const n = o.negotiations!;
      if (n.length === 0) continue;
      const cap = task.request.constraints.maxPrice!;
      const shown = o.shown.map((s) => task.listings.find((l) => l.id === s.id)!);
      const negotiable = shown
        .filter((l) => task.admissible.includes(l.id) && l.negotiation)
        .sort((a, b) => a.price - b.price);
      // The plan, by hand: as many sellers as get 2+ steps each (the paper's 6 at most), one step to book.
      const left = task.rules.maxSteps - (Math.min(...n.map((x) => x.offers[0]!.step)) - 1);
      let sellers = negotiable.length;
      let steps = 0;
      for (; sellers >= 1; sellers--) {
        steps = Math.min(6, Math.floor((left - 1) / sellers));
        if (steps >= 2) break;
      }
      const factors = scheduleFactors({ kind: "linear", start: 0.5, end: 1 }, steps);
      for (const l of negotiable.slice(0, sellers)) {
        const expected = factors
          .map((f) => offerAt(f, Math.min(cap, l.price)))
          .filter((p, i, all) => p < l.price && all.slice(0, i).every((q) => q < l.price));
        const made =
          n
            .find((x) => x.id === l.id)
            ?.offers.filter((m) => m.side === "buyer")
            .map((m) => m.price) ?? [];
        expect(made, `${task.taskId} ${l.id}`).toEqual(expected);
        checked++;
      }
      for (const x of n) expect(negotiable.slice(0, sellers).map((l) => l.id)).toContain(x.id);
      expect(o.paid).toBe(cheapestOnOffer(task, o));
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("takes the list price as the budget when the request has no cap", async () => {
    const [base] = buildShopTasks(
      { tasks: 4, seed: 12, negotiable: 1, negotiators: 1, families: { open: 1 } },
      DEFAULT_HOTEL_POOL,
    );
    const constraints = { ...base!.request.constraints, maxPrice: null };
    const task: ShopTask = {
      ...base!,
      request: { ...base!.request, constraints },
      admissible: base!.listings.filter((l) => isAdmissible(l, constraints)).map((l) => l.id),
    };
    const o = await play(task, og(), ["rule:linear"]);
    expect(o.negotiations!.length).toBeGreaterThan(0);
    for (const n of o.negotiations!) {
      const first = n.offers[0]!;
      expect(first.price).toBe(offerAt(0.5, n.listPrice));
      for (const m of n.offers) if (m.side === "buyer") expect(m.price!).toBeLessThan(n.listPrice);
    }
    expect(task.admissible).toContain(o.bookedId);
  });

  it("words each offer with the narrator from that pair's dialogue alone; the narrator cannot change the price", async () => {
    const asked: NarrationRequest[] = [];
    const narrator: Narrator = {
      identity: { kind: "test" },
      async narrate(request) {
        asked.push(request);
        return {
          talk: `${"I insist on $1. ".repeat(60)}`,
          usage: {
            calls: 1,
            cacheHits: 0,
            inputTokens: 10,
            outputTokens: 5,
            reasoningTokens: 0,
            latencyMs: 1,
          },
        };
      },
    };
    const buyer = new OgShopBuyer("og-test", parseSchedule("linear"), narrator);
    const task = buildShopTasks(
      { tasks: 4, seed: 5, negotiable: 1, negotiators: 2 },
      DEFAULT_HOTEL_POOL,
    ).find((t) => t.family === "open")!;
    const usages: number[] = [];
    const metered: Agent<unknown, unknown> = {
      id: "og-test",
      async act(obs, ctx) {
        const acted = await buyer.act(obs as never, ctx as AgentContext);
        usages.push(acted.usage?.calls ?? 0);
        return acted;
      },
    };
    const o = await play(task, metered, ["rule:conceder", "rule:linear"]);
    const buyerMoves = o.negotiations!.flatMap((n) => n.offers.filter((m) => m.side === "buyer"));
    expect(asked).toHaveLength(buyerMoves.length);
    expect(usages.reduce((a, b) => a + b, 0)).toBe(buyerMoves.length);
    for (const m of buyerMoves) expect(m.message.length).toBe(600);
    for (const r of asked) {
      const n = o.negotiations!.find((x) => x.id === r.view.codename)!;
      expect(r.view.role).toBe("buyer");
      // The pair's budget: the cap, or the list price where that is lower.
      expect(r.view.limit).toBe(Math.min(task.request.constraints.maxPrice!, n.listPrice));
      expect(r.view.listedPrice).toBe(n.listPrice);
      // Only this pair's moves: every price in its history is one of this negotiation's.
      const prices = n.offers.map((m) => m.price);
      for (const h of r.view.history) if (h.price !== null) expect(prices).toContain(h.price);
    }
    // Prices are the generator's, whatever the narrator said ("$1").
    for (const m of buyerMoves) expect(m.price!).toBeGreaterThan(1);
  });

  it("with an LLM narrator over HTTP (serve-sim): a model that never gives a sentence is asked 3 times an offer, then the template line is said", async () => {
    const server = await startSimServer({ port: 0 });
    try {
      const entry = resolveShopAgent(
        "og-narrator:openai:sim-bargain-llm",
        { settings: { baseURL: server.url } },
        true,
      );
      const shopper = entry.players.shopper!;
      let calls = 0;
      const counted: Agent<unknown, unknown> = {
        id: entry.label,
        async act(obs, ctx) {
          const acted = await shopper.act(obs, ctx);
          calls += acted.usage?.calls ?? 0;
          return acted;
        },
      };
      const task = buildShopTasks(
        { tasks: 4, seed: 5, negotiable: 1, negotiators: 1 },
        DEFAULT_HOTEL_POOL,
      ).find((t) => t.family === "open")!;
      const o = await play(task, counted, ["rule:linear"]);
      const said = o.negotiations!.flatMap((n) => n.offers.filter((m) => m.side === "buyer"));
      expect(said.length).toBeGreaterThan(0);
      expect(calls).toBe(3 * said.length);
      expect(said[0]!.message).toMatch(/^Hi! Would you take \$[\d.]+\?$/);
      expect(o.endReason).toBe("booked");
      // Each offer carries the narrator's fallback note on its move, the note bargaining counts.
      for (const m of said) expect(isNarratorFallbackNote(m.note), m.message).toBe(true);

      // The analysis counts every offer as a fallback and says the results are the template's; the
      // plain template OG on the same task has no narrator counts (it cannot fall back).
      const template = await play(task, og(), ["rule:linear"]);
      for (const n of template.negotiations!) for (const m of n.offers) expect("note" in m).toBe(false);
      const analysis = analyzeShop(
        shopEpisodesFromRecords([recordOf(task, entry.label, o), recordOf(task, "og-narrator", template)]),
        { draws: 0 },
      );
      const n = analysis.negotiation!;
      expect(n.buyers.map((b) => [b.buyer, b.narratedOffers, b.narratorFallbacks])).toEqual([
        [entry.label, said.length, said.length],
        ["og-narrator", null, null],
      ]);
      const sentence = `${entry.label}: all ${said.length} narrated offers fell back to the template line (openai:sim-bargain-llm gave no usable sentence), so these results are the template narrator's, not openai:sim-bargain-llm's.`;
      expect(n.notes).toEqual([sentence]);
      const table = shopTables(analysis).find((t) =>
        t.title.startsWith("Negotiations per buyer (all sellers)"),
      )!;
      expect(table.header.at(-1)).toBe("narrator fallbacks");
      expect(table.rows.map((r) => r.at(-1))).toEqual([
        `${said.length} of ${said.length} offers (100.0%)`,
        "",
      ]);
      const headline = shopHeadline(analysis);
      const lines = headline.lines.join("\n");
      expect(lines).toMatch(/^buyer +negotiations .* deadlock +narrator fallbacks$/m);
      expect(lines).toContain(`${said.length} of ${said.length} offers (100.0%)`);
      expect(headline.lines.at(-1)).toBe(sentence);
      const rows = (headline.json as { negotiation: Record<string, unknown>[] }).negotiation;
      expect(rows.map((r) => [r.narratedOffers, r.narratorFallbacks])).toEqual([
        [said.length, said.length],
        [null, null],
      ]);
      // A run of template OGs alone gets no column and no sentence.
      const plain = analyzeShop(shopEpisodesFromRecords([recordOf(task, "og-narrator", template)]), {
        draws: 0,
      });
      expect(plain.negotiation!.notes).toEqual([]);
      expect(shopTables(plain).flatMap((t) => t.header)).not.toContain("narrator fallbacks");
      expect(shopHeadline(plain).lines.join("\n")).not.toMatch(/narrator fallbacks|fell back/);
    } finally {
      await server.close();
    }
  });

  it("is registered for shop runs with offers only; its narrator's model is preflighted", () => {
    expect(() => resolveShopAgent("og-narrator", undefined, false)).toThrow(UserError);
    expect(() => resolveShopAgent("og-narrator", undefined, false)).toThrow(
      /only where listings take offers/,
    );
    const plain = resolveShopAgent("og-narrator", undefined, true, parseSchedule("0.5,0.8,1"));
    expect(plain.identity).toMatchObject({ kind: "og-narrator", schedule: "0.5,0.8,1", market: "shop" });
    const llm = resolveShopAgent(
      "og-narrator:openai:some-model",
      { settings: { baseURL: "http://127.0.0.1:9/v1" } },
      true,
    );
    const shopper = llm.players.shopper as unknown as { modelEndpoints(): { model: string }[] };
    expect(shopper.modelEndpoints().map((e) => e.model)).toEqual(["some-model"]);
    expect(() => resolveShopAgent("og-narrator:nope", undefined, true)).toThrow(UserError);
  });
});
