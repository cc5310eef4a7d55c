/**
 * The market analysis as tables (header + rows of strings), for the terminal and the markdown
 * report alike: rounds by adoption level, the adoption curve, each market's sellers, the seller
 * turns by agent, and every description written with its arm beside the text.
 */
import { dollars, fixed, percent } from "../report/format.ts";
import { mean } from "../stats/descriptive.ts";
import type { Interval, MarketAnalysis, MarketResult, RoundRow } from "./analyze.ts";

export interface MarketTable {
  title: string;
  header: string[];
  rows: string[][];
  note?: string;
}

function meanOf(values: readonly (number | null)[]): number | null {
  const xs = values.filter((x): x is number => x !== null && Number.isFinite(x));
  return xs.length > 0 ? mean(xs) : null;
}

export function intervalCell(i: Interval | null, format: (x: number) => string): string {
  if (!i) return "–";
  return i.low === null || i.high === null
    ? format(i.mean)
    : `${format(i.mean)} [${format(i.low)}, ${format(i.high)}]`;
}

const signedPercent = (x: number) => `${x >= 0 ? "+" : "−"}${(100 * Math.abs(x)).toFixed(1)} pts`;

/** Per adoption level and round, the mean over that level's markets. */
export function roundsTable(a: MarketAnalysis): MarketTable {
  const ks = [...new Set(a.markets.map((m) => m.k))].sort((x, y) => x - y);
  // A market with offers: two more columns, what haggling did to the round's bookings.
  const offers = a.markets.some((m) => m.rounds.some((r) => r.haggled));
  const rows: string[][] = [];
  for (const k of ks) {
    const markets = a.markets.filter((m) => m.k === k);
    const rounds = [...new Set(markets.flatMap((m) => m.rounds.map((r) => r.round)))].sort((x, y) => x - y);
    for (const round of rounds) {
      const rs = markets
        .map((m) => m.rounds.find((r) => r.round === round))
        .filter((r): r is RoundRow => !!r);
      const bookings = rs.reduce((s, r) => s + r.bookings, 0);
      const violations = rs.reduce((s, r) => s + r.violations, 0);
      rows.push([
        String(k),
        String(round),
        String(rs.length),
        String(rs.reduce((s, r) => s + r.buyers, 0)),
        String(bookings),
        k === 0 ? "–" : percent(meanOf(rs.map((r) => r.adoptersShare))),
        fixed(meanOf(rs.map((r) => r.hhi)), 0),
        dollars(meanOf(rs.map((r) => r.meanPricePaid))),
        percent(meanOf(rs.map((r) => r.success))),
        bookings > 0 ? fixed(violations / bookings, 3) : "–",
        dollars(meanOf(rs.map((r) => r.moneyLeft))),
        ...(offers
          ? [
              bookings > 0
                ? percent(rs.reduce((s, r) => s + (r.haggled?.dealBookings ?? 0), 0) / bookings)
                : "–",
              percent(meanOf(rs.map((r) => r.haggled?.discount ?? null))),
            ]
          : []),
      ]);
    }
  }
  return {
    title: "Rounds (per adoption level k, mean over its markets)",
    header: [
      "k",
      "round",
      "markets",
      "buyers",
      "bookings",
      "adopters' share",
      "HHI",
      "mean price paid",
      "buyer success",
      "violations / booking",
      "money left on the table",
      ...(offers ? ["bookings at a deal", "paid off list"] : []),
    ],
    rows,
    note: `HHI: Herfindahl–Hirschman index of bookings (shares in percent, 0–10,000). Money left on the table: price paid − cheapest admissible, over bookings of admissible listings. Round r's buyers saw the listings as the sellers left them after round r − 1.${offers ? " With offers: bookings at a deal = those at an agreed price below the list price; paid off list = 1 − price paid ÷ list price over the round's bookings; the price paid is the agreed price." : ""}`,
  };
}

export function adoptionTable(a: MarketAnalysis): MarketTable | null {
  if (a.adoption.length === 0) return null;
  return {
    title: "Adoption: the adopters' share of bookings after round 1 (95% t intervals over markets)",
    header: [
      "k",
      "k/N",
      "markets",
      "adopters' share",
      "gain over k/N",
      "their round-1 share",
      "gain over round 1",
    ],
    rows: a.adoption.map((r) => [
      String(r.k),
      percent(r.equalShare),
      String(r.markets),
      intervalCell(r.adoptersShare, (x) => percent(x)),
      intervalCell(r.gainOverEqual, signedPercent),
      intervalCell(r.round1Share, (x) => percent(x)),
      intervalCell(r.gainOverRound1, signedPercent),
    ]),
    note: "Round 1's buyers saw every listing as the design drew it (no seller had acted), so the gain over round 1 is what adopting changed for the same sellers; the gain over k/N compares with an equal split.",
  };
}

