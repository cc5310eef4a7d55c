import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  type BuyerRecordLike,
  type MarketAnalysis,
  type MarketTable,
  MarketTally,
  marketFigures,
  marketTables,
  type SellerTurnLike,
} from "../../analysis/market/index.ts";
import { dollars, percent } from "../../analysis/report/format.ts";
import { markdownDocument, markdownTable, renderSvg } from "../../analysis/report/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import type { Store } from "../../environments/store/index.ts";
import { getMarket, type MarketRecord, marketOfRun } from "../../environments/store/markets.ts";
import { renderTable } from "../table.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

interface MarketConfig {
  design?: {
    rounds?: number;
    sellers?: number;
    buyersPerRound?: number;
    markets?: number;
    adopters?: number[];
  };
  buyer?: { label?: string };
  seller?: { label?: string };
}

/** The market a run id names: the market itself, or the market one of its rounds' runs belongs to. */
export function marketNamed(store: Store, id: string): MarketRecord {
  const market = getMarket(store, id) ?? getMarket(store, marketOfRun(store, id) ?? "");
  if (!market)
    throw new UserError(`no market "${id}" in ${store.path}`, "bazaar runs lists the store's markets");
  return market;
}

/** Reads every stored trial of a market's runs into the analysis. */
export function analyzeMarketRuns(store: Store, market: MarketRecord): MarketAnalysis {
  const config = market.config as MarketConfig;
  const tally = new MarketTally(config.design?.rounds ?? 0, config.design?.sellers ?? 0);
  for (const link of market.runs) {
    if (!store.getRun(link.runId)) continue;
    for (const record of trialRecords(store, link.runId)) {
      if (link.part === "buyers") tally.addBuyer(record as unknown as BuyerRecordLike);
      else tally.addTurn(record as unknown as SellerTurnLike);
    }
  }
  return tally.result();
}

/**
 * A market run's export (specs/market.md, export contract): every seller turn's record, round by
 * round, then one summary per market and round (shares, HHI, prices, welfare). Its buyer episodes
 * are the rounds' shop runs' records (`bazaar export <market>-r01-buyers`).
 */
export function* marketExportRecords(store: Store, market: MarketRecord): Generator<Record<string, unknown>> {
  for (const link of market.runs) {
    if (link.part === "buyers" || !store.getRun(link.runId)) continue;
    yield* trialRecords(store, link.runId);
  }
  const a = analyzeMarketRuns(store, market);
  for (const m of a.markets) {
    for (const r of m.rounds) {
      yield {
        schema: "bazaar.market-round/1",
        market: market.id,
        env: "market-round",
        instance: m.key,
        adopters: m.k,
        round: r.round,
        buyers: r.buyers,
        bookings: r.bookings,
        hhi: r.hhi,
        meanPricePaid: r.meanPricePaid,
        success: r.success,
        violations: r.violations,
        moneyLeft: r.moneyLeft,
        adoptersShare: r.adoptersShare,
        sellers: r.sellers.map((s) => {
          const info = m.sellers.find((x) => x.seller === s.seller);
          return {
            ...s,
            listingId: info?.listingId,
            name: info?.name,
            agent: info?.agent,
            adopter: info?.adopter,
          };
        }),
      };
    }
  }
}

function arrow<T>(first: T | null | undefined, last: T | null | undefined, f: (x: T) => string): string {
  if (first === null || first === undefined) return "–";
  if (last === null || last === undefined || first === last) return f(first);
  return `${f(first)} → ${f(last)}`;
}

