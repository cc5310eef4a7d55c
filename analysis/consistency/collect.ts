import { z } from "zod";
import { ELICIT_DOMAINS } from "../../datasets/elicit/schema.ts";
import { QUERY_TYPES, QueryUseSchema } from "../../environments/elicit/types.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { GroupData, QueryData } from "./types.ts";

const OfferSchema = z.object({ item: z.string(), price: z.number() });

/** The fields of an elicit trial record (the export contract) that the audit reads. */
export const ConsistencyRecordSchema = z.object({
  agent: z.string(),
  group: z.string(),
  domain: z.string(),
  utterance: z.string(),
  itemSet: z.string(),
  collection: z.string(),
  queryId: z.string(),
  queryType: z.enum(QUERY_TYPES),
  item: z.string().nullable(),
  source: OfferSchema.nullable(),
  target: OfferSchema.nullable(),
  uses: z.array(QueryUseSchema),
  completion: z.number().int().nonnegative(),
  value: z.number().nullable(),
  nonFinite: z.object({ reason: z.string() }).nullable(),
});
export type ConsistencyRecord = z.infer<typeof ConsistencyRecordSchema>;

/** One agent's audit groups, and why its non-finite outputs were not finite (reason → count). */
export interface AgentData {
  agent: string;
  groups: GroupData[];
  nonFiniteReasons: Record<string, number>;
}

/** "range: $400 to $500" → "range": the stable part of a reason, for counting. */
export function reasonCategory(reason: string): string {
  const cut = reason.indexOf(":");
  return cut < 0 ? reason : reason.slice(0, cut);
}

/**
 * Groups trial records by agent, audit group and query, keeping finite values in completion order
 * and counting the rest. A record that lacks a field the audit needs is a UserError naming it.
 */
export function collectAgents(records: Iterable<Record<string, unknown>>): AgentData[] {
  const agents = new Map<
    string,
    {
      groups: Map<string, GroupData>;
      queries: Map<string, QueryData & { order: number[] }>;
      reasons: Record<string, number>;
    }
  >();
  let index = 0;
  for (const raw of records) {
    const parsed = ConsistencyRecordSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `elicit record ${index + 1}: ${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`,
        "the consistency audit reads elicit trial records as `bazaar export` writes them",
      );
    }
    index++;
    const r = parsed.data;
    let agent = agents.get(r.agent);
    if (!agent) {
      agent = { groups: new Map(), queries: new Map(), reasons: {} };
      agents.set(r.agent, agent);
    }
    let group = agent.groups.get(r.group);
    if (!group) {
      group = {
        group: r.group,
        domain: r.domain,
        utterance: r.utterance,
        itemSet: r.itemSet,
        collection: r.collection,
        queries: [],
      };
      agent.groups.set(r.group, group);
    }
    let query = agent.queries.get(r.queryId);
    if (!query) {
      query = {
        queryId: r.queryId,
        queryType: r.queryType,
        ...(r.item !== null ? { item: r.item } : {}),
        ...(r.source !== null ? { source: r.source } : {}),
        ...(r.target !== null ? { target: r.target } : {}),
        uses: r.uses,
        values: [],
        nonFinite: 0,
        order: [],
      };
      agent.queries.set(r.queryId, query);
      group.queries.push(query);
    }
    if (r.value === null || !Number.isFinite(r.value)) {
      query.nonFinite++;
      const category = reasonCategory(r.nonFinite?.reason ?? "no value");
      agent.reasons[category] = (agent.reasons[category] ?? 0) + 1;
    } else {
      query.values.push(r.value);
      query.order.push(r.completion);
    }
  }
  const domainOrder = (d: string) => {
    const i = (ELICIT_DOMAINS as readonly string[]).indexOf(d);
    return i < 0 ? ELICIT_DOMAINS.length : i;
  };
  return [...agents].map(([name, a]) => ({
    agent: name,
    groups: [...a.groups.values()]
      .sort(
        (x, y) =>
          domainOrder(x.domain) - domainOrder(y.domain) ||
          (x.group < y.group ? -1 : x.group > y.group ? 1 : 0),
      )
      .map((g) => ({
        ...g,
        queries: g.queries.map((q) => {
          const { order, ...rest } = q as QueryData & { order: number[] };
          const idx = order.map((_, i) => i).sort((x, y) => (order[x] as number) - (order[y] as number));
          return { ...rest, values: idx.map((i) => rest.values[i] as number) };
        }),
      })),
    nonFiniteReasons: a.reasons,
  }));
}
