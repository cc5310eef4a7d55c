import { z } from "zod";
import { DEFAULT_ELICIT_DOMAINS } from "../../datasets/elicit/default.ts";
import { pathOffers } from "../../datasets/elicit/paths.ts";
import {
  ELICIT_DOMAINS,
  type ElicitDomain,
  type ElicitDomainName,
  ElicitDomainNameSchema,
  type OfferRef,
  type Utterance,
} from "../../datasets/elicit/schema.ts";
import { UserError } from "../kernel/errors.ts";
import { createRng } from "../kernel/rng.ts";
import { describeItem } from "./prompt.ts";
import {
  COLLECTIONS,
  type Collection,
  CollectionSchema,
  type ElicitTask,
  groupId,
  type QueryUse,
  type ShownItem,
  type TaskOffer,
} from "./types.ts";

export const ElicitDesignSchema = z.object({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  domains: z
    .array(ElicitDomainNameSchema)
    .min(1)
    .default([...ELICIT_DOMAINS]),
  collections: z
    .array(CollectionSchema)
    .min(1)
    .default([...COLLECTIONS]),
});
export type ElicitDesign = z.infer<typeof ElicitDesignSchema>;
export type ElicitDesignInput = z.input<typeof ElicitDesignSchema>;

type Base = Omit<ElicitTask, "queryType" | "taskId" | "queryId" | "item" | "source" | "target" | "uses">;

/** Collects the queries of one audit group, merging repeated offer pairs into one query with more uses. */
class GroupQueries {
  readonly tasks: ElicitTask[] = [];
  private readonly pairs = new Map<string, Extract<ElicitTask, { queryType: "offer-pair" }>>();

  constructor(private readonly base: Base) {}

  item(item: ShownItem): void {
    const queryId = `${this.base.group}/item:${item.id}`;
    this.tasks.push({ ...this.base, taskId: queryId, queryId, queryType: "item", item });
  }

  pair(source: TaskOffer, target: TaskOffer, use: QueryUse): void {
    const queryId = `${this.base.group}/${source.item.id}@${source.price}>${target.item.id}@${target.price}`;
    const known = this.pairs.get(queryId);
    if (known) {
      known.uses.push(use);
      return;
    }
    const task = {
      ...this.base,
      taskId: queryId,
      queryId,
      queryType: "offer-pair" as const,
      source,
      target,
      uses: [use],
    };
    this.pairs.set(queryId, task);
    this.tasks.push(task);
  }
}

function baseOf(
  domain: ElicitDomain,
  utterance: Utterance,
  itemSet: string,
  collection: Collection,
  seed: number | string,
): Base {
  return {
    env: "elicit",
    seed,
    group: groupId(domain.domain, utterance.id, itemSet, collection),
    domain: domain.domain,
    utterance: { id: utterance.id, text: utterance.text },
    itemSet,
    collection,
    noun: domain.noun,
    priceUnit: domain.priceUnit,
    context: domain.context,
  };
}

function mainGroup(domain: ElicitDomain, utterance: Utterance, seed: number | string): ElicitTask[] {
  const q = new GroupQueries(baseOf(domain, utterance, domain.itemSet, "main", seed));
  const shown = new Map(
    domain.items.map((i) => [
      i.id,
      { id: i.id, features: i.features, lines: describeItem(domain, i.features) },
    ]),
  );
  const offer = (o: OfferRef): TaskOffer => ({ item: shown.get(o.item) as ShownItem, price: o.price });
  for (const item of shown.values()) q.item(item);
  for (const c of domain.comparisons) {
    q.pair(offer(c.source), offer(c.target), { kind: "direct", comparison: c.id });
    c.via.forEach((v, i) => {
      const path = `b${i + 1}`;
      q.pair(offer(c.source), offer(v), { kind: "step", comparison: c.id, path, step: 1, steps: 2 });
      q.pair(offer(v), offer(c.target), { kind: "step", comparison: c.id, path, step: 2, steps: 2 });
    });
  }
  return q.tasks;
}

function pathGroup(domain: ElicitDomain, seed: number | string): ElicitTask[] {
  const utterance = domain.utterances.find((u) => u.id === domain.pathUtterance);
  if (!utterance || domain.paths.length === 0) return [];
  const q = new GroupQueries(baseOf(domain, utterance, `${domain.itemSet}-paths`, "paths", seed));
  const shown = (o: { item: { id: string; features: ShownItem["features"] }; price: number }): TaskOffer => ({
    item: { id: o.item.id, features: o.item.features, lines: describeItem(domain, o.item.features) },
    price: o.price,
  });
  for (const path of domain.paths) {
    const ends = pathOffers(domain, path, 1);
    q.pair(shown(ends[0]!), shown(ends[1]!), { kind: "direct", comparison: path.id });
    for (const k of path.steps) {
      const offers = pathOffers(domain, path, k).map(shown);
      for (let j = 1; j <= k; j++) {
        q.pair(offers[j - 1]!, offers[j]!, {
          kind: "step",
          comparison: path.id,
          path: `k${k}`,
          step: j,
          steps: k,
        });
      }
    }
  }
  return q.tasks;
}

/**
 * design → tasks, a pure seeded function: for every chosen domain, one `main` audit group per
 * utterance (an item query per item; per comparison the direct offer-pair query and two two-step
 * paths) and, when `paths` is chosen, one stress group under the domain's path utterance (per path
 * the direct query and the steps for every k). Tasks come in a seeded shuffled order, so a `--limit`
 * prefix samples every group; the analysis regroups them by id.
 */
export function buildElicitTasks(
  designInput: ElicitDesignInput,
  domains: Readonly<Record<ElicitDomainName, ElicitDomain>> = DEFAULT_ELICIT_DOMAINS,
): ElicitTask[] {
  const design = ElicitDesignSchema.parse(designInput);
  const tasks: ElicitTask[] = [];
  for (const name of ELICIT_DOMAINS) {
    if (!design.domains.includes(name)) continue;
    const domain = domains[name];
    if (design.collections.includes("main"))
      for (const u of domain.utterances) tasks.push(...mainGroup(domain, u, design.seed));
    if (design.collections.includes("paths")) tasks.push(...pathGroup(domain, design.seed));
  }
  if (tasks.length === 0) {
    throw new UserError(
      `the elicit design has no queries (domains ${design.domains.join(", ")}, collections ${design.collections.join(", ")})`,
      "stress paths exist for flights and apartments only; add the main collection or another domain",
    );
  }
  return createRng(design.seed).fork("order").shuffle(tasks);
}
