import { mostlyTemplateSentence } from "./narrator.ts";
import { comparePairedBuyers, type PairedComparison, type PairedOptions } from "./paired.ts";
import { type ScoredSession, type SessionInput, scoreSession } from "./session.ts";
import { type ByInterest, summarizeByInterest } from "./summary.ts";

export interface PairingSummary {
  buyer: string;
  seller: string;
  summary: ByInterest;
}

/** The whole analysis of a bargaining run: every table `bazaar analyze` shows. */
export interface BargainAnalysis {
  sessions: number;
  /** Distinct scenarios and how many are mutual / conflicting interest. */
  scenarios: { total: number; MI: number; CI: number };
  buyers: string[];
  sellers: string[];
  /** Per buyer × seller pairing, MI / CI / ALL. */
  pairings: PairingSummary[];
  /**
   * Per buyer, all its sellers pooled; with an LLM narrator, its narrated turns and template
   * fallbacks (summary.ALL.narrator, repeated here), else null.
   */
  byBuyer: {
    buyer: string;
    summary: ByInterest;
    narratorTurns: number | null;
    narratorFallbacks: number | null;
  }[];
  /** Per seller, all its buyers pooled. */
  bySeller: { seller: string; summary: ByInterest }[];
  /** Each OG-Narrator buyer against each other buyer, per seller and pooled (null seller). */
  comparisons: PairedComparison[];
  /** Plain warnings: buyers whose results are mostly the template narrator's, not their model's. */
  notes: string[];
}

export interface AnalyzeOptions extends PairedOptions {
  /** Buyer pairs to compare (treatment, control); default: every og-narrator buyer vs every other buyer. */
  compare?: [string, string][];
}

function distinct<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** OG-Narrator buyers against the others; without an OG buyer, the first buyer against the rest. */
export function defaultComparisons(buyers: readonly string[]): [string, string][] {
  const og = buyers.filter((b) => b.startsWith("og-narrator"));
  const plain = buyers.filter((b) => !b.startsWith("og-narrator"));
  if (og.length > 0) return og.flatMap((t) => plain.map((c) => [t, c] as [string, string]));
  return buyers.slice(1).map((c) => [buyers[0]!, c] as [string, string]);
}

export function analyzeBargain(
  records: Iterable<SessionInput>,
  options: AnalyzeOptions = {},
): BargainAnalysis {
  const sessions: ScoredSession[] = [];
  for (const r of records) sessions.push(scoreSession(r));
  const buyers = distinct(sessions.map((s) => s.buyer));
  const sellers = distinct(sessions.map((s) => s.seller));
  const interestOf = new Map(sessions.map((s) => [s.scenarioId, s.interest]));
  const pairings = buyers.flatMap((buyer) =>
    sellers
      .map((seller) => ({
        buyer,
        seller,
        in: sessions.filter((s) => s.buyer === buyer && s.seller === seller),
      }))
      .filter((p) => p.in.length > 0)
      .map((p) => ({ buyer: p.buyer, seller: p.seller, summary: summarizeByInterest(p.in) })),
  );
  const comparisons = (options.compare ?? defaultComparisons(buyers)).flatMap(([t, c]) =>
    [...sellers, null].map((seller) => comparePairedBuyers(sessions, t, c, seller, options)),
  );
  const byBuyer = buyers.map((buyer) => {
    const summary = summarizeByInterest(sessions.filter((s) => s.buyer === buyer));
    const n = summary.ALL.narrator;
    return { buyer, summary, narratorTurns: n?.turns ?? null, narratorFallbacks: n?.fallbacks ?? null };
  });
  return {
    sessions: sessions.length,
    scenarios: {
      total: interestOf.size,
      MI: [...interestOf.values()].filter((i) => i === "MI").length,
      CI: [...interestOf.values()].filter((i) => i === "CI").length,
    },
    buyers,
    sellers,
    pairings,
    byBuyer,
    bySeller: sellers.map((seller) => ({
      seller,
      summary: summarizeByInterest(sessions.filter((s) => s.seller === seller)),
    })),
    comparisons: comparisons.filter((c) => c.pairs > 0),
    notes: byBuyer.flatMap((b) => mostlyTemplateSentence(b.buyer, b.summary.ALL.narrator) ?? []),
  };
}
