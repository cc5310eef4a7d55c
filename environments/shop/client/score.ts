/**
 * What an episode with a client was worth to the client, and what it cost it (specs/client.md,
 * "Outcome and estimators"), from the task, the outcome and the conversation:
 * - the outcome's surplus: V(booked) − price paid for a booking that meets every hidden requirement,
 *   0 for no booking or one the client cannot accept;
 * - regret: the best admissible listing's surplus less the outcome's (0 when nothing is admissible,
 *   whatever happened), so failing costs the whole best surplus;
 * - the hidden requirements uncovered before the end (the agent asked about the topic, or the client
 *   stated it) and those met by luck (never uncovered, met by the booking anyway);
 * - burden: messages to the client, those asking only about what it had already said, whether its
 *   patience ran out;
 * - the client's faults, reply by reply.
 */
import { hasAmenity, inPlace } from "../search.ts";
import type { ClientOutcome, Listing, ShopTask } from "../types.ts";
import { bestAdmissible, listingSurplus } from "./profile.ts";
import type { ClientFaultKind, RequirementTopic, Topic } from "./types.ts";

export interface ClientScore {
  surplus: number;
  bestAdmissible: { id: string; surplus: number } | null;
  regret: number;
  uncovered: { hidden: RequirementTopic[]; learned: RequirementTopic[]; metByLuck: RequirementTopic[] };
  burden: { messages: number; repeats: number; patienceOut: boolean };
  clientFaults: { step: number; kind: ClientFaultKind; detail: string }[];
}

/** The hidden requirements of a task, one per topic (each required amenity its own). */
export function hiddenRequirements(c: ShopTask["request"]["constraints"]): RequirementTopic[] {
  const out: RequirementTopic[] = [];
  if (c.maxPrice !== null) out.push("price");
  if (c.minStars !== null) out.push("stars");
  if (c.areas !== null) out.push("area");
  for (const a of ["free_cancellation", "breakfast"] as const) if (c.amenities.includes(a)) out.push(a);
  return out;
}

/** Whether a listing (at the price paid) meets one hidden requirement. */
export function meets(
  t: RequirementTopic,
  l: Listing,
  paid: number,
  c: ShopTask["request"]["constraints"],
): boolean {
  switch (t) {
    case "price":
      return c.maxPrice === null || paid <= c.maxPrice;
    case "stars":
      return c.minStars === null || l.stars >= c.minStars;
    case "area":
      return c.areas === null || c.areas.some((a) => inPlace(l, a));
    default:
      return hasAmenity(l, t);
  }
}

export function clientScore(
  task: ShopTask,
  outcome: { bookedId: string | null; paid?: number | null; client: ClientOutcome },
): ClientScore {
  const u = task.client!.utility;
  const c = task.request.constraints;
  const listings = new Map(task.listings.map((l) => [l.id, l]));
  const booked = outcome.bookedId === null ? undefined : listings.get(outcome.bookedId);
  const paid = booked ? (outcome.paid ?? booked.price) : 0;
  const hidden = hiddenRequirements(c);
  const acceptable = booked !== undefined && hidden.every((t) => meets(t, booked, paid, c));
  const surplus = acceptable ? listingSurplus(u, booked, paid) : 0;
  const best = bestAdmissible(
    u,
    task.admissible.map((id) => listings.get(id)!),
  );
  const conversation = outcome.client.conversation;
  const spoken = new Set<Topic>(conversation.flatMap((e) => e.topics));
  const learned = hidden.filter((t) => spoken.has(t));
  const metByLuck = booked ? hidden.filter((t) => !spoken.has(t) && meets(t, booked, paid, c)) : [];
  let messages = 0;
  let repeats = 0;
  const known = new Set<Topic>();
  for (const e of conversation) {
    if (e.from === "client") {
      for (const t of e.topics) known.add(t);
      continue;
    }
    messages++;
    if (e.topics.length > 0 && e.topics.every((t) => known.has(t))) repeats++;
  }
  return {
    surplus,
    bestAdmissible: best,
    regret: best === null ? 0 : Math.round((best.surplus - surplus) * 100) / 100,
    uncovered: { hidden, learned, metByLuck },
    burden: { messages, repeats, patienceOut: outcome.client.patienceOut },
    clientFaults: conversation.flatMap((e) => (e.faults ?? []).map((f) => ({ step: e.step, ...f }))),
  };
}
