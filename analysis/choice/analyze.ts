/** Everything the PriceBench paper reports per agent, from a run's choice trials. */
import { createRng } from "../../environments/kernel/rng.ts";
import { ATTRIBUTE_NAMES, decileMedians, pooledOptionPrices, priceDecileEdges } from "./attributes.ts";
import { type BookingOutcome, bookingOutcome } from "./booking.ts";
import { type ChoiceBootstrap, pairClusteredBootstrap } from "./bootstrap.ts";
import { type BrandPremiums, fitBrandPremiums, type ProviderBrandTest, providerBrandTest } from "./brand.ts";
import { type CrossModelSummary, crossModelSummary } from "./cross-model.ts";
import { type BinaryForms, type ConditionalForms, fitBinaryForms, fitConditionalForms } from "./fits.ts";
import { type MultiplicityAudit, multiplicityAudit } from "./multiplicity.ts";
import { type FormatAgreement, formatAgreement, type HitRate, outOfSampleHitRate } from "./prediction.ts";
import { type ChoiceTriage, isLocked, LOCK_THRESHOLD, triageAgent } from "./triage.ts";
import {
  type ChoiceConvention,
  type ChoiceTrial,
  DEFAULT_CONVENTION,
  type UnmatchedAnswers,
} from "./types.ts";
import { coefficient, DEFAULT_REFERENCE_PRICE, reviewWtp, type Wtp } from "./wtp.ts";

export interface ChoiceAnalysisOptions {
  convention?: ChoiceConvention;
  /** P_ref of the log-form WTP, dollars (default 250). */
  referencePrice?: number;
  /** Pair-clustered bootstrap draws shared across agents (default 500; 0 skips the bootstrap). */
  bootstrapDraws?: number;
  /** Seed of the bootstrap draws and of the brand permutation test. */
  seed?: string | number;
  /** Decile cut points; default: computed once from the pooled binary + ternary option prices. */
  decileEdges?: readonly number[];
  /** Add neighborhood controls to the brand premiums. */
  neighborhoodControls?: boolean;
  /** The well-identified screen: both β_ln p and β_review at p below this (default 0.001). */
  wellIdentifiedAlpha?: number;
  lockThreshold?: number;
  /** Provider of each agent, for the within- vs across-provider brand test. */
  providers?: Readonly<Record<string, string>>;
  /**
   * Per agent, answers its run holds that match no task (see `UnmatchedAnswers`); read only by a
   * convention whose triage counts them (the reference's).
   */
  unmatchedAnswers?: Readonly<Record<string, readonly UnmatchedAnswers[]>>;
}

/** How a position-locked agent's fit is labelled wherever it is shown. */
export const LOCKED_FIT_LABEL = "position-locked: not a preference";

export type AgentStatus = "engaged" | "locked" | "no-data";

export interface AgentChoiceAnalysis {
  agent: string;
  status: AgentStatus;
  triage: ChoiceTriage;
  booking: BookingOutcome;
  /**
   * Binary logits in the three price forms: null without binary answers, and for locked agents
   * unless the convention fits them (`lockedFit`).
   */
  binary: BinaryForms | null;
  /** A locked agent's binary fit made for the reference's table: `LOCKED_FIT_LABEL`, no preference. */
  lockedFit: boolean;
  wtp: { linear: Wtp | null; log: Wtp | null } | null;
  /** β_ln p and β_review both significant at `wellIdentifiedAlpha`: in the WTP ranking and spread. */
  wellIdentified: boolean;
  brand: BrandPremiums | null;
  /** Conditional logits on the ternary (slot constants per the convention) and five-option tasks (with them). */
  ternary: ConditionalForms | null;
  five: ConditionalForms | null;
  /** Five-option choices predicted by the binary log-form utilities. */
  fiveHitRate: HitRate | null;
}

export interface ChoiceAnalysis {
  convention: ChoiceConvention;
  referencePrice: number;
  decileEdges: number[];
  /** Cut points of the brand premiums' price deciles (per the convention). */
  brandDecileEdges: number[];
  /** Median pooled price in each decile (the x axis of decile curves). */
  decileMedians: number[];
  agents: AgentChoiceAnalysis[];
  bootstrap: ChoiceBootstrap | null;
  multiplicity: MultiplicityAudit;
  formatAgreement: FormatAgreement;
  providerBrand: ProviderBrandTest | null;
  /** The cross-agent findings (locked agents, ranges, spreads) over the engaged agents. */
  crossModel: CrossModelSummary;
}

