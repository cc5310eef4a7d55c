/**
 * Money left on the table: what the agent paid beside the cheapest admissible listing of the task,
 * and beside the admissible listing its own fitted tastes rank best (attributes only — no rank, page
 * or tag), which is what a platform-blind agent with the same tastes would have booked.
 */
import type { LogitFitOk } from "../logit/index.ts";
import { attributeUtility } from "./logit.ts";
import type { ShopEpisode } from "./records.ts";

export interface MoneyOnTable {
  /** Bookings of an admissible listing on a feasible task. */
  bookings: number;
  meanPaid: number | null;
  meanCheapest: number | null;
  /** Mean of paid − cheapest admissible (≥ 0 by construction). */
  meanOverCheapest: number | null;
  /** Mean of paid − the price of the admissible listing the fitted tastes rank best; null without a fit. */
  meanOverBest: number | null;
  /** Share of bookings that were not the best admissible listing by the fitted tastes. */
  notBestShare: number | null;
}

/** What a booking cost: the agreed price after a deal (a run with offers), else the list price. */
const paidFor = (e: ShopEpisode) => e.paid ?? e.booked!.price;

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function moneyOnTable(episodes: readonly ShopEpisode[], fit: LogitFitOk | null): MoneyOnTable {
  const paid = episodes.filter((e) => e.booked?.admissible && e.cheapestAdmissible !== null);
  let overBest: number[] | null = null;
  let notBest: boolean[] | null = null;
  if (fit) {
    overBest = [];
    notBest = [];
    for (const e of paid) {
      let best = e.admissible[0]!;
      let bestU = Number.NEGATIVE_INFINITY;
      for (const l of e.admissible) {
        const u = attributeUtility(fit, l);
        if (u > bestU) {
          bestU = u;
          best = l;
        }
      }
      overBest.push(paidFor(e) - best.price);
      notBest.push(best.id !== e.booked!.id);
    }
  }
  return {
    bookings: paid.length,
    meanPaid: mean(paid.map(paidFor)),
    meanCheapest: mean(paid.map((e) => e.cheapestAdmissible!)),
    meanOverCheapest: mean(paid.map((e) => paidFor(e) - e.cheapestAdmissible!)),
    meanOverBest: overBest ? mean(overBest) : null,
    notBestShare: notBest?.length ? notBest.filter(Boolean).length / notBest.length : null,
  };
}
