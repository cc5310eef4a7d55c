/**
 * The market view drawn by ink: a 12-seller market of the pool's longest hotel names, run in
 * process, shows every name whole at 100 columns, and its keys move between rounds, open the
 * descriptions and help, and quit.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MarketApp } from "../../../cli/tui/market/MarketApp.tsx";
import { type MarketViewData, marketScreen } from "../../../cli/tui/market/screen.ts";
import { initialMarketView } from "../../../cli/tui/market/state.ts";
import { until, widest } from "./fixtures.ts";
import { longNamedPool, marketViewData } from "./market-fixtures.ts";

afterEach(() => cleanup());
// Frames come when effects have run; on a loaded machine that can take a while.
const WAIT = 60_000;

let data: MarketViewData;
beforeAll(async () => {
  data = await marketViewData(
    "market-wide",
    { sellers: 12, rounds: 2, buyersPerRound: 8, adopters: [3], markets: 1, seed: 9 },
    "undercut",
    longNamedPool(12),
  );
});

describe("MarketApp", () => {
  it("shows a 12-seller market's names uncut at 100 columns", async () => {
    const names = data.markets[0]!.sellers.map((s) => s.name);
    expect(names).toHaveLength(12);
    // The widest names there are: a table that cut names would cut these.
    expect(Math.max(...names.map((n) => n.length))).toBeGreaterThanOrEqual(50);
    const app = render(<MarketApp data={data} width={101} height={41} />);
    const frame = await until(app, "round 1 of 2", WAIT);
    expect(widest(frame)).toBeLessThanOrEqual(100);
    expect(frame.split("\n").length).toBeLessThanOrEqual(40);
    const lines = frame.split("\n");
    for (const name of names)
      expect(
        lines.some((l) => l.includes(name)),
        name,
      ).toBe(true);
    expect(frame).not.toContain("…");
    expect(frame).toContain("12 sellers · ★ adopters (3 of 12): sim:undercut · the rest: sim:static");
    expect(frame).toContain("round 1's buyers: bazaar watch market-wide-r01-buyers --store m.db");
  });

  it("steps rounds, opens the descriptions and help, and quits", async () => {
    const app = render(<MarketApp data={data} width={101} height={41} />);
    await until(app, "round 1 of 2", WAIT);
    app.stdin.write("l");
    let f = await until(app, "round 2 of 2", WAIT);
    expect(f).toContain("round 2's buyers: bazaar watch market-wide-r02-buyers --store m.db");
    // The undercutters' round-1 moves are round 2's prices, marked as changes.
    expect(f).toMatch(/▼\$\d+/);
    app.stdin.write("\u001B[D"); // left
    await until(app, "round 1 of 2", WAIT);
    app.stdin.write("d");
    await until(app, "descriptions in round 1 of market k3-m1", WAIT);
    app.stdin.write("?");
    f = await until(app, "keys (market)", WAIT);
    expect(widest(f)).toBeLessThanOrEqual(100);
    app.stdin.write("\u001B"); // esc
    await until(app, "descriptions in round 1", WAIT);
    // Keys sent at once (as a fast typist or tmux does) are each a key.
    app.stdin.write("dl");
    await until(app, /round 2 of 2[\s\S]*# +seller/, WAIT);
    // q quits: ink lets go of stdin once the app has exited.
    expect(app.stdin.listenerCount("readable")).toBeGreaterThan(0);
    app.stdin.write("q");
    const deadline = Date.now() + WAIT;
    while (app.stdin.listenerCount("readable") > 0) {
      if (Date.now() > deadline) throw new Error("the app did not exit on q");
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  it("narrower, wraps a long name in its column at spaces, the numbers beside its first line", () => {
    const lines = marketScreen(data, initialMarketView([2]), 70, 200).lines.map((l) =>
      l.map((x) => x.text).join(""),
    );
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(70);
    expect(lines.find((l) => l.startsWith("#"))).toMatch(/^# +seller +price +booked$/);
    for (const s of data.markets[0]!.sellers) {
      const first = lines.findIndex((l) => new RegExp(`^ *${s.seller}${s.adopter ? "★" : " "} `).test(l));
      // The name's pieces, one a line in the name column (after "12★  "), the first beside its price.
      expect(lines[first]).toMatch(/\$\d+/);
      const pieces: string[] = [];
      for (let i = first; i < lines.length && !lines[i]!.includes("↳"); i++)
        pieces.push(lines[i]!.slice(5).split("  ")[0]!);
      expect(pieces.join(" "), s.name).toBe(s.name);
    }
  });
});
