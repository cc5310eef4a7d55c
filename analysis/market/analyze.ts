/**
 * Market outcomes (specs/market.md Part 2), pure: from a market run's buyer-episode records and
 * seller-turn records to, per market, round and seller, bookings, share, revenue and profit; per
 * market and round the HHI, the mean price paid, buyer success, violations and the money left on
 * the table; every description a seller wrote, with the tagger's arm beside the text; and the
 * adopters' share against k/N (and against their own share in round 1, before anyone acted), with
 * intervals over the base markets. Records arrive one by one (`MarketTally`): a market run can hold
 * more buyer episodes than fit in memory as records.
 */
import type { SellerTurnRecord } from "../../environments/market/record.ts";
import type { ConstraintType, DescriptionArm } from "../../environments/shop/types.ts";
import { mean, standardDeviation } from "../stats/descriptive.ts";

/** What the tally reads of a buyer episode's record (the shop's trial record has it all). */
export interface BuyerRecordLike {
  taskId: string;
  booked: { id: string; price: number; admissible: boolean } | null;
  success: boolean;
  constraints: Partial<Record<ConstraintType, boolean>> | null;
  cheapestAdmissible: number | null;
  nonResponse: unknown;
  /** With offers: the nightly price paid (the agreed price after a deal, else the list price). */
  paid?: number | null;
}

/** What the tally reads of a seller turn's record. */
export type SellerTurnLike = Pick<
  SellerTurnRecord,
  | "instance"
  | "round"
  | "seller"
  | "listingId"
  | "name"
  | "stars"
  | "area"
  | "adopter"
  | "player"
  | "cost"
  | "before"
  | "price"
  | "description"
  | "arm"
  | "claims"
  | "priceChanged"
  | "descriptionChanged"
  | "endReason"
  | "invalidCalls"
  | "nonResponse"
>;

export interface SellerInfo {
  seller: number;
  listingId: string;
  name: string;
  stars: number;
  area: string;
  agent: string;
  adopter: boolean;
  cost: number;
}

export interface SellerRound {
  seller: number;
  bookings: number;
  /** Of the market's bookings that round (null when there were none). */
  share: number | null;
  revenue: number;
  profit: number;
  /** The price buyers saw that round (null when the round's turns are not stored yet). */
  price: number | null;
  /** The arm of the description buyers saw that round. */
  arm: DescriptionArm | null;
}

export interface RoundRow {
  round: number;
  buyers: number;
  bookings: number;
  /** Herfindahl–Hirschman index of the round's bookings, 0–10,000 (shares in percent). */
  hhi: number | null;
  meanPricePaid: number | null;
  /** Share of buyer episodes that succeeded (booked an admissible listing, or gave up when none was). */
  success: number | null;
  /** Bookings that broke at least one of the request's constraints. */
  violations: number;
  /** Mean of (price paid − cheapest admissible) over bookings of admissible listings. */
  moneyLeft: number | null;
  nonResponses: number;
  sellers: SellerRound[];
  /** The adopters' share of the round's bookings (null without adopters or bookings). */
  adoptersShare: number | null;
  /**
   * A market with offers (absent without): the bookings made at an agreed price below the list
   * price, and the mean discount of the price paid against the list price over all bookings.
   */
  haggled?: { dealBookings: number; discount: number | null };
}

export interface MarketResult {
  key: string;
  k: number;
  m: number;
  sellers: SellerInfo[];
  rounds: RoundRow[];
}

/** A description a seller wrote (a turn that changed it), with the tagger's arm beside the text. */
export interface WrittenDescription {
  market: string;
  round: number;
  seller: number;
  name: string;
  agent: string;
  adopter: boolean;
  arm: DescriptionArm;
  claims: string | null;
  text: string;
}

export interface Interval {
  mean: number;
  low: number | null;
  high: number | null;
  /** Markets it is over. */
  n: number;
}

export interface AdoptionRow {
  k: number;
  /** k / N: the adopters' share if every seller sold alike. */
  equalShare: number;
  markets: number;
  /** The adopters' share of bookings over the rounds after the first (they could act from round 2). */
  adoptersShare: Interval | null;
  /** adoptersShare − k/N. */
  gainOverEqual: Interval | null;
  /** The same sellers' share in round 1, before anyone acted. */
  round1Share: Interval | null;
  /** adoptersShare − round1Share: what adopting changed for them. */
  gainOverRound1: Interval | null;
}

