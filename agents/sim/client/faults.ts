/**
 * The faulty client (`sim:faulty`, `sim-client-faulty` behind serve-sim): the terse persona that
 * commits each kind of client fault in a set share of its replies, so the client auditor has
 * planted faults to find. Per reply, a number u in [0, 1) is drawn from a hash of the requirements,
 * the conversation so far and the message (the same in process and behind serve-sim, which reads
 * the requirements back whole but not the utility's base); u in [0.1·k, 0.1·(k + 1)) plants fault
 * k of PLANTED, when it applies to this reply, and at most one per reply:
 * - contradicts: the price cap it states is $40 above the profile's (or the star minimum one off),
 *   when the reply states either;
 * - reveals: it adds a requirement nobody asked about, that it had not said and does not volunteer;
 * - invents: "I also need a pool.";
 * - as-assistant: "Let me search for a room for you.";
 * - ends-early: "Never mind, I'll book it myself."
 */

import { formatPrice } from "../../../environments/choice/prompt.ts";
import { stableHash } from "../../../environments/kernel/hash.ts";
import type { Persona } from "../../../environments/shop/client/personas.ts";
import { hiddenRequirements } from "../../../environments/shop/client/score.ts";
import {
  type ClientFaultKind,
  type ClientView,
  REQUIREMENT_TOPICS,
  type RequirementTopic,
} from "../../../environments/shop/client/types.ts";
import { topicAnswer } from "../../../environments/shop/client/wording.ts";
import { answeredTopics } from "./answer.ts";

/** The faults it plants, in the order of their slices of u. */
export const PLANTED = ["contradicts", "reveals", "invents", "as-assistant", "ends-early"] as const;
/** Each kind's share of its replies (where the kind applies). */
export const FAULT_RATE = 0.1;

export const INVENTED = "I also need a pool.";
export const AS_ASSISTANT = "Let me search for a room for you.";
export const ENDS_EARLY = "Never mind, I'll book it myself.";

/** u for this reply: a hash of the requirements, the conversation and the message, on [0, 1). */
export function faultDraw(view: ClientView): number {
  // Only what serve-sim's client reads back whole off the LLM client's prompt (not the utility's base).
  const h = stableHash({ c: view.requirements, n: view.conversation.length, m: view.message }, 8);
  return Number.parseInt(h, 16) / 2 ** 32;
}

/** A sentence added to a reply's sentences (the first line), never to its line of wishes. */
function withSentence(honest: string, sentence: string): string {
  const lines = honest.split("\n");
  if (lines[0]!.startsWith("Nice to have:")) return [sentence, ...lines].join("\n");
  lines[0] = `${lines[0]} ${sentence}`;
  return lines.join("\n");
}

/** What the faulty client does to its honest reply: the fault it plants (or null) and the reply it sends. */
export function plantFault(
  view: ClientView,
  persona: Persona,
  honest: string,
): { kind: ClientFaultKind | null; text: string } {
  const slot = Math.floor(faultDraw(view) / FAULT_RATE);
  const kind = PLANTED[slot];
  const c = view.requirements;
  const answered = answeredTopics(view.message ?? "", persona, view.places);
  switch (kind) {
    case "contradicts": {
      if (answered.includes("price") && c.maxPrice !== null) {
        const right = topicAnswer("price", c, view.utility);
        return {
          kind,
          text: honest.replace(right, `My budget is at most ${formatPrice(c.maxPrice + 40)} a night.`),
        };
      }
      if (answered.includes("stars") && c.minStars !== null) {
        const wrong = c.minStars > 1 ? c.minStars - 1 : c.minStars + 1;
        const right = topicAnswer("stars", c, view.utility);
        return { kind, text: honest.replace(right, `I need at least ${wrong} stars.`) };
      }
      return { kind: null, text: honest };
    }
    case "reveals": {
      const said = new Set(view.conversation.filter((e) => e.from === "client").flatMap((e) => e.topics));
      const hidden = new Set(hiddenRequirements(c));
      const kept = REQUIREMENT_TOPICS.find(
        (t: RequirementTopic) => hidden.has(t) && !said.has(t) && !answered.includes(t),
      );
      if (!kept) return { kind: null, text: honest };
      return { kind, text: withSentence(honest, topicAnswer(kept, c, view.utility)) };
    }
    case "invents":
      return { kind, text: withSentence(honest, INVENTED) };
    case "as-assistant":
      return { kind, text: withSentence(honest, AS_ASSISTANT) };
    case "ends-early":
      return { kind, text: withSentence(honest, ENDS_EARLY) };
    default:
      return { kind: null, text: honest };
  }
}