function groupByAgent(trials: readonly ChoiceTrial[]): Map<string, ChoiceTrial[]> {
  const by = new Map<string, ChoiceTrial[]>();
  for (const t of trials) {
    const list = by.get(t.agent);
    if (list) list.push(t);
    else by.set(t.agent, [t]);
  }
  return by;
}

function analyzeAgent(
  agent: string,
  trials: ChoiceTrial[],
  edges: { fits: readonly number[]; brand: readonly number[] },
  opts: Required<Pick<ChoiceAnalysisOptions, "referencePrice" | "wellIdentifiedAlpha" | "lockThreshold">> &
    ChoiceAnalysisOptions & { convention: ChoiceConvention },
): AgentChoiceAnalysis {
  const unmatched = opts.convention.triageCountsUnmatched ? (opts.unmatchedAnswers?.[agent] ?? []) : [];
  const triage = triageAgent(trials, opts.lockThreshold, unmatched);
  const status: AgentStatus = isLocked(triage.verdict)
    ? "locked"
    : triage.verdict === "no-data"
      ? "no-data"
      : "engaged";
  const result: AgentChoiceAnalysis = {
    agent,
    status,
    triage,
    booking: bookingOutcome(trials),
    binary: null,
    lockedFit: false,
    wtp: null,
    wellIdentified: false,
    brand: null,
    ternary: null,
    five: null,
    fiveHitRate: null,
  };
  const binaryTrials = trials.filter((t) => t.kind === "binary");
  const fitBinary = () => {
    const binary = fitBinaryForms(binaryTrials, opts.convention, edges.fits);
    result.binary = binary;
    result.wtp = {
      linear: reviewWtp(binary.linear, "linear"),
      log: reviewWtp(binary.log, "log", opts.referencePrice),
    };
    return binary;
  };
  if (status === "locked" && opts.convention.lockedAgents === "fit" && binaryTrials.length > 0) {
    // The reference's per-model table fits every model; the estimates of one that follows the slot
    // describe the slot, not a preference, so they are labelled and enter no cross-agent figure.
    fitBinary();
    result.lockedFit = true;
    return result;
  }
  if (status !== "engaged") return result;
  if (binaryTrials.length > 0) {
    const binary = fitBinary();
    const pPrice = coefficient(binary.log, "lnPrice")?.p ?? 1;
    const pReview = coefficient(binary.log, "review")?.p ?? 1;
    result.wellIdentified = pPrice < opts.wellIdentifiedAlpha && pReview < opts.wellIdentifiedAlpha;
    result.brand = fitBrandPremiums(binaryTrials, opts.convention, edges.brand, {
      neighborhoods: opts.neighborhoodControls,
    });
  }
  result.ternary = fitConditionalForms(
    trials.filter((t) => t.kind === "ternary"),
    opts.convention.ternarySlotConstants,
  );
  const five = trials.filter((t) => t.kind === "five");
  result.five = fitConditionalForms(five);
  if (result.binary && five.length > 0)
    result.fiveHitRate = outOfSampleHitRate(result.binary.log, { priceForm: "log" }, five);
  return result;
}

function multiplicityTests(agents: readonly AgentChoiceAnalysis[]) {
  const tests: { agent: string; test: string; p: number; claimed: boolean }[] = [];
  for (const a of agents) {
    if (a.status !== "engaged") continue;
    if (a.binary?.log.status !== "ok" || a.binary.linear.status !== "ok") continue;
    const add = (name: string, fit: "log" | "linear") => {
      const c = coefficient(a.binary![fit], name);
      // The WTP findings rest on β ln p and β review of the well-identified agents.
      const claimed = a.wellIdentified && fit === "log" && (name === "lnPrice" || name === "review");
      if (c && Number.isFinite(c.p))
        tests.push({ agent: a.agent, test: `${name} (${fit} form)`, p: c.p, claimed });
    };
    add("lnPrice", "log");
    add("price", "linear");
    for (const name of ATTRIBUTE_NAMES) add(name, "log");
  }
  return tests;
}