function path(values: readonly (number | null)[], format: (x: number) => string): string {
  const xs = values.filter((x): x is number => x !== null);
  if (xs.length === 0) return "–";
  const first = xs[0]!;
  const last = xs[xs.length - 1]!;
  return first === last ? format(first) : `${format(first)} → ${format(last)}`;
}

/** One market's sellers: price and share from the first round to the last, bookings by round. */
export function sellersTable(m: MarketResult): MarketTable {
  return {
    title: `Market ${m.key}: sellers (k = ${m.k} adopters)`,
    header: [
      "seller",
      "name",
      "agent",
      "cost",
      "price (first → last round)",
      "bookings by round",
      "share (first → last)",
      "revenue",
      "profit",
      "arm (last round)",
    ],
    rows: m.sellers.map((s) => {
      const rounds = m.rounds.map((r) => r.sellers.find((x) => x.seller === s.seller)!);
      return [
        String(s.seller),
        s.name,
        `${s.agent}${s.adopter ? " (adopter)" : ""}`,
        dollars(s.cost, false),
        path(
          rounds.map((r) => r.price),
          (x) => dollars(x, false),
        ),
        rounds.map((r) => String(r.bookings)).join(" "),
        path(
          rounds.map((r) => r.share),
          (x) => percent(x, 0),
        ),
        dollars(
          rounds.reduce((a, r) => a + r.revenue, 0),
          false,
        ),
        dollars(
          rounds.reduce((a, r) => a + r.profit, 0),
          false,
        ),
        rounds.at(-1)?.arm ?? "–",
      ];
    }),
  };
}

export function sellerTurnsTable(a: MarketAnalysis): MarketTable {
  return {
    title: "Seller turns by agent",
    header: ["agent", "turns", "changed the listing", "calls refused", "turns without a valid call"],
    rows: Object.entries(a.sellerTurns.byAgent).map(([agent, t]) => [
      agent,
      String(t.turns),
      String(t.changed),
      String(t.invalidCalls),
      String(t.invalidTurns),
    ]),
    note: "A refused call (malformed, a price outside [cost, cap], a description over the limit) changes nothing and is counted; a turn ends without a valid call after the invalid-message limit, the listing as it was.",
  };
}

/** The descriptions sellers wrote, with the tagger's arm beside the text (`max` rows; all in JSON). */
export function descriptionsTable(
  a: MarketAnalysis,
  max = Number.POSITIVE_INFINITY,
  cut?: number,
): MarketTable {
  const shown = a.descriptions.slice(0, max);
  return {
    title: "Descriptions written (the arm as the tagger reads it, beside the text)",
    header: ["market", "after round", "seller", "agent", "arm", "text"],
    rows: shown.map((d) => [
      d.market,
      String(d.round),
      `${d.seller} ${d.name}`,
      d.agent,
      d.claims ? `${d.arm} (${d.claims})` : d.arm,
      cut !== undefined && d.text.length > cut ? `${d.text.slice(0, cut - 1)}…` : d.text,
    ]),
    ...(a.descriptions.length > shown.length
      ? { note: `${a.descriptions.length - shown.length} more in --json and --report` }
      : {}),
  };
}

/** The tables of the analysis; the per-market seller tables for at most `maxMarkets` markets. */
export function marketTables(
  a: MarketAnalysis,
  opts: { maxMarkets?: number; maxDescriptions?: number; cut?: number } = {},
): MarketTable[] {
  const markets = a.markets.slice(0, opts.maxMarkets ?? a.markets.length);
  const out: MarketTable[] = [roundsTable(a)];
  const adoption = adoptionTable(a);
  if (adoption) out.push(adoption);
  for (const m of markets) out.push(sellersTable(m));
  if (markets.length < a.markets.length) {
    const last = out.at(-1)!;
    last.note = `${a.markets.length - markets.length} more markets' sellers in --json and --report`;
  }
  out.push(sellerTurnsTable(a));
  if (a.descriptions.length > 0) out.push(descriptionsTable(a, opts.maxDescriptions, opts.cut));
  return out;
}
