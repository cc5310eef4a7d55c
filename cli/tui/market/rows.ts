/**
 * The market view's rows (`bazaar watch <market>` on a terminal), pure: per market and round, each
 * seller's listing as that round's buyers saw it (price and its change from the round before, the
 * description's arm), its bookings and share, and what it did at its turn after the round; and the
 * round's summary. Built from the market analysis and the stored seller turns, nothing else.
 */
import type { MarketResult, RoundRow } from "../../../analysis/market/index.ts";
import type { SellerTurnRecord } from "../../../environments/market/record.ts";

/** What the view reads of a stored seller turn. */
export type TurnLike = Pick<
  SellerTurnRecord,
  | "before"
  | "price"
  | "description"
  | "arm"
  | "priceChanged"
  | "descriptionChanged"
  | "endReason"
  | "invalidCalls"
>;

/** The stored seller turns of a market run, by `<market key>/<round>/<seller>`. */
export type TurnsByPlace = ReadonlyMap<string, TurnLike>;

export function turnPlace(market: string, round: number, seller: number): string {
  return `${market}/${round}/${seller}`;
}

export interface SellerRow {
  seller: number;
  /** The hotel's name, whole (the view widens or wraps, never cuts it). */
  name: string;
  agent: string;
  adopter: boolean;
  /** The price the round's buyers saw (null when the round's turns are not stored yet). */
  price: number | null;
  /** Its change from the round before (null in round 1, or when either price is unknown). */
  priceChange: number | null;
  /** The arm of the description the round's buyers saw. */
  arm: string | null;
  bookings: number;
  share: number | null;
  /** What it did at its turn after the round, short ("$213 → $199 · writes urgency", "kept"). */
  turn: string;
  /** Whether the turn changed the listing (for colour). */
  changed: boolean;
  /** The description it wrote at that turn, whole, with its arm (null when it wrote none). */
  wrote: { arm: string; text: string } | null;
  /** The description the round's buyers saw, whole. */
  seen: string | null;
}

/** A seller's turn in a few words; the description's text is the descriptions panel's. */
export function turnText(t: TurnLike | undefined): string {
  if (!t) return "(turn not stored yet)";
  const parts: string[] = [];
  if (t.priceChanged) parts.push(`$${t.before.price} → $${t.price}`);
  if (t.descriptionChanged) parts.push(`writes ${t.arm}`);
  if (parts.length === 0) parts.push(t.endReason === "invalid" ? "no valid call: kept" : "kept");
  if (t.invalidCalls > 0) parts.push(`${t.invalidCalls} call${t.invalidCalls === 1 ? "" : "s"} refused`);
  return parts.join(" · ");
}

/**
 * The listing a round's buyers saw: as its turn after the round records it, or — while that turn
 * is not stored yet (a market stopped mid-round) — as the seller left it at its turn before.
 */
function seenListing(
  m: MarketResult,
  roundIndex: number,
  seller: number,
  turns: TurnsByPlace,
): { price: number; arm: string; description: string | null } | null {
  const r = m.rounds[roundIndex];
  if (!r) return null;
  const own = r.sellers.find((x) => x.seller === seller);
  const t = turns.get(turnPlace(m.key, r.round, seller));
  if (own?.price != null && own.arm !== null)
    return { price: own.price, arm: own.arm, description: t?.before.description ?? null };
  const before = turns.get(turnPlace(m.key, r.round - 1, seller));
  return before ? { price: before.price, arm: before.arm, description: before.description } : null;
}

/** The sellers of one round of one market, in seller order. */
export function sellerRows(m: MarketResult, roundIndex: number, turns: TurnsByPlace): SellerRow[] {
  const r = m.rounds[roundIndex];
  if (!r) return [];
  return r.sellers.map((s) => {
    const info = m.sellers.find((x) => x.seller === s.seller);
    const t = turns.get(turnPlace(m.key, r.round, s.seller));
    const seen = seenListing(m, roundIndex, s.seller, turns);
    const previous = roundIndex > 0 ? seenListing(m, roundIndex - 1, s.seller, turns) : null;
    return {
      seller: s.seller,
      name: info?.name ?? `seller ${s.seller}`,
      agent: info?.agent ?? "?",
      adopter: info?.adopter ?? false,
      price: seen?.price ?? null,
      priceChange: seen && previous ? seen.price - previous.price : null,
      arm: seen?.arm ?? null,
      bookings: s.bookings,
      share: s.share,
      turn: turnText(t),
      changed: t ? t.priceChanged || t.descriptionChanged : false,
      wrote: t?.descriptionChanged ? { arm: t.arm, text: t.description } : null,
      seen: seen?.description ?? null,
    };
  });
}

/** The agents of a market: the adopters' and the rest's (a market has at most these two). */
export function marketAgents(m: MarketResult): { adopters: string | null; rest: string | null } {
  const adopters = [...new Set(m.sellers.filter((s) => s.adopter).map((s) => s.agent))];
  const rest = [...new Set(m.sellers.filter((s) => !s.adopter).map((s) => s.agent))];
  return { adopters: adopters.join(", ") || null, rest: rest.join(", ") || null };
}

/** The round's summary: bookings, HHI, mean price paid, buyer success, the adopters' share. */
export function roundSummary(r: RoundRow): string {
  const parts = [
    `${r.buyers} buyer episode${r.buyers === 1 ? "" : "s"}, ${r.bookings} booked`,
    `HHI ${r.hhi === null ? "–" : Math.round(r.hhi).toLocaleString("en-US")}`,
    `mean price paid ${r.meanPricePaid === null ? "–" : `$${r.meanPricePaid.toFixed(2)}`}`,
    `buyer success ${r.success === null ? "–" : `${Math.round(100 * r.success)}%`}`,
  ];
  if (r.adoptersShare !== null) parts.push(`adopters' share ${Math.round(100 * r.adoptersShare)}%`);
  if (r.violations > 0)
    parts.push(`${r.violations} booking${r.violations === 1 ? "" : "s"} broke a constraint`);
  return parts.join(" · ");
}