/** Estimates per agent (agents in order of first appearance) and the cross-agent summaries. */
export function analyzeChoice(
  trials: readonly ChoiceTrial[],
  options: ChoiceAnalysisOptions = {},
): ChoiceAnalysis {
  const convention = options.convention ?? DEFAULT_CONVENTION;
  const referencePrice = options.referencePrice ?? DEFAULT_REFERENCE_PRICE;
  if (!(referencePrice > 0)) throw new RangeError(`referencePrice must be positive, got ${referencePrice}`);
  const pooled = pooledOptionPrices(trials);
  const edges = options.decileEdges
    ? [...options.decileEdges]
    : pooled.length > 0
      ? priceDecileEdges(pooled)
      : priceDecileEdges(pooledOptionPrices(trials, ["binary", "ternary", "five"]));
  const opts = {
    ...options,
    convention,
    referencePrice,
    wellIdentifiedAlpha: options.wellIdentifiedAlpha ?? 0.001,
    lockThreshold: options.lockThreshold ?? LOCK_THRESHOLD,
  };
  const binaryPrices = pooledOptionPrices(trials, ["binary"]);
  const brandEdges =
    convention.brandDeciles === "binary" && binaryPrices.length > 0 ? priceDecileEdges(binaryPrices) : edges;
  const byAgent = groupByAgent(trials);
  const agents = [...byAgent].map(([agent, list]) =>
    analyzeAgent(agent, list, { fits: edges, brand: brandEdges }, opts),
  );
  const seed = options.seed ?? "bazaar-choice";
  const draws = options.bootstrapDraws ?? 500;
  const bootstrappable = agents.filter(
    (a) =>
      a.status === "engaged" && a.binary && a.binary.log.status === "ok" && a.binary.linear.status === "ok",
  );
  const bootstrap =
    draws > 0 && bootstrappable.length > 0
      ? pairClusteredBootstrap(
          bootstrappable.map((a) => ({
            agent: a.agent,
            trials: byAgent.get(a.agent)!.filter((t) => t.kind === "binary"),
            start: {
              log: a.binary!.log.status === "ok" ? a.binary!.log.coefficients.map((c) => c.estimate) : [],
              linear:
                a.binary!.linear.status === "ok" ? a.binary!.linear.coefficients.map((c) => c.estimate) : [],
            },
            wellIdentified: a.wellIdentified,
          })),
          { draws, rng: createRng(seed).fork("bootstrap"), referencePrice, convention, edges },
        )
      : null;
  const agreementRows = agents.flatMap((a) => {
    if (a.status !== "engaged") return [];
    const bl = a.binary ? coefficient(a.binary.log, "lnPrice") : undefined;
    const bn = a.binary ? coefficient(a.binary.linear, "price") : undefined;
    const tl = a.ternary ? coefficient(a.ternary.log, "lnPrice") : undefined;
    const tn = a.ternary ? coefficient(a.ternary.linear, "price") : undefined;
    return bl && bn && tl && tn
      ? [
          {
            agent: a.agent,
            binaryLog: bl.estimate,
            ternaryLog: tl.estimate,
            binaryLinear: bn.estimate,
            ternaryLinear: tn.estimate,
          },
        ]
      : [];
  });
  const providers = options.providers;
  const branded = agents.filter(
    (a) => a.status === "engaged" && a.brand?.premiums && providers?.[a.agent] !== undefined,
  );
  return {
    convention,
    referencePrice,
    decileEdges: edges,
    brandDecileEdges: [...brandEdges],
    decileMedians: decileMedians(pooled, edges),
    agents,
    bootstrap,
    multiplicity: multiplicityAudit(multiplicityTests(agents)),
    formatAgreement: formatAgreement(agreementRows),
    providerBrand: providerBrandTest(
      branded.map((a) => ({
        provider: providers![a.agent]!,
        premiums: a.brand!.premiums!.map((p) => p.estimate),
      })),
      createRng(seed).fork("brand-permutations"),
    ),
    crossModel: crossModelSummary(agents),
  };
}
