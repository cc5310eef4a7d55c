/**
 * One cell of a client run — a shopper working for one client (the record's `agent`, "<shopper>
 * for <client>") — summed up by specs/client.md's estimators:
 * - success on the hidden requirements, with pass^k over replicates;
 * - regret in the client's dollars a night, over every episode (a failure costs the whole best
 *   surplus; an infeasible task costs nothing), with a task-clustered interval, and the share of
 *   the best surplus captured: Σ surplus / Σ best surplus over the feasible episodes;
 * - the hidden requirements learned before the end (overall and per topic) and those never learned
 *   but met by the booking anyway (luck);
 * - burden: messages to the client, repeats (questions about what it had already said), the share
 *   of episodes whose client ran out of patience.
 * Intervals are task-clustered: a task's replicates share its catalog and its client.
 */
import type { Rng } from "../../../environments/kernel/rng.ts";
import { REQUIREMENT_TOPICS, type RequirementTopic } from "../../../environments/shop/client/types.ts";
import { clusteredMean, type MeanEstimate } from "../negotiation-stats.ts";
import { type PassK, passK } from "../pass-k.ts";
import { clusteredShare, type Share } from "../share.ts";
import { clusteredRatio, type RatioEstimate } from "./ratio.ts";
import type { ClientEpisode } from "./records.ts";

export interface ClientCell {
  /** The record's agent: "<shopper> for <client>". */
  agent: string;
  shopper: string;
  /** The client's spec. */
  client: string;
  /** The persona it played (an `openai:` client's is the run's --client-persona). */
  persona: string;
  episodes: number;
  tasks: number;
  /** Episodes with an admissible listing (the ones with a best surplus to capture). */
  feasible: number;
  success: Share;
  passK: PassK[];
  /** Mean regret over every episode, dollars a night. */
  regret: MeanEstimate;
  /** Mean best admissible surplus over every episode (0 where nothing is admissible): regret's ceiling. */
  bestSurplus: number | null;
  /** Σ surplus / Σ best surplus over the feasible episodes. */
  captured: RatioEstimate;
  uncovered: {
    /** Hidden requirements over all episodes (one per topic per episode). */
    hidden: number;
    /** Σ learned / Σ hidden. */
    learned: RatioEstimate;
    /** Per topic, over the episodes where it is hidden: the share that learned it. */
    byTopic: Record<RequirementTopic, Share>;
    /** Of the hidden requirements never learned, the share the booking met anyway. */
    metByLuck: RatioEstimate;
  };
  burden: {
    messages: MeanEstimate;
    repeats: MeanEstimate;
    patienceOut: Share;
    /** Episodes the client ended (a message after it had asked to just book). */
    clientEnded: number;
  };
}

/** `who`: the cell's names (a cell whose every episode was left out still has them). */
export function clientCell(
  who: { agent: string; shopper: string; client: string; persona: string },
  episodes: readonly ClientEpisode[],
  options: { draws: number; level: number; rng: Rng },
): ClientCell {
  const { level } = options;
  const mean = (value: (e: ClientEpisode) => number) =>
    clusteredMean(
      episodes.map((e) => ({ cluster: e.taskId, value: value(e) })),
      level,
    );
  const share = (list: readonly ClientEpisode[], hit: (e: ClientEpisode) => boolean) =>
    clusteredShare(
      list.map((e) => ({ cluster: e.taskId, hit: hit(e) })),
      level,
    );
  const ratio = (
    list: readonly ClientEpisode[],
    num: (e: ClientEpisode) => number,
    den: (e: ClientEpisode) => number,
  ) =>
    clusteredRatio(
      list.map((e) => ({ cluster: e.taskId, num: num(e), den: den(e) })),
      level,
    );
  const feasible = episodes.filter((e) => e.bestAdmissible !== null);
  return {
    ...who,
    episodes: episodes.length,
    tasks: new Set(episodes.map((e) => e.taskId)).size,
    feasible: feasible.length,
    success: share(episodes, (e) => e.success),
    passK: passK(episodes, { draws: options.draws, rng: options.rng, level }),
    regret: mean((e) => e.regret),
    bestSurplus:
      episodes.length > 0
        ? episodes.reduce((a, e) => a + (e.bestAdmissible?.surplus ?? 0), 0) / episodes.length
        : null,
    captured: ratio(
      feasible,
      (e) => e.surplus,
      (e) => e.bestAdmissible!.surplus,
    ),
    uncovered: {
      hidden: episodes.reduce((a, e) => a + e.uncovered.hidden.length, 0),
      learned: ratio(
        episodes,
        (e) => e.uncovered.learned.length,
        (e) => e.uncovered.hidden.length,
      ),
      byTopic: Object.fromEntries(
        REQUIREMENT_TOPICS.map((t) => [
          t,
          share(
            episodes.filter((e) => e.uncovered.hidden.includes(t)),
            (e) => e.uncovered.learned.includes(t),
          ),
        ]),
      ) as Record<RequirementTopic, Share>,
      metByLuck: ratio(
        episodes,
        (e) => e.uncovered.metByLuck.length,
        (e) => e.uncovered.hidden.length - e.uncovered.learned.length,
      ),
    },
    burden: {
      messages: mean((e) => e.burden.messages),
      repeats: mean((e) => e.burden.repeats),
      patienceOut: share(episodes, (e) => e.burden.patienceOut),
      clientEnded: episodes.filter((e) => e.endReason === "client-ended").length,
    },
  };
}