export interface MarketAnalysis {
  rounds: number;
  sellersPerMarket: number;
  markets: MarketResult[];
  adoption: AdoptionRow[];
  descriptions: WrittenDescription[];
  /** Seller turns the rules refused a call in, and turns that ended without a valid call. */
  sellerTurns: {
    turns: number;
    changed: number;
    invalidCalls: number;
    invalidTurns: number;
    byAgent: Record<string, { turns: number; changed: number; invalidCalls: number; invalidTurns: number }>;
  };
}

/** `k1-m2-r03-b0001` → market `k1-m2`, round 3. */
export function buyerTaskPlace(
  taskId: string,
): { market: string; k: number; m: number; round: number } | null {
  const m = /^k(\d+)-m(\d+)-r(\d+)-/.exec(taskId);
  if (!m) return null;
  return { market: `k${m[1]}-m${m[2]}`, k: Number(m[1]), m: Number(m[2]), round: Number(m[3]) };
}

function marketPlace(key: string): { k: number; m: number } {
  const m = /^k(\d+)-m(\d+)$/.exec(key);
  return m ? { k: Number(m[1]), m: Number(m[2]) } : { k: 0, m: 0 };
}

interface RoundAcc {
  buyers: number;
  bookings: number;
  paid: number;
  successes: number;
  violations: number;
  left: number;
  leftN: number;
  nonResponses: number;
  byListing: Map<string, { bookings: number; revenue: number }>;
  /** Bookings of records with offers (they carry `paid`), those at a deal, and their list prices. */
  offerBookings: number;
  dealBookings: number;
  listOfOfferBookings: number;
  paidOfOfferBookings: number;
}

function newRound(): RoundAcc {
  return {
    buyers: 0,
    bookings: 0,
    paid: 0,
    successes: 0,
    violations: 0,
    left: 0,
    leftN: 0,
    nonResponses: 0,
    byListing: new Map(),
    offerBookings: 0,
    dealBookings: 0,
    listOfOfferBookings: 0,
    paidOfOfferBookings: 0,
  };
}

/** The t distribution's 0.975 quantiles for 1 to 30 degrees of freedom (scipy.stats.t.ppf). */
const T975 = [
  12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
  2.200985, 2.178813, 2.160369, 2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614,
  2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.04523, 2.042272,
];
const Z975 = 1.959963984540054;

/**
 * The t distribution's 0.975 quantile for a whole number of degrees of freedom. Beyond 30 it is not
 * the normal's 1.96 (at 31 it is 2.040, at 60 still 2.000: with 1.96 an interval over 32 to 100
 * markets covers 94.1–94.7%, not 95%); there it is the Cornish–Fisher expansion in 1/df (Abramowitz &
 * Stegun 26.7.5), within 1e-6 of the exact quantile from 31 degrees of freedom on.
 */
export function t975(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`t975 needs a whole number of degrees of freedom, at least 1; got ${df}`);
  const tabled = T975[df - 1];
  if (tabled !== undefined) return tabled;
  const x = Z975;
  const g1 = (x ** 3 + x) / 4;
  const g2 = (5 * x ** 5 + 16 * x ** 3 + 3 * x) / 96;
  const g3 = (3 * x ** 7 + 19 * x ** 5 + 17 * x ** 3 - 15 * x) / 384;
  const g4 = (79 * x ** 9 + 776 * x ** 7 + 1482 * x ** 5 - 1920 * x ** 3 - 945 * x) / 92160;
  return x + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

/** Mean with a t interval over markets (no interval from one market). */
export function tInterval(xs: readonly number[]): Interval | null {
  if (xs.length === 0) return null;
  const m = mean(xs);
  if (xs.length < 2) return { mean: m, low: null, high: null, n: xs.length };
  const t = t975(xs.length - 1);
  const half = (t * standardDeviation(xs)) / Math.sqrt(xs.length);
  return { mean: m, low: m - half, high: m + half, n: xs.length };
}

