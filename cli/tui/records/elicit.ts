/**
 * Stated-preference elicitation (`env: "elicit"`) read from the trial export contract of
 * specs/elicit.md: one question, the number parsed from the answer, and running means per query.
 */
import { renderElicitMessages } from "../../../environments/elicit/prompt.ts";
import { ElicitTaskSchema } from "../../../environments/elicit/types.ts";
import { count, usd } from "../format.ts";
import {
  agentErrorOf,
  type EnvAdapter,
  type EpisodeBase,
  type EpisodeSummary,
  nonResponseOf,
  num,
  str,
  type TrialRecord,
} from "./types.ts";

export interface ElicitEpisodeModel extends EpisodeBase {
  kind: "elicit";
  group: string;
  domain: string;
  utterance: string;
  queryId: string;
  queryType: string;
  /** The question as the agent read it (from the task), or what the record says of it. */
  question: string[];
  value: number | null;
  raw: string;
  nonResponse: { reason: string; raw: string } | null;
}

function offerLine(name: string, v: unknown): string[] {
  if (!v || typeof v !== "object") return [];
  const o = v as { item?: unknown; price?: unknown };
  return [`${name}: item ${String(o.item ?? "?")} at ${typeof o.price === "number" ? usd(o.price) : "?"}`];
}

/** The user message of the query, rendered by the environment from the task. */
function questionFromTask(task: unknown): string[] | null {
  const parsed = ElicitTaskSchema.safeParse(task);
  if (!parsed.success) return null;
  const user = renderElicitMessages(parsed.data).find((m) => m.role === "user");
  return user ? user.content.split("\n") : null;
}

function elicitModel(r: TrialRecord, task?: unknown): ElicitEpisodeModel | { mismatch: string } {
  if (typeof r.queryId !== "string") return { mismatch: "an elicitation record needs queryId" };
  const question = (task === undefined ? null : questionFromTask(task)) ?? [
    `(${str(r, "queryType")} query; the task's wording is not at hand)`,
    ...(typeof r.item === "string" ? [`item ${r.item}`] : []),
    ...offerLine("offer A", r.source),
    ...offerLine("offer B", r.target),
  ];
  const value = num(r, "value");
  const nonFinite = r.nonFinite as { reason?: unknown } | null | undefined;
  return {
    kind: "elicit",
    seq: Number(r.seq),
    agent: str(r, "agent"),
    env: "elicit",
    steps: 1,
    group: str(r, "group"),
    domain: str(r, "domain"),
    utterance: str(r, "utterance"),
    queryId: r.queryId,
    queryType: str(r, "queryType"),
    question,
    value,
    raw: str(r, "raw"),
    nonResponse:
      nonResponseOf(r) ??
      (value === null
        ? { reason: String(nonFinite?.reason ?? "no finite number"), raw: str(r, "raw") }
        : null),
  };
}

function elicitSummary(r: TrialRecord): EpisodeSummary {
  const value = num(r, "value");
  const reason = nonResponseOf(r)?.reason ?? (r.nonFinite as { reason?: string } | null)?.reason ?? null;
  return {
    seq: Number(r.seq),
    agent: str(r, "agent"),
    outcome: value === null ? "no number" : usd(value),
    detail: `${str(r, "queryType")} ${str(r, "queryId")} · ${str(r, "group")}`,
    nonResponse: value === null,
    steps: 1,
    error: agentErrorOf(reason),
  };
}

/** Per query: how many numbers were given, their sum, and how many answers had none. */
export interface ElicitStats {
  byQuery: Map<string, { n: number; sum: number; missing: number }>;
}

export const elicitAdapter: EnvAdapter<ElicitEpisodeModel, ElicitStats> = {
  env: "elicit",
  model: elicitModel,
  summary: elicitSummary,
  status: (r) => ({
    nonResponse: num(r, "value") === null,
    error: agentErrorOf((r.nonFinite as { reason?: string } | null)?.reason ?? nonResponseOf(r)?.reason),
  }),
  stats: {
    init: () => ({ byQuery: new Map() }),
    add(s, r) {
      const q = `${str(r, "group")}|${str(r, "queryId")}`;
      let g = s.byQuery.get(q);
      if (!g) {
        g = { n: 0, sum: 0, missing: 0 };
        s.byQuery.set(q, g);
      }
      const v = num(r, "value");
      if (v === null) g.missing++;
      else {
        g.n++;
        g.sum += v;
      }
    },
    clone: (s) => ({ byQuery: new Map([...s.byQuery].map(([k, v]) => [k, { ...v }])) }),
    view: (s, current) => {
      const key = current ? `${str(current, "group")}|${str(current, "queryId")}` : "";
      const g = s.byQuery.get(key);
      const recent = [...s.byQuery].slice(-3).filter(([k]) => k !== key);
      const mean = (x: { n: number; sum: number }) => (x.n ? usd(x.sum / x.n) : "—");
      return {
        title: "running mean per query",
        lines: [
          { label: "queries seen", value: count(s.byQuery.size) },
          ...(g && current
            ? [
                {
                  label: `this query ${str(current, "queryId")}`,
                  value: `mean ${mean(g)} (n=${count(g.n)}, ${count(g.missing)} without a number)`,
                },
              ]
            : []),
          ...recent.map(([k, v]) => ({
            label: `query ${k.split("|")[1]}`,
            value: `mean ${mean(v)} (n=${count(v.n)})`,
          })),
        ],
      };
    },
  },
  facets: [
    {
      key: "outcome",
      hotkey: "o",
      label: "answer",
      values: [
        {
          value: "number",
          label: "gave a number",
          conditions: [{ json: "result", path: "$.outcome.value", op: "is not null" }],
        },
        {
          value: "none",
          label: "no number",
          conditions: [{ json: "result", path: "$.outcome.value", op: "is null" }],
        },
      ],
    },
  ],
};
