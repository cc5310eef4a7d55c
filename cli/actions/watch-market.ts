import type { MarketAnalysis, MarketResult } from "../../analysis/market/index.ts";
import { dollars, percent } from "../../analysis/report/format.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { SellerTurnRecord } from "../../environments/market/record.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import type { Store } from "../../environments/store/index.ts";
import type { MarketRecord } from "../../environments/store/markets.ts";
import { analyzeMarketRuns } from "../analyzers/market.ts";
import type { Output } from "../output.ts";
import { storeFlag } from "../store-option.ts";
import { renderTable } from "../table.ts";
import type { MarketViewData } from "../tui/market/screen.ts";

/** A seller's turn in one cell: what it did, the new description's arm and opening. */
function turnCell(t: SellerTurnRecord | undefined): string {
  if (!t) return "(turn not stored yet)";
  const parts: string[] = [];
  if (t.priceChanged) parts.push(`price ${dollars(t.before.price, false)} → ${dollars(t.price, false)}`);
  if (t.descriptionChanged) {
    const text = t.description.length > 64 ? `${t.description.slice(0, 63)}…` : t.description;
    parts.push(`description (${t.arm}): "${text}"`);
  }
  if (parts.length === 0) parts.push(t.endReason === "invalid" ? "no valid call: kept" : "kept");
  if (t.invalidCalls > 0) parts.push(`${t.invalidCalls} call${t.invalidCalls === 1 ? "" : "s"} refused`);
  return parts.join("; ");
}

/** Every seller turn of a market run, by market, round and seller. */
export function turnsOf(store: Store, market: MarketRecord): Map<string, SellerTurnRecord> {
  const out = new Map<string, SellerTurnRecord>();
  for (const link of market.runs) {
    if (link.part === "buyers" || !store.getRun(link.runId)) continue;
    for (const r of trialRecords(store, link.runId)) {
      const t = r as unknown as SellerTurnRecord;
      out.set(`${t.instance}/${t.round}/${t.seller}`, t);
    }
  }
  return out;
}

function roundLines(m: MarketResult, turns: Map<string, SellerTurnRecord>, marketId: string): string[] {
  const lines: string[] = [];
  for (const r of m.rounds) {
    lines.push(
      "",
      `market ${m.key} · round ${r.round}: ${r.buyers} buyer episodes, ${r.bookings} bookings · HHI ${r.hhi === null ? "–" : r.hhi.toFixed(0)} · mean price paid ${dollars(r.meanPricePaid)} · buyer success ${percent(r.success, 0)}`,
    );
    const rows = r.sellers.map((s) => {
      const info = m.sellers.find((x) => x.seller === s.seller)!;
      const t = turns.get(`${m.key}/${r.round}/${s.seller}`);
      return [
        String(s.seller),
        info.name,
        info.adopter ? `${info.agent} (adopter)` : info.agent,
        dollars(s.price, false),
        s.arm ?? "–",
        `${s.bookings} (${percent(s.share, 0)})`,
        turnCell(t),
      ];
    });
    lines.push(
      ...renderTable(["seller", "name", "agent", "price", "arm", "booked", "its turn after the round"], rows)
        .split("\n")
        .map((l) => `  ${l}`),
    );
    const tag = String(r.round).padStart(2, "0");
    lines.push(
      `  step through it: bazaar watch ${marketId}-r${tag}-buyers (buyer episodes), bazaar watch ${marketId}-r${tag}-sellers (seller turns)`,
    );
  }
  return lines;
}

/**
 * `bazaar watch <market>`: the market round by round — each seller's listing as the round's buyers
 * saw it, its bookings, and what it did at its turn — and where to step through a round's episodes.
 * On a terminal an interactive view (cli/tui/market/); piped, plain lines (as `watch <run>` decides).
 *
 * Everything is read from the store before the first await: the caller closes the store when this
 * returns its promise, and the terminal view only reads what was loaded.
 */
export function watchMarket(
  store: Store,
  market: MarketRecord,
  o: { market?: string; limit?: string; store?: string },
  out: Output,
  analyze: (store: Store, market: MarketRecord) => MarketAnalysis = analyzeMarketRuns,
  terminal: boolean = process.stdout.isTTY === true,
): Promise<void> | undefined {
  const a = analyze(store, market);
  const keys = a.markets.map((m) => m.key);
  if (o.market !== undefined && !keys.includes(o.market))
    throw new UserError(
      `--market: market run ${market.id} has no market "${o.market}"`,
      `its markets: ${keys.join(", ")}`,
    );
  const turns = turnsOf(store, market);
  if (terminal)
    return showMarketView({
      id: market.id,
      rounds: a.rounds,
      sellersPerMarket: a.sellersPerMarket,
      markets: a.markets,
      turns,
      storeFlag: o.store === undefined ? "" : storeFlag(o.store),
      first: o.market === undefined ? 0 : keys.indexOf(o.market),
    });
  const shown = o.market === undefined ? a.markets.slice(0, 1) : a.markets.filter((m) => m.key === o.market);
  out.log(
    `market ${market.id} · ${a.markets.length} market${a.markets.length === 1 ? "" : "s"} of ${a.sellersPerMarket} sellers · ${Math.max(0, ...a.markets.map((m) => m.rounds.length))} of ${a.rounds} rounds with buyer episodes stored`,
  );
  for (const m of shown) for (const line of roundLines(m, turns, market.id)) out.log(line);
  if (shown.length < a.markets.length)
    out.log(
      `\nother markets: ${keys.filter((k) => !shown.some((m) => m.key === k)).join(", ")} (--market <key>)`,
    );
  return undefined;
}

/** The interactive view; ink and React load only here (they take most of a second to import). */
async function showMarketView(data: MarketViewData & { first: number }): Promise<void> {
  process.env.NODE_ENV ??= "production";
  const [{ render }, { createElement }, { MarketApp }] = await Promise.all([
    import("ink"),
    import("react"),
    import("../tui/market/MarketApp.tsx"),
  ]);
  const app = render(createElement(MarketApp, { data, market: data.first }), { exitOnCtrlC: false });
  await app.waitUntilExit();
}