/** Accumulates a market run's records, in any order, into the analysis. */
export class MarketTally {
  private readonly rounds = new Map<string, Map<number, RoundAcc>>();
  private readonly turns = new Map<string, Map<number, Map<number, SellerTurnLike>>>();
  private readonly sellers = new Map<string, Map<number, SellerInfo>>();

  constructor(
    readonly roundsPlanned: number,
    readonly sellersPerMarket: number,
  ) {}

  addBuyer(r: BuyerRecordLike): void {
    const place = buyerTaskPlace(r.taskId);
    if (!place) return;
    let byRound = this.rounds.get(place.market);
    if (!byRound) {
      byRound = new Map();
      this.rounds.set(place.market, byRound);
    }
    let acc = byRound.get(place.round);
    if (!acc) {
      acc = newRound();
      byRound.set(place.round, acc);
    }
    acc.buyers++;
    if (r.success) acc.successes++;
    if (r.nonResponse) acc.nonResponses++;
    if (r.booked) {
      // A haggled booking pays the agreed price: revenue, price paid and money left use it.
      const price = r.paid ?? r.booked.price;
      if (r.paid !== undefined && r.paid !== null) {
        acc.offerBookings++;
        if (r.paid < r.booked.price) acc.dealBookings++;
        acc.listOfOfferBookings += r.booked.price;
        acc.paidOfOfferBookings += r.paid;
      }
      acc.bookings++;
      acc.paid += price;
      const l = acc.byListing.get(r.booked.id) ?? { bookings: 0, revenue: 0 };
      acc.byListing.set(r.booked.id, { bookings: l.bookings + 1, revenue: l.revenue + price });
      if (r.constraints && Object.values(r.constraints).some((met) => met === false)) acc.violations++;
      if (r.booked.admissible && r.cheapestAdmissible !== null) {
        acc.left += price - r.cheapestAdmissible;
        acc.leftN++;
      }
    }
  }

  addTurn(t: SellerTurnLike): void {
    let byRound = this.turns.get(t.instance);
    if (!byRound) {
      byRound = new Map();
      this.turns.set(t.instance, byRound);
    }
    let bySeller = byRound.get(t.round);
    if (!bySeller) {
      bySeller = new Map();
      byRound.set(t.round, bySeller);
    }
    bySeller.set(t.seller, t);
    let info = this.sellers.get(t.instance);
    if (!info) {
      info = new Map();
      this.sellers.set(t.instance, info);
    }
    if (!info.has(t.seller))
      info.set(t.seller, {
        seller: t.seller,
        listingId: t.listingId,
        name: t.name,
        stars: t.stars,
        area: t.area,
        agent: t.player,
        adopter: t.adopter,
        cost: t.cost,
      });
  }

  result(): MarketAnalysis {
    const keys = [...new Set([...this.rounds.keys(), ...this.sellers.keys()])].sort((a, b) => {
      const pa = marketPlace(a);
      const pb = marketPlace(b);
      return pa.k - pb.k || pa.m - pb.m;
    });
    const markets = keys.map((key) => this.market(key));
    const descriptions: WrittenDescription[] = [];
    const byAgent: MarketAnalysis["sellerTurns"]["byAgent"] = {};
    let turns = 0;
    let changed = 0;
    let invalidCalls = 0;
    let invalidTurns = 0;
    for (const key of keys) {
      for (const [round, bySeller] of [
        ...(this.turns.get(key) ?? new Map<number, Map<number, SellerTurnLike>>()),
      ].sort((a, b) => a[0] - b[0])) {
        for (const t of [...bySeller.values()].sort((a, b) => a.seller - b.seller)) {
          const a = byAgent[t.player] ?? { turns: 0, changed: 0, invalidCalls: 0, invalidTurns: 0 };
          byAgent[t.player] = a;
          const invalid = t.endReason === "invalid" ? 1 : 0;
          const did = t.endReason === "changed" ? 1 : 0;
          turns++;
          changed += did;
          invalidCalls += t.invalidCalls;
          invalidTurns += invalid;
          a.turns++;
          a.changed += did;
          a.invalidCalls += t.invalidCalls;
          a.invalidTurns += invalid;
          if (t.descriptionChanged)
            descriptions.push({
              market: key,
              round,
              seller: t.seller,
              name: t.name,
              agent: t.player,
              adopter: t.adopter,
              arm: t.arm,
              claims: t.claims,
              text: t.description,
            });
        }
      }
    }
    return {
      rounds: Math.max(this.roundsPlanned, ...markets.map((m) => m.rounds.length)),
      sellersPerMarket: this.sellersPerMarket,
      markets,
      adoption: this.adoption(markets),
      descriptions,
      sellerTurns: { turns, changed, invalidCalls, invalidTurns, byAgent },
    };
  }