/** What `bazaar run market` ends with: per adoption level, the first round against the last. */
export function marketHeadline(a: MarketAnalysis, market: MarketRecord): Headline {
  const config = market.config as MarketConfig;
  const d = config.design ?? {};
  const done = Math.min(...a.markets.map((m) => m.rounds.length), a.rounds);
  const lines = [
    `market ${market.id}: ${a.markets.length} market${a.markets.length === 1 ? "" : "s"} of ${a.sellersPerMarket} sellers, ${d.buyersPerRound ?? "?"} buyer episodes a round (${config.buyer?.label ?? "?"}); adopters run ${config.seller?.label ?? "?"}, the rest sim:static`,
  ];
  const ks = [...new Set(a.markets.map((m) => m.k))].sort((x, y) => x - y);
  const levels = ks.map((k) => {
    const ms = a.markets.filter((m) => m.k === k);
    const at = (
      round: number,
      f: (r: MarketAnalysis["markets"][number]["rounds"][number]) => number | null,
    ) => {
      const xs = ms.map((m) => m.rounds.find((r) => r.round === round)).flatMap((r) => (r ? [f(r)] : []));
      const ys = xs.filter((x): x is number => x !== null);
      return ys.length > 0 ? ys.reduce((s, x) => s + x, 0) / ys.length : null;
    };
    const last = Math.max(0, ...ms.map((m) => m.rounds.length));
    return {
      k,
      markets: ms.length,
      adoptersShare: { first: at(1, (r) => r.adoptersShare), last: at(last, (r) => r.adoptersShare) },
      hhi: { first: at(1, (r) => r.hhi), last: at(last, (r) => r.hhi) },
      meanPricePaid: { first: at(1, (r) => r.meanPricePaid), last: at(last, (r) => r.meanPricePaid) },
      success: { first: at(1, (r) => r.success), last: at(last, (r) => r.success) },
      // With offers: the share of bookings made at a deal, and the mean discount against list.
      dealShare: {
        first: at(1, (r) => (r.haggled && r.bookings > 0 ? r.haggled.dealBookings / r.bookings : null)),
        last: at(last, (r) => (r.haggled && r.bookings > 0 ? r.haggled.dealBookings / r.bookings : null)),
      },
      discount: {
        first: at(1, (r) => r.haggled?.discount ?? null),
        last: at(last, (r) => r.haggled?.discount ?? null),
      },
      lastRound: last,
    };
  });
  for (const l of levels) {
    lines.push(
      `k=${l.k} (round 1 → ${l.lastRound}): ${l.k > 0 ? `adopters' share ${arrow(l.adoptersShare.first, l.adoptersShare.last, (x) => percent(x))}; ` : ""}HHI ${arrow(l.hhi.first, l.hhi.last, (x) => x.toFixed(0))}; mean price paid ${arrow(l.meanPricePaid.first, l.meanPricePaid.last, (x) => dollars(x))}; buyer success ${arrow(l.success.first, l.success.last, (x) => percent(x, 0))}${l.dealShare.first === null && l.dealShare.last === null ? "" : `; bookings at a deal ${arrow(l.dealShare.first, l.dealShare.last, (x) => percent(x, 0))}, ${arrow(l.discount.first, l.discount.last, (x) => percent(x))} off list`}`,
    );
  }
  for (const r of a.adoption) {
    const g = r.gainOverRound1;
    if (!r.adoptersShare || !g) continue;
    const ci =
      g.low !== null && g.high !== null ? ` [${(100 * g.low).toFixed(1)}, ${(100 * g.high).toFixed(1)}]` : "";
    lines.push(
      `adoption k=${r.k}: adopters' share after round 1 ${percent(r.adoptersShare.mean)} (k/N ${percent(r.equalShare)}), ${g.mean >= 0 ? "+" : ""}${(100 * g.mean).toFixed(1)} pts${ci} over their round-1 share, ${r.markets} market${r.markets === 1 ? "" : "s"}`,
    );
  }
  const arms = new Map<string, number>();
  for (const w of a.descriptions) arms.set(w.arm, (arms.get(w.arm) ?? 0) + 1);
  lines.push(
    `descriptions written: ${a.descriptions.length}${
      arms.size > 0
        ? ` (${[...arms]
            .sort((x, y) => y[1] - x[1])
            .map(([arm, n]) => `${arm} ${n}`)
            .join(", ")})`
        : ""
    }; seller calls refused: ${a.sellerTurns.invalidCalls}`,
  );
  return {
    lines,
    json: {
      market: market.id,
      roundsDone: done,
      levels,
      adoption: a.adoption,
      descriptionsWritten: a.descriptions.length,
      arms: Object.fromEntries(arms),
      sellerTurns: a.sellerTurns,
    },
  };
}

function tableText(t: MarketTable): string {
  return `\n${t.title}\n${renderTable(t.header, t.rows)}${t.note ? `\n${t.note}` : ""}`;
}

/** `bazaar analyze <market>` (or one of its rounds' seller runs). */
export const marketAnalyzer: EnvironmentAnalyzer = {
  env: "market",
  async analyze(input: AnalyzeInput): Promise<AnalyzeOutput> {
    const market = marketNamed(input.store, input.run.id);
    const analysis = analyzeMarketRuns(input.store, market);
    if (analysis.markets.every((m) => m.rounds.length === 0))
      throw new UserError(`market ${market.id} has no stored buyer episodes yet`, "run it first");
    const intro = `market ${market.id}: ${analysis.markets.length} market(s), ${analysis.rounds} rounds, ${market.runs.length} runs (${market.runs.map((r) => r.runId.slice(market.id.length + 1)).join(", ")})`;
    const text = [
      intro,
      ...marketTables(analysis, { maxMarkets: 4, maxDescriptions: 24, cut: 110 }).map(tableText),
    ].join("\n");
    const figures = input.options.report
      ? await Promise.all(
          marketFigures(analysis, market.id).map(async (f) => ({ ...f, svg: await renderSvg(f.spec) })),
        )
      : [];
    return {
      headline: marketHeadline(analysis, market),
      json: { market: market.id, env: "market", config: market.config, runs: market.runs, ...analysis },
      text,
      figures: () => marketFigures(analysis, market.id),
      writeReport(dir: string): string[] {
        const tables = marketTables(analysis);
        const md = markdownDocument(`Market ${market.id}`, [
          { heading: "Market", body: [intro] },
          { heading: "Figures", body: figures.map((f) => `![${f.title}](${f.file})`) },
          ...tables.map((t) => ({
            heading: t.title,
            body: [markdownTable(t.header, t.rows), ...(t.note ? [t.note] : [])],
          })),
        ]);
        for (const f of figures) writeFileSync(path.join(dir, f.file), f.svg);
        writeFileSync(path.join(dir, "market-report.md"), md);
        return ["market-report.md", ...figures.map((f) => f.file)];
      },
    };
  },
};
