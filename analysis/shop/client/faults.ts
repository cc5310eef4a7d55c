/**
 * Client faults (specs/client.md): an episode whose client's reply broke a rule against its
 * profile is flagged, and the analysis keeps it, leaves it out (the default: the client, not the
 * shopper, made that episode what it was) or keeps only those; every table says how many it left
 * out. Per client model, how often it faults: per reply and as the share of episodes flagged, by
 * kind — over every episode the client played, whatever the option, since they describe the client.
 */
import { CLIENT_FAULTS, type ClientFaultKind } from "../../../environments/shop/client/types.ts";
import { clusteredShare, type Share } from "../share.ts";
import { clusteredRatio, type RatioEstimate } from "./ratio.ts";
import { type ClientEpisode, clientReplies } from "./records.ts";

export const CLIENT_FAULT_MODES = ["include", "exclude", "only"] as const;
export type ClientFaultMode = (typeof CLIENT_FAULT_MODES)[number];

/** The episode has a reply the auditor found at fault. */
export function flagged(e: Pick<ClientEpisode, "clientFaults">): boolean {
  return e.clientFaults.length > 0;
}

/** The episodes an analysis keeps under `mode`, and how many it leaves out. */
export function selectByClientFaults<E extends Pick<ClientEpisode, "clientFaults">>(
  episodes: readonly E[],
  mode: ClientFaultMode,
): { kept: E[]; leftOut: number } {
  const kept =
    mode === "include" ? [...episodes] : episodes.filter((e) => (mode === "only" ? flagged(e) : !flagged(e)));
  return { kept, leftOut: episodes.length - kept.length };
}

export interface ClientFaultRates {
  /** The client's spec (`sim:faulty`, `openai:gpt-4o-mini`). */
  client: string;
  episodes: number;
  /** Replies the auditor read (the opening and the machine's lines are not replies). */
  replies: number;
  faults: number;
  /** Faults per reply, task-clustered. */
  perReply: RatioEstimate;
  /** Share of episodes with at least one fault. */
  flagged: Share;
  /** Per kind: its faults, per reply, and the share of episodes with one. */
  byKind: Record<ClientFaultKind, { faults: number; perReply: number | null; episodes: number }>;
}

export function clientFaultRates(episodes: readonly ClientEpisode[], level = 0.95): ClientFaultRates[] {
  const clients = [...new Set(episodes.map((e) => e.client.spec))];
  return clients.map((client) => {
    const mine = episodes.filter((e) => e.client.spec === client);
    const replies = mine.reduce((a, e) => a + clientReplies(e), 0);
    const byKind = Object.fromEntries(
      CLIENT_FAULTS.map((k) => {
        const faults = mine.reduce((a, e) => a + e.clientFaults.filter((f) => f.kind === k).length, 0);
        const episodesWith = mine.filter((e) => e.clientFaults.some((f) => f.kind === k)).length;
        return [k, { faults, perReply: replies > 0 ? faults / replies : null, episodes: episodesWith }];
      }),
    ) as ClientFaultRates["byKind"];
    return {
      client,
      episodes: mine.length,
      replies,
      faults: mine.reduce((a, e) => a + e.clientFaults.length, 0),
      perReply: clusteredRatio(
        mine.map((e) => ({ cluster: e.taskId, num: e.clientFaults.length, den: clientReplies(e) })),
        level,
      ),
      flagged: clusteredShare(
        mine.map((e) => ({ cluster: e.taskId, hit: flagged(e) })),
        level,
      ),
      byKind,
    };
  });
}