  private market(key: string): MarketResult {
    const place = marketPlace(key);
    const info = [...(this.sellers.get(key)?.values() ?? [])].sort((a, b) => a.seller - b.seller);
    const byRound = this.rounds.get(key) ?? new Map<number, RoundAcc>();
    const turns = this.turns.get(key) ?? new Map<number, Map<number, SellerTurnLike>>();
    const rounds: RoundRow[] = [];
    for (const round of [...byRound.keys()].sort((a, b) => a - b)) {
      const acc = byRound.get(round)!;
      const seen = turns.get(round);
      const sellers: SellerRound[] = info.map((s) => {
        const sold = acc.byListing.get(s.listingId) ?? { bookings: 0, revenue: 0 };
        const t = seen?.get(s.seller);
        return {
          seller: s.seller,
          bookings: sold.bookings,
          share: acc.bookings > 0 ? sold.bookings / acc.bookings : null,
          revenue: sold.revenue,
          profit: sold.revenue - sold.bookings * s.cost,
          price: t ? t.before.price : null,
          arm: t ? t.before.arm : null,
        };
      });
      const adopters = info.filter((s) => s.adopter).map((s) => s.seller);
      const adopterBookings = sellers
        .filter((s) => adopters.includes(s.seller))
        .reduce((a, s) => a + s.bookings, 0);
      rounds.push({
        round,
        buyers: acc.buyers,
        bookings: acc.bookings,
        hhi: acc.bookings > 0 ? sellers.reduce((a, s) => a + (100 * (s.share ?? 0)) ** 2, 0) : null,
        meanPricePaid: acc.bookings > 0 ? acc.paid / acc.bookings : null,
        success: acc.buyers > 0 ? acc.successes / acc.buyers : null,
        violations: acc.violations,
        moneyLeft: acc.leftN > 0 ? acc.left / acc.leftN : null,
        nonResponses: acc.nonResponses,
        sellers,
        adoptersShare: adopters.length > 0 && acc.bookings > 0 ? adopterBookings / acc.bookings : null,
        ...(acc.offerBookings > 0
          ? {
              haggled: {
                dealBookings: acc.dealBookings,
                discount: 1 - acc.paidOfOfferBookings / acc.listOfOfferBookings,
              },
            }
          : {}),
      });
    }
    return { key, k: place.k, m: place.m, sellers: info, rounds };
  }

  private adoption(markets: readonly MarketResult[]): AdoptionRow[] {
    const ks = [...new Set(markets.map((m) => m.k))].sort((a, b) => a - b);
    const n = this.sellersPerMarket;
    return ks
      .filter((k) => k > 0)
      .map((k) => {
        const later: number[] = [];
        const first: number[] = [];
        for (const m of markets.filter((x) => x.k === k)) {
          const adopters = new Set(m.sellers.filter((s) => s.adopter).map((s) => s.seller));
          const share = (rows: readonly RoundRow[]) => {
            const all = rows.reduce((a, r) => a + r.bookings, 0);
            if (all === 0) return null;
            const theirs = rows.reduce(
              (a, r) =>
                a + r.sellers.filter((s) => adopters.has(s.seller)).reduce((b, s) => b + s.bookings, 0),
              0,
            );
            return theirs / all;
          };
          const r1 = share(m.rounds.filter((r) => r.round === 1));
          const after = share(m.rounds.filter((r) => r.round > 1));
          if (r1 !== null && after !== null) {
            first.push(r1);
            later.push(after);
          }
        }
        const equal = k / n;
        return {
          k,
          equalShare: equal,
          markets: later.length,
          adoptersShare: tInterval(later),
          gainOverEqual: tInterval(later.map((x) => x - equal)),
          round1Share: tInterval(first),
          gainOverRound1: tInterval(later.map((x, i) => x - first[i]!)),
        };
      });
  }
}
