import type { BargainMoveAction } from "../../environments/bargain/actions.ts";
import type { BargainView, MoveType } from "../../environments/bargain/types.ts";
import { ceilCents, floorCents } from "../../environments/kernel/money.ts";
import type { Acted, Agent, Observation } from "../../environments/kernel/types.ts";
import { talkLine } from "./talk.ts";
import { type Reading, read } from "./view.ts";

/**
 * Rule negotiators for either role (Faratin et al.'s time-dependent tactics and tit-for-tat). They
 * never pass their own limit: a seller never asks or accepts below its cost, a buyer never offers
 * or accepts above its budget. A seller's range runs from the listed price down to its cost; a
 * buyer's from `buyerOpen` × budget up to its budget. Prices are whole cents, rounded toward the
 * side's own interest (a seller up, a buyer down). They never quit: the turn limit ends a failure.
 */
export interface RangeParams {
  /** Where a rule buyer opens, as a fraction of its budget (the OG generator's 0.5 by default). */
  buyerOpen: number;
}

export const DEFAULT_RANGE: RangeParams = { buyerOpen: 0.5 };

/** The side's range: from its opening price (`from`) to its limit (`to`). */
export function priceRange(view: BargainView, range: RangeParams): { from: number; to: number } {
  return view.role === "seller"
    ? { from: Math.max(view.listedPrice, view.limit), to: view.limit }
    : { from: range.buyerOpen * view.limit, to: view.limit };
}

function rounded(view: BargainView, price: number): number {
  return view.role === "seller" ? ceilCents(price) : floorCents(price);
}

/** Whether `counter` is at least as good for this side as `own` (AC_next: accept what beats my next offer). */
function atLeastAsGood(view: BargainView, counter: number, own: number): boolean {
  return view.role === "seller" ? counter >= own : counter <= own;
}

function move(type: MoveType, price: number | null, view: BargainView, r: Reading): Acted<BargainMoveAction> {
  const talk = talkLine(view.role, type, price, r.step - 1, r.step === 0);
  if (type === "offer" || type === "deal") return { action: { type, price: price!, talk } };
  return { action: { type: type as "reject" | "quit", talk } };
}

/** Accept the other side's best offer if it beats `next`, else offer `next`. */
function acceptOrOffer(view: BargainView, r: Reading, next: number): Acted<BargainMoveAction> {
  if (r.bestCounter !== null && atLeastAsGood(view, r.bestCounter, next))
    return move("deal", r.bestCounter, view, r);
  return move("offer", next, view, r);
}

/**
 * target(t) = from + (to − from)·f(t), f(t) = k + (1 − k)·t^(1/e), t = the share of the side's
 * moves used (0 at its first move, 1 at its last). e < 1 concedes late (Boulware), e = 1 linearly,
 * e > 1 early (Conceder); e = 0 never concedes (f = k: a hardliner).
 */
export class TimeDependentNegotiator implements Agent<BargainView, BargainMoveAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly e: number,
    readonly k = 0,
    readonly range: RangeParams = DEFAULT_RANGE,
  ) {}

  concession(view: BargainView, step: number): number {
    const t = view.maxTurns <= 1 ? 1 : Math.min(1, step / (view.maxTurns - 1));
    return this.e === 0 ? this.k : this.k + (1 - this.k) * t ** (1 / this.e);
  }

  target(view: BargainView, step: number): number {
    const { from, to } = priceRange(view, this.range);
    return rounded(view, from + (to - from) * this.concession(view, step));
  }

  act({ view }: Observation<BargainView>): Acted<BargainMoveAction> {
    const r = read(view);
    return acceptOrOffer(view, r, this.target(view, r.step));
  }
}

/**
 * Tit-for-tat (relative, Faratin et al.): open at the start of the range, then give up as much as
 * the other side gave up between its last two offers, within the range.
 */
export class TitForTatNegotiator implements Agent<BargainView, BargainMoveAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    readonly id: string,
    readonly range: RangeParams = DEFAULT_RANGE,
  ) {}

  next(view: BargainView, r: Reading): number {
    const { from, to } = priceRange(view, this.range);
    const last = r.ownOffers.at(-1);
    if (last === undefined) return rounded(view, from);
    const c = r.counterOffers;
    // The other side's concession: a buyer raising its bid, a seller lowering its ask.
    const given = c.length >= 2 ? Math.abs(c[c.length - 1]! - c[c.length - 2]!) : 0;
    const conceded =
      c.length >= 2 && (view.role === "seller" ? c.at(-1)! > c.at(-2)! : c.at(-1)! < c.at(-2)!);
    const step = conceded ? given : 0;
    const next = view.role === "seller" ? Math.max(to, last - step) : Math.min(to, last + step);
    return rounded(view, next);
  }

  act({ view }: Observation<BargainView>): Acted<BargainMoveAction> {
    const r = read(view);
    return acceptOrOffer(view, r, this.next(view, r));
  }
}
