import { assign, setup } from "xstate";
import type { ElicitDomainName, FeatureValue } from "../../datasets/elicit/schema.ts";
import type { EpisodeEvent, Turn } from "../kernel/episode.ts";
import type { Message, NonResponse } from "../kernel/types.ts";
import { type ElicitAction, ElicitActionSchema } from "./actions.ts";
import { type AmountVerdict, parseDollarAmount } from "./number.ts";
import { renderElicitMessages } from "./prompt.ts";
import type { ElicitTask, QueryType } from "./types.ts";

/** The respondent's single role. */
export const RESPONDENT = "respondent";

/** An offer as a respondent sees it: the item's features and the listed price. */
export interface ViewOffer {
  features: Record<string, FeatureValue>;
  price: number;
}

/** What the respondent observes besides the messages: the query, structured. */
export interface ElicitView {
  domain: ElicitDomainName;
  /** The utterance's id in the dataset. */
  utterance: string;
  queryType: QueryType;
  /** Item queries: the item's features. */
  item?: Record<string, FeatureValue>;
  /** Offer-pair queries: offer A (source) and offer B (target). */
  source?: ViewOffer;
  target?: ViewOffer;
}

export interface ElicitOutcome {
  /** The finite number of dollars the answer states; null when it states none (a non-finite output). */
  value: number | null;
  nonFinite: NonResponse | null;
  /** The answer as given (a tool call is shown as `answer(450)`). */
  raw: string;
}

interface ElicitContext {
  task: ElicitTask;
  messages: Message[];
  outcome: ElicitOutcome | null;
  turn: Turn<ElicitView> | null;
}

export function viewOf(task: ElicitTask): ElicitView {
  const base = { domain: task.domain, utterance: task.utterance.id, queryType: task.queryType };
  return task.queryType === "item"
    ? { ...base, item: task.item.features }
    : {
        ...base,
        source: { features: task.source.item.features, price: task.source.price },
        target: { features: task.target.item.features, price: task.target.price },
      };
}

function outcomeOf(raw: string, verdict: AmountVerdict): ElicitOutcome {
  return verdict.ok
    ? { value: verdict.value, nonFinite: null, raw }
    : { value: null, nonFinite: { reason: verdict.reason, raw }, raw };
}

/** Judges one answer: a tool call's amount or a text reply read by the strict parser. */
export function judgeAnswer(action: unknown, task: ElicitTask): ElicitOutcome {
  const signed = task.queryType === "offer-pair";
  const parsed = ElicitActionSchema.safeParse(action);
  if (!parsed.success) {
    const a = action as { type?: unknown; amount?: unknown } | null;
    // A tool call whose amount came as text ("$1,250") is read like a text answer, never coerced.
    if (a?.type === "answer" && typeof a.amount === "string")
      return outcomeOf(`answer(${JSON.stringify(a.amount)})`, parseDollarAmount(a.amount, { signed }));
    const raw = JSON.stringify(action) ?? String(action);
    return outcomeOf(raw, { ok: false, reason: "malformed action" });
  }
  const act: ElicitAction = parsed.data;
  if (act.type === "reply") return outcomeOf(act.text, parseDollarAmount(act.text, { signed }));
  const raw = `answer(${act.amount})`;
  return Number.isFinite(act.amount)
    ? outcomeOf(raw, { ok: true, value: act.amount === 0 ? 0 : act.amount })
    : outcomeOf(raw, { ok: false, reason: "infinite" });
}

/**
 * One elicitation episode: one stateless question, one answer, judged strictly. There is no re-ask
 * (the paper's protocol): an answer without one finite number is a non-finite output, kept with its
 * raw text and a reason, and excluded from the estimates.
 */
export const elicitMachine = setup({
  types: {
    context: {} as ElicitContext,
    input: {} as { task: ElicitTask },
    events: {} as EpisodeEvent<ElicitAction>,
    output: {} as ElicitOutcome,
  },
  actions: {
    judge: assign(({ context, event }) => {
      if (event.type === "act") return { outcome: judgeAnswer(event.action, context.task) };
      const reason = `agent error: ${event.error}`;
      return { outcome: { value: null, nonFinite: { reason, raw: "" }, raw: "" } };
    }),
  },
}).createMachine({
  id: "elicit",
  context: ({ input }) => {
    const messages = renderElicitMessages(input.task);
    return {
      task: input.task,
      messages,
      outcome: null,
      turn: { role: RESPONDENT, observation: { messages, view: viewOf(input.task) } },
    };
  },
  initial: "asking",
  states: {
    asking: {
      on: {
        act: { target: "answered", actions: "judge" },
        "agent.error": { target: "answered", actions: "judge" },
      },
    },
    answered: { type: "final" },
  },
  output: ({ context }) =>
    context.outcome ?? { value: null, nonFinite: { reason: "no answer", raw: "" }, raw: "" },
});
