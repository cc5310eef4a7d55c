/**
 * The market view's rows, state and screen without ink, on a small market run in process: each
 * seller's row says what the round's buyers saw and what the seller did after; the keys move between
 * rounds and markets and stay in range; the screen fits its width, drops and moves columns before it
 * ever cuts a name, and says how to step into the round's buyer episodes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sellerRows, turnPlace, turnText } from "../../../cli/tui/market/rows.ts";
import { type Line, type MarketViewData, marketScreen, shareBar } from "../../../cli/tui/market/screen.ts";
import {
  initialMarketView,
  type MarketViewKey,
  type MarketViewState,
  marketViewReducer,
} from "../../../cli/tui/market/state.ts";
import { marketViewData } from "./market-fixtures.ts";

const text = (l: Line) => l.map((s) => s.text).join("");
const screenText = (data: MarketViewData, s: MarketViewState, w: number, h: number) =>
  marketScreen(data, s, w, h).lines.map(text);

let data: MarketViewData;
beforeAll(async () => {
  // Two markets (k0: all static; k2: two undercutters), three rounds.
  data = await marketViewData(
    "market-view",
    { sellers: 5, rounds: 3, buyersPerRound: 20, adopters: [0, 2], markets: 1, seed: 3 },
    "undercut",
  );
});

function keys(s: MarketViewState, ...ks: MarketViewKey[]): MarketViewState {
  const shape = data.markets.map((m) => m.rounds.length);
  return ks.reduce((x, k) => marketViewReducer(x, k, shape, { page: 2, maxScroll: 3 }), s);
}

describe("the market view's rows", () => {
  it("price as the round's buyers saw it and its change, bookings and share, and the turn after", () => {
    const m = data.markets.find((x) => x.key === "k2-m1")!;
    expect(m.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    for (let i = 0; i < m.rounds.length; i++) {
      const rows = sellerRows(m, i, data.turns);
      const round = m.rounds[i]!;
      expect(rows.map((r) => r.seller)).toEqual([1, 2, 3, 4, 5]);
      expect(rows.reduce((a, r) => a + r.bookings, 0)).toBe(round.bookings);
      expect(rows.reduce((a, r) => a + (r.share ?? 0), 0)).toBeCloseTo(1, 9);
      expect(rows.filter((r) => r.adopter).map((r) => r.agent)).toEqual(["sim:undercut", "sim:undercut"]);
      for (const r of rows) {
        const turn = data.turns.get(turnPlace(m.key, round.round, r.seller))!;
        expect(r.price).toBe(turn.before.price);
        expect(r.turn).toBe(turnText(turn));
        if (i === 0) expect(r.priceChange).toBeNull();
        else {
          // What the seller set at its turn after the round before is what this round's buyers saw.
          const before = data.turns.get(turnPlace(m.key, round.round - 1, r.seller))!;
          expect(r.price).toBe(before.price);
          expect(r.priceChange).toBe(before.price - before.before.price);
        }
        if (!r.adopter) {
          expect(r.turn).toBe("kept");
          expect(r.priceChange ?? 0).toBe(0);
        }
      }
    }
    // The undercutters moved their prices, and the view says so: "$213 → $199".
    const moved = m.rounds
      .flatMap((_, i) => sellerRows(m, i, data.turns))
      .filter((r) => r.adopter && r.changed);
    expect(moved.length).toBeGreaterThan(0);
    for (const r of moved) expect(r.turn).toMatch(/^\$\d+ → \$\d+/);
  });

  it("a round whose turns are not stored yet (a market stopped mid-round) shows the listings as the turns before left them", () => {
    const m = data.markets.find((x) => x.key === "k2-m1")!;
    const last = m.rounds.length - 1;
    const round = m.rounds[last]!;
    const stored = sellerRows(m, last, data.turns);
    // As the analysis has it when the round's turns are missing: no price or arm from them.
    const cut = {
      ...m,
      rounds: m.rounds.map((r, i) =>
        i === last ? { ...r, sellers: r.sellers.map((s) => ({ ...s, price: null, arm: null })) } : r,
      ),
    };
    const turns = new Map([...data.turns].filter(([k]) => !k.startsWith(`${m.key}/${round.round}/`)));
    const rows = sellerRows(cut, last, turns);
    expect(rows.map((r) => [r.price, r.priceChange, r.arm, r.seen])).toEqual(
      stored.map((r) => [r.price, r.priceChange, r.arm, r.seen]),
    );
    expect(rows.every((r) => r.turn === "(turn not stored yet)" && r.wrote === null)).toBe(true);
  });

  it("says kept, no valid call, refusals and a missing turn in a few words", () => {
    const t = {
      before: { price: 213, description: "x", arm: "neutral" as const },
      price: 213,
      description: "x",
      arm: "neutral" as const,
      priceChanged: false,
      descriptionChanged: false,
      endReason: "kept" as const,
      invalidCalls: 0,
    };
    expect(turnText(t)).toBe("kept");
    expect(turnText({ ...t, endReason: "invalid", invalidCalls: 2 })).toBe(
      "no valid call: kept · 2 calls refused",
    );
    expect(
      turnText({
        ...t,
        price: 199,
        priceChanged: true,
        descriptionChanged: true,
        arm: "urgency",
        endReason: "changed",
      }),
    ).toBe("$213 → $199 · writes urgency");
    expect(turnText(undefined)).toBe("(turn not stored yet)");
    expect(shareBar(0.5, 4)).toBe("██  ");
    expect(shareBar(0.0625, 2)).toBe("▏ ");
    expect(shareBar(null, 3)).toBe("   ");
  });
});

describe("the market view's keys", () => {
  it("moves between rounds and markets within range, keeps the round across markets, and quits", () => {
    let s = initialMarketView(
      data.markets.map((m) => m.rounds.length),
      1,
    );
    expect(s).toMatchObject({ market: 1, round: 0, panel: "sellers", help: false, quit: false });
    s = keys(s, "prevRound");
    expect(s.round).toBe(0);
    s = keys(s, "nextRound", "nextRound", "nextRound", "nextRound");
    expect(s.round).toBe(2);
    s = keys(s, "firstRound");
    expect(s.round).toBe(0);
    s = keys(s, "lastRound", "prevMarket");
    expect(s).toMatchObject({ market: 0, round: 2 });
    s = keys(s, "prevMarket");
    expect(s.market).toBe(0);
    s = keys(s, "cycleMarketBack");
    expect(s.market).toBe(1);
    s = keys(s, "cycleMarket");
    expect(s.market).toBe(0);
    s = keys(s, "descriptions", "scrollDown", "scrollDown", "scrollDown");
    expect(s).toMatchObject({ panel: "descriptions", scroll: 3 });
    s = keys(s, "scrollUp");
    expect(s.scroll).toBe(1);
    // Help swallows every key but its own, esc and quit.
    s = keys(s, "help", "nextRound", "nextMarket");
    expect(s).toMatchObject({ help: true, market: 0, round: 2 });
    s = keys(s, "back");
    expect(s.help).toBe(false);
    s = keys(s, "back");
    expect(s).toMatchObject({ panel: "sellers", scroll: 0 });
    expect(keys(s, "quit").quit).toBe(true);
  });
});

describe("the market view's screen", () => {
  it("shows the market, its round, the sellers, the summary and how to step in, within 100 columns", () => {
    const s = keys(
      initialMarketView(
        data.markets.map((m) => m.rounds.length),
        1,
      ),
      "nextRound",
    );
    const lines = screenText(data, s, 100, 40);
    expect(lines.length).toBeLessThanOrEqual(40);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    expect(lines[0]).toBe("bazaar watch market-view · market k2-m1 (2 of 2) · round 2 of 3");
    expect(lines[1]).toBe("5 sellers · ★ adopters (2 of 5): sim:undercut · the rest: sim:static");
    const m = data.markets[1]!;
    for (const seller of m.sellers) {
      const row = lines.find((l) => l.includes(seller.name))!;
      expect(row, seller.name).toMatch(new RegExp(`^ *${seller.seller}${seller.adopter ? "★" : " "} `));
    }
    const r = m.rounds[1]!;
    // The summary wraps at spaces where it is longer than the screen.
    expect(lines.join(" ")).toContain(
      `round 2: ${r.buyers} buyer episodes, ${r.bookings} booked · HHI ${Math.round(r.hhi!).toLocaleString("en-US")} · mean price paid $${r.meanPricePaid!.toFixed(2)} · buyer success ${Math.round(100 * r.success!)}% · adopters' share ${Math.round(100 * r.adoptersShare!)}%`,
    );
    expect(lines).toContain("round 2's buyers: bazaar watch market-view-r02-buyers --store m.db");
    expect(lines).toContain("its seller turns: bazaar watch market-view-r02-sellers --store m.db");
  });

  it("widens to every column where there is room, and moves columns, then wraps names, where there is not", () => {
    const s = initialMarketView(
      data.markets.map((m) => m.rounds.length),
      1,
    );
    const m = data.markets[1]!;
    const wide = screenText(data, s, 200, 40);
    expect(wide.find((l) => l.startsWith("#"))).toMatch(
      /^# +seller +agent +price +description +booked +its turn$/,
    );
    expect(wide.find((l) => l.includes(m.sellers.find((x) => x.adopter)!.name))).toContain("sim:undercut");
    const narrow = screenText(data, s, 80, 60);
    for (const l of narrow) expect(l.length).toBeLessThanOrEqual(80);
    expect(narrow.find((l) => l.startsWith("#"))).toMatch(/^# +seller +price +booked$/);
    expect(narrow).toContainEqual(expect.stringMatching(/^ +description +↳ its turn \(after the round\)$/));
    // Too narrow for a name and the numbers on one line: the name has its line, the numbers the next.
    const tiny = screenText(data, s, 30, 80);
    for (const l of tiny) expect(l.length).toBeLessThanOrEqual(30);
    expect(tiny.find((l) => l.startsWith("#"))).toBe("#   seller");
    expect(tiny).toContainEqual(expect.stringMatching(/^ +price +booked$/));
    // A name longer than the line goes on on the next, whole.
    const joined = tiny.join(" ").replace(/\s+/g, " ");
    for (const seller of m.sellers)
      expect(joined).toContain(`${seller.seller}${seller.adopter ? "★" : ""} ${seller.name} $`);
  });

  it("scrolls a table taller than the terminal and says which sellers it shows", () => {
    const shape = data.markets.map((m) => m.rounds.length);
    let s = initialMarketView(shape, 1);
    let screen = marketScreen(data, s, 100, 10);
    expect(screen.lines.length).toBeLessThanOrEqual(10);
    expect(screen.maxScroll).toBeGreaterThan(0);
    expect(screen.lines.map(text)).toContainEqual(
      expect.stringMatching(/^sellers 1–[1-4] of 5 · pgdn: more$/),
    );
    // Down as far as it goes: the last seller shows, and further keys change nothing.
    for (let i = 0; i < 6; i++) {
      s = marketViewReducer(s, "scrollDown", shape, screen);
      screen = marketScreen(data, s, 100, 10);
    }
    expect(s.scroll).toBe(screen.maxScroll);
    expect(screen.lines.map(text)).toContainEqual(
      expect.stringMatching(/^sellers [2-5]–5 of 5 · pgup: before$/),
    );
    s = marketViewReducer(s, "scrollUp", shape, screen);
    expect(s.scroll).toBe(Math.max(0, screen.maxScroll - screen.page));
  });

  it("the descriptions panel: what buyers saw and what each seller wrote, in full", async () => {
    const bandit = await marketViewData(
      "market-arms",
      { sellers: 4, rounds: 3, buyersPerRound: 10, adopters: [1], markets: 1, seed: 5 },
      "cue-bandit",
    );
    const shape = bandit.markets.map((m) => m.rounds.length);
    const s = marketViewReducer(initialMarketView(shape), "descriptions", shape);
    const lines = screenText(bandit, s, 80, 60);
    const m = bandit.markets[0]!;
    const adopter = m.sellers.find((x) => x.adopter)!;
    const wrote = bandit.turns.get(turnPlace(m.key, 1, adopter.seller))!;
    expect(wrote.descriptionChanged).toBe(true);
    expect(lines).toContain(`descriptions in round 1 of market ${m.key}`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ *${adopter.seller}★ ${adopter.name}$`)));
    expect(lines).toContain(`    at its turn it wrote ${wrote.arm}`);
    const body = lines.join(" ").replace(/\s+/g, " ");
    expect(body).toContain(wrote.description.replace(/\s+/g, " "));
    expect(lines).toContain("3 other sellers: the neutral descriptions they started with, unchanged");
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
  });
});
