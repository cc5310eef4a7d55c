/**
 * The negotiation analysis of a shop run with offers (specs/market.md Part 3, Outcomes): deal rates
 * and discounts per buyer × seller pair and per buyer, the bargaining paper's normalized profits
 * with B = the cap and C = the cost, sellers played against each other, paired comparisons of the
 * buyers on the same tasks, the risk flags, and for an OG-Narrator with an LLM narrator how many of
 * its offers fell back to the template line. Pure: episodes in (agent errors already left out),
 * results out; randomness only from the seed given.
 */
import {
  type BuyerNegotiation,
  buyerNegotiations,
  negotiationUnits,
  type PairNegotiation,
  pairNegotiations,
} from "./negotiation-deals.ts";
import { mostlyTemplateOffers } from "./negotiation-narrator.ts";
import { buyerPairs, compareNegotiatingBuyers, type NegotiationComparison } from "./negotiation-paired.ts";
import { type BuyerQuotes, buyerQuotes } from "./negotiation-quotes.ts";
import { type NegotiationEpisode, negotiationEpisodes, sellerNamer } from "./negotiation-records.ts";
import { type BuyerRisks, buyerRisks } from "./negotiation-risks.ts";
import type { ShopEpisode } from "./records.ts";

export interface NegotiationOptions {
  /** The run's seller negotiator specs, seller-1 first (the design's `sellerNegotiators`). */
  sellers?: readonly string[];
  /** Task-bootstrap draws of the paired comparisons (0: no intervals). */
  draws?: number;
  level?: number;
  seed?: string;
}

export interface NegotiationAnalysis {
  level: number;
  draws: number;
  /** Seller roles and the name each goes by in the tables (its spec where the run says). */
  sellers: { role: string; name: string }[];
  episodes: number;
  negotiations: number;
  deals: number;
  /** Negotiations and deals on requests without a price cap: out of the normalized profits. */
  uncapped: { negotiations: number; deals: number };
  pairs: PairNegotiation[];
  buyers: BuyerNegotiation[];
  quotes: BuyerQuotes[];
  comparisons: NegotiationComparison[];
  risks: BuyerRisks[];
  /** Plain warnings: buyers most of whose offers are the template narrator's words, not their model's. */
  notes: string[];
}

/** `episodes`: a run's episodes that carry the offer fields, agent errors left out. */
export function analyzeNegotiation(
  episodes: readonly ShopEpisode[],
  options: NegotiationOptions = {},
): NegotiationAnalysis {
  const level = options.level ?? 0.95;
  const draws = options.draws ?? 200;
  const list: NegotiationEpisode[] = negotiationEpisodes(episodes);
  const name = sellerNamer(options.sellers);
  const buyers = [...new Set(list.map((e) => e.agent))];
  const units = negotiationUnits(list, name);
  const roles = [
    ...new Set([
      ...(options.sellers ?? []).map((_, i) => `seller-${i + 1}`),
      ...list.flatMap((e) => e.negotiations.map((n) => n.seller)),
    ]),
  ].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)) || a.localeCompare(b));
  const uncapped = units.filter((u) => u.cap === null);
  const byBuyer = buyerNegotiations(list, units, buyers, level);
  return {
    level,
    draws,
    sellers: roles.map((role) => ({ role, name: name(role) })),
    episodes: list.length,
    negotiations: units.length,
    deals: units.filter((u) => u.deal !== null).length,
    uncapped: { negotiations: uncapped.length, deals: uncapped.filter((u) => u.deal !== null).length },
    pairs: pairNegotiations(units, level),
    buyers: byBuyer,
    quotes: buyerQuotes(list, buyers, level),
    comparisons: buyerPairs(buyers).map(([t, c]) =>
      compareNegotiatingBuyers(list, t, c, { draws, level, seed: options.seed }),
    ),
    risks: buyerRisks(list, buyers, level),
    notes: byBuyer.flatMap(
      (b) =>
        mostlyTemplateOffers(
          b.buyer,
          b.narratedOffers === null ? null : { turns: b.narratedOffers, fallbacks: b.narratorFallbacks ?? 0 },
        ) ?? [],
    ),
  };
}
