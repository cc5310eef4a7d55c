/**
 * What an LLM client is told: a system message that holds its profile (requirements, what listings
 * are worth to it, wishes), its persona's rules and its opening, then the conversation — the
 * shopper's messages as the user's, its own replies as the assistant's. The client auditor checks
 * every reply it writes against the same profile.
 */
import type { Message } from "../../kernel/types.ts";
import { requirementLines } from "../prompt.ts";
import type { HardConstraints } from "../types.ts";
import type { ClientUtility, ClientView, PersonaName, RequirementTopic } from "./types.ts";
import { noPreference, topicAnswer, wishesLine } from "./wording.ts";

export const CLIENT_INTRO =
  "You are playing the client: a person who has asked a shopping assistant to book them a hotel room in New York for one night. Stay in character. You are the client, never the assistant: do not search for, suggest or book listings yourself, and do not end the conversation.";
export const TRADEOFF_INTRO = "If asked about trade-offs or what quality is worth to you: ";
export const AREAS_INTRO = "The areas of New York the assistant can search: ";
export const WISHES_NOTE = " (These are not requirements.)";

/** What an open question draws out, as the prompt says it. */
export const VOLUNTEERS: Readonly<Record<PersonaName, string>> = {
  complete: "what quality is worth to you (the trade-offs below)",
  partial: "your minimum star rating (or that you have no preference on stars)",
  terse: "your price limit, and what would be nice to have",
};

function noPreferences(c: HardConstraints): string[] {
  const none: RequirementTopic[] = [];
  if (c.maxPrice === null) none.push("price");
  if (c.minStars === null) none.push("stars");
  if (c.areas === null) none.push("area");
  for (const a of ["free_cancellation", "breakfast"] as const) if (!c.amenities.includes(a)) none.push(a);
  return none.map((t) => noPreference(t));
}

/** The LLM client's system message: its profile, its persona and its opening. */
export function clientSystemPrompt(
  view: Pick<ClientView, "requirements" | "utility" | "wishes" | "areas">,
  persona: PersonaName,
  opening: string | null,
): string {
  const reqs = requirementLines(view.requirements);
  const u: ClientUtility = view.utility;
  return [
    CLIENT_INTRO,
    ...(opening === null ? [] : ["Your first message to the assistant was:", '"""', opening, '"""']),
    "Answer each message from the assistant in one or two short sentences, truthfully, from your profile below. Say only what the message asks about: asked about a topic, give your requirement on it, or say you have no preference when you have none.",
    `When asked an open question (such as "what matters to you?"), mention only ${VOLUNTEERS[persona]}. Never volunteer anything else you have not been asked, and never add requirements that are not in your profile.`,
    reqs.length > 0
      ? "Your requirements (a room that breaks one is unacceptable to you):"
      : "You have no requirements.",
    ...reqs,
    ...noPreferences(view.requirements),
    `${TRADEOFF_INTRO}${topicAnswer("tradeoff", view.requirements, u)}`,
    ...(view.wishes.length > 0 ? [`${wishesLine(view.wishes)}${WISHES_NOTE}`] : []),
    `${AREAS_INTRO}${view.areas.join(", ")}.`,
  ].join("\n");
}

/** The conversation as an LLM client sees it: the shopper's messages as the user's, its replies as its own. */
export function clientMessages(view: ClientView, persona: PersonaName | null): Message[] {
  const opening = view.conversation[0]?.from === "client" ? view.conversation[0].text : null;
  const out: Message[] = [{ role: "system", content: clientSystemPrompt(view, persona ?? "terse", opening) }];
  for (const e of view.conversation.slice(opening === null ? 0 : 1)) {
    if (e.machine) continue;
    out.push({ role: e.from === "agent" ? "user" : "assistant", content: e.text });
  }
  if (opening === null) out.push({ role: "user", content: "(Write your first message to the assistant.)" });
  return out;
}
