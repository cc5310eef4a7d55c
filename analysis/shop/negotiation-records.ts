/**
 * The offer fields of shop records (specs/market.md Part 3) as the negotiation estimators read them:
 * every negotiation with its moves, the nightly price paid and the deadlock flag. Only a design
 * with offers writes them, so a run whose records carry none is a plain shop and gets no
 * negotiation analysis at all. A record of an offers run that lacks them is named, never skipped.
 */
import { z } from "zod";
import { UserError } from "../../environments/kernel/errors.ts";
import type { Negotiation } from "../../environments/shop/types.ts";
import type { ShopEpisode } from "./records.ts";

const Move = z.looseObject({
  step: z.number(),
  side: z.enum(["buyer", "seller"]),
  move: z.enum(["offer", "accept", "counter", "reject", "quit", "invalid"]),
  price: z.number().nullable(),
  message: z.string(),
  answer: z.enum(["accept", "counter", "reject", "quit", "invalid", "deal"]).optional(),
  note: z.string().optional(),
});

const NegotiationRecord = z.looseObject({
  id: z.string(),
  seller: z.string(),
  listPrice: z.number(),
  cost: z.number(),
  cap: z.number().nullable(),
  offers: z.array(Move),
  deal: z.number().nullable(),
  closed: z.boolean(),
  sellerInvalid: z.number(),
});

const OfferFields = z.looseObject({
  negotiations: z.array(NegotiationRecord),
  paid: z.number().nullable(),
  deadlock: z.boolean(),
});

/** A shop episode of a design with offers. */
export type NegotiationEpisode = ShopEpisode & {
  negotiations: Negotiation[];
  /** Nightly price paid: the agreed price where the booked listing had a deal, else its list price. */
  paid: number | null;
  /** Out of steps while a negotiation was open. */
  deadlock: boolean;
};

/** Whether any record carries the offer fields (a run with `--negotiable`). */
export function hasOffers(episodes: readonly ShopEpisode[]): boolean {
  return episodes.some((e) => (e as { negotiations?: unknown }).negotiations !== undefined);
}

/**
 * The episodes of an offers run, checked; agent-error episodes are the caller's to drop first
 * (missing data, whatever they carry).
 */
export function negotiationEpisodes(episodes: readonly ShopEpisode[]): NegotiationEpisode[] {
  return episodes.map((e, i) => {
    const parsed = OfferFields.safeParse(e);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `shop record ${i} (task ${e.taskId}, agent ${e.agent}) lacks the offer fields other records of the run have: ${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`,
        "analyze the records of one run made by bazaar run shop --negotiable (or records in its export format)",
      );
    }
    return e as NegotiationEpisode;
  });
}

/**
 * Who a seller role is: the run's `--seller-negotiator` spec of that role (seller-1 first) where the
 * run says, else the role itself (records alone name only roles).
 */
export function sellerNamer(specs: readonly string[] | undefined): (role: string) => string {
  return (role) => {
    const k = /^seller-([1-9][0-9]*)$/.exec(role);
    return (k && specs?.[Number(k[1]) - 1]) || role;
  };
}
