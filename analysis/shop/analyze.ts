/**
 * The shop analysis of a run: per agent, what its episodes ended with, pass^k over replicates, how
 * it searched, the funnel, its revealed preferences over what it saw with the price-equivalents of
 * rank and tags, money left on the table, the dominance checks, and — where descriptions vary — the
 * description arms' price-equivalents, injection followed and false-claim uptake; with offers in the
 * design, the negotiation analysis (negotiation.ts). Episodes whose agent failed (an
 * infrastructure error after every retry) are missing data: counted apart and left out of every
 * estimate. Pure: records in, results out; randomness only from the seed given.
 */
import { createRng } from "../../environments/kernel/rng.ts";
import { DEFAULT_REFERENCE_PRICE } from "../choice/wtp.ts";
import { type DescriptionAnalysis, descriptionAnalysis } from "./arms.ts";
import { type SearchBehaviour, searchBehaviour } from "./behaviour.ts";
import { type DominanceChecks, dominanceChecks } from "./dominance.ts";
import { type Funnel, shopFunnel } from "./funnel.ts";
import { type ShopLogit, shopLogit } from "./logit.ts";
import { type MoneyOnTable, moneyOnTable } from "./money.ts";
import { analyzeNegotiation, type NegotiationAnalysis } from "./negotiation.ts";
import { hasOffers } from "./negotiation-records.ts";
import { type ShopOutcomes, shopOutcomes } from "./outcomes.ts";
import { type PassK, passK } from "./pass-k.ts";
import type { ShopEpisode } from "./records.ts";

export interface ShopAnalysisOptions {
  /** Task-bootstrap draws for pass^k and the price-equivalents (default 200; 0 skips). */
  draws?: number;
  seed?: string;
  /** Reference nightly price of the dollar figures (default $250, as catalog choice). */
  referencePrice?: number;
  level?: number;
  /** The run's seller negotiator specs, seller-1 first (a design with offers names them). */
  sellers?: readonly string[];
}

export interface ShopAgentAnalysis {
  agent: string;
  episodes: number;
  /** Episodes left out because the agent failed to answer (missing data). */
  agentErrors: number;
  tasks: number;
  replicates: number;
  outcomes: ShopOutcomes;
  passK: PassK[];
  behaviour: SearchBehaviour;
  funnel: Funnel;
  logit: ShopLogit;
  money: MoneyOnTable;
  dominance: DominanceChecks;
  /** Description arms: price-equivalents, injection followed, false-claim uptake (or why untestable). */
  descriptions: DescriptionAnalysis;
}

export interface ShopAnalysis {
  episodes: number;
  agentErrors: number;
  referencePrice: number;
  level: number;
  draws: number;
  /** Some agent was shown a listing whose description was not neutral. */
  descriptionsVary: boolean;
  agents: ShopAgentAnalysis[];
  /** Only for a run with offers (`--negotiable`): a plain shop's analysis has no such key. */
  negotiation?: NegotiationAnalysis;
}

export function analyzeShop(all: readonly ShopEpisode[], options: ShopAnalysisOptions = {}): ShopAnalysis {
  const draws = options.draws ?? 200;
  const referencePrice = options.referencePrice ?? DEFAULT_REFERENCE_PRICE;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? "bazaar-shop";
  const agents = [...new Set(all.map((e) => e.agent))];
  const out: ShopAgentAnalysis[] = agents.map((agent) => {
    const mine = all.filter((e) => e.agent === agent);
    const episodes = mine.filter((e) => e.endReason !== "agent-error");
    const rng = createRng(`${seed}/${agent}`);
    const logit = shopLogit(episodes, { referencePrice, draws, rng: rng.fork("logit"), level });
    return {
      agent,
      episodes: episodes.length,
      agentErrors: mine.length - episodes.length,
      tasks: new Set(episodes.map((e) => e.taskId)).size,
      replicates: Math.max(0, ...episodes.map((e) => e.replicate + 1)),
      outcomes: shopOutcomes(episodes, level),
      passK: passK(episodes, { draws, rng: rng.fork("pass-k"), level }),
      behaviour: searchBehaviour(episodes),
      funnel: shopFunnel(episodes),
      logit,
      money: moneyOnTable(episodes, logit.status === "ok" ? logit.fit : null),
      dominance: dominanceChecks(episodes, level),
      descriptions: descriptionAnalysis(episodes, logit, { draws, rng: rng.fork("descriptions"), level }),
    };
  });
  return {
    episodes: all.length,
    agentErrors: out.reduce((a, x) => a + x.agentErrors, 0),
    referencePrice,
    level,
    draws,
    descriptionsVary: out.some((a) => a.descriptions.status === "ok"),
    agents: out,
    ...(hasOffers(all)
      ? {
          negotiation: analyzeNegotiation(
            all.filter((e) => e.endReason !== "agent-error"),
            { sellers: options.sellers, draws, level, seed },
          ),
        }
      : {}),
  };
}
