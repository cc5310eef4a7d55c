/**
 * The client fields of shop records (specs/client.md, "Export") as the client estimators read them:
 * who played the client, the conversation, the outcome's surplus, the best admissible listing,
 * regret, the requirements uncovered, burden and the client's faults. Only a run with `--client`
 * writes them, so a run whose records carry none is a plain shop and gets no client analysis at
 * all; a record of a client run that lacks one is named, never skipped.
 */
import { z } from "zod";
import { UserError } from "../../../environments/kernel/errors.ts";
import { CLIENT_FAULTS, REQUIREMENT_TOPICS, TOPICS } from "../../../environments/shop/client/types.ts";
import type { ShopTrialRecord } from "../../../environments/shop/record.ts";
import type { ShopEpisode } from "../records.ts";

const Topic = z.enum(TOPICS);
const RequirementTopic = z.enum(REQUIREMENT_TOPICS);
const FaultKind = z.enum(CLIENT_FAULTS);

const ClientFields = z.looseObject({
  client: z.looseObject({
    spec: z.string().min(1),
    persona: z.string(),
    patience: z.number(),
  }),
  shopper: z.string().min(1),
  conversation: z.array(
    z.looseObject({
      step: z.number(),
      from: z.enum(["agent", "client"]),
      text: z.string(),
      topics: z.array(Topic),
      machine: z.boolean().optional(),
      faults: z.array(z.looseObject({ kind: FaultKind, detail: z.string() })).optional(),
    }),
  ),
  surplus: z.number(),
  bestAdmissible: z.object({ id: z.string(), surplus: z.number() }).nullable(),
  regret: z.number(),
  uncovered: z.object({
    hidden: z.array(RequirementTopic),
    learned: z.array(RequirementTopic),
    metByLuck: z.array(RequirementTopic),
  }),
  burden: z.object({ messages: z.number(), repeats: z.number(), patienceOut: z.boolean() }),
  clientFaults: z.array(z.looseObject({ step: z.number(), kind: FaultKind, detail: z.string() })),
});

/** A shop episode of a run with clients: the shop's fields and the client's. */
export type ClientEpisode = ShopEpisode &
  Required<
    Pick<
      ShopTrialRecord,
      | "client"
      | "shopper"
      | "conversation"
      | "surplus"
      | "bestAdmissible"
      | "regret"
      | "uncovered"
      | "burden"
      | "clientFaults"
    >
  >;

/** Whether any record carries the client fields (a run with `--client`). */
export function hasClients(episodes: readonly ShopEpisode[]): boolean {
  return episodes.some((e) => (e as { client?: unknown }).client !== undefined);
}

/**
 * The episodes of a client run, checked. Agent-error episodes are checked too (a record is whole
 * or named); leaving them out is the analysis's business.
 */
export function clientEpisodes(episodes: readonly ShopEpisode[]): ClientEpisode[] {
  return episodes.map((e, i) => {
    const parsed = ClientFields.safeParse(e);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `shop record ${i} (task ${e.taskId}, agent ${e.agent}) lacks the client fields other records of the run have: ${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`,
        "analyze the records of one run made by bazaar run shop --client (or records in its export format)",
      );
    }
    return e as ClientEpisode;
  });
}

/** The client's replies: its messages after the opening, the machine's own lines not counted. */
export function clientReplies(e: Pick<ClientEpisode, "conversation">): number {
  return e.conversation.filter((m) => m.from === "client" && m.step > 0 && m.machine !== true).length;
}
