/**
 * A market's rounds as the browser shows them: per market and round, each seller's listing as the
 * round's buyers saw it, its bookings and share, and what it did at its turn after the round (the
 * terminal market view's rows, cli/tui/market/rows.ts), with links to the round's buyer episodes
 * and to each seller's turn; and each seller's share and price over rounds.
 */
import type { SellerTurnRecord } from "../../environments/market/record.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import type { Store } from "../../environments/store/index.ts";
import type { MarketRecord } from "../../environments/store/markets.ts";
import { analyzeMarketRuns } from "../analyzers/market.ts";
import { roundSummary, sellerRows, turnPlace } from "../tui/market/rows.ts";
import type { MarketPage } from "./api-types.ts";

export function marketPage(store: Store, market: MarketRecord): MarketPage {
  const a = analyzeMarketRuns(store, market);
  const turns = new Map<string, SellerTurnRecord>();
  const seqs = new Map<string, number>();
  for (const link of market.runs) {
    if (link.part === "buyers" || !store.getRun(link.runId)) continue;
    for (const r of trialRecords(store, link.runId)) {
      const t = r as unknown as SellerTurnRecord;
      const place = turnPlace(t.instance, t.round, t.seller);
      turns.set(place, t);
      seqs.set(place, t.seq);
    }
  }
  const runOf = (round: number, part: "buyers" | "sellers") =>
    market.runs.find((l) => l.round === round && l.part === part && store.getRun(l.runId))?.runId ?? null;
  return {
    id: market.id,
    rounds: a.rounds,
    sellersPerMarket: a.sellersPerMarket,
    markets: a.markets.map((m) => ({
      key: m.key,
      rounds: m.rounds.map((r, i) => ({
        round: r.round,
        summary: roundSummary(r),
        buyersRun: runOf(r.round, "buyers"),
        sellersRun: runOf(r.round, "sellers"),
        sellers: sellerRows(m, i, turns).map((s) => ({
          ...s,
          turnSeq: seqs.get(turnPlace(m.key, r.round, s.seller)) ?? null,
        })),
      })),
      shares: m.rounds.flatMap((r, i) =>
        sellerRows(m, i, turns).map((s) => ({
          round: r.round,
          seller: `${s.seller}. ${s.name}`,
          share: s.share,
          price: s.price,
        })),
      ),
    })),
  };
}
