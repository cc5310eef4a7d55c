/** Any record the terminal has no view for yet: its fields, one per line. */
import { clip } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  nonResponseOf,
  str,
  type TrialRecord,
} from "./types.ts";

export interface GenericEpisodeModel extends EpisodeBase {
  kind: "generic";
  /** Why a known environment's record fell back here (a field its adapter did not find). */
  note: string | null;
  fields: { key: string; value: string }[];
}

const SKIP = new Set(["schema", "run", "env", "seq", "agent"]);

export function genericModel(r: TrialRecord, note: string | null = null): GenericEpisodeModel {
  return {
    kind: "generic",
    seq: Number(r.seq),
    agent: str(r, "agent"),
    env: str(r, "env") || "?",
    steps: 1,
    note,
    fields: Object.entries(r)
      .filter(([k]) => !SKIP.has(k))
      .map(([key, v]) => ({ key, value: clip(typeof v === "string" ? v : (JSON.stringify(v) ?? ""), 400) })),
  };
}

export function genericSummary(r: TrialRecord): EpisodeSummary {
  const nr = nonResponseOf(r);
  const outcome = r.outcome ?? r.chosenSlot ?? r.value ?? (nr ? "non-response" : "done");
  return {
    seq: Number(r.seq),
    agent: str(r, "agent"),
    outcome: clip(typeof outcome === "string" ? outcome : JSON.stringify(outcome), 24),
    detail: str(r, "taskId") || str(r, "trialKey"),
    nonResponse: nr !== null,
    steps: 1,
    error: agentErrorOf(nr?.reason),
  };
}

/** Counts only: what can be said of any record. */
export const genericAdapter: EnvAdapter<GenericEpisodeModel, { n: number; nonResponses: number }> = {
  env: "*",
  model: (r) => genericModel(r),
  summary: genericSummary,
  status: (r) => {
    const nr = nonResponseOf(r);
    return { nonResponse: nr !== null, error: agentErrorOf(nr?.reason) };
  },
  stats: {
    init: () => ({ n: 0, nonResponses: 0 }),
    add(s, r) {
      s.n++;
      if (nonResponseOf(r)) s.nonResponses++;
    },
    clone: (s) => ({ ...s }),
    view: (s) => ({
      title: "running counts",
      lines: [{ label: "episodes", value: `${s.n} (${s.nonResponses} non-responses)` }],
    }),
  },
  facets: [],
};
