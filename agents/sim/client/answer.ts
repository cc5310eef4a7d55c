/**
 * The simulated client's documented rule (README "Clients"; specs/client.md): a message is answered
 * topic by topic — every topic it asks about (`topicsAsked`), and for an open question the topics
 * the persona volunteers and the wishes not yet said — each in the fixed wording of
 * `environments/shop/client/wording.ts`, from the profile; a message about nothing it can read
 * gets "I'm not sure what you are asking". So every reply is exact and reproducible, and reads back
 * (`readClientText`) to exactly the profile's values.
 */
import type { Persona } from "../../../environments/shop/client/personas.ts";
import { isOpenQuestion, topicsAsked } from "../../../environments/shop/client/topics.ts";
import { type ClientView, TOPICS, type Topic } from "../../../environments/shop/client/types.ts";
import {
  NOT_SURE,
  NOTHING_TO_ADD,
  topicAnswer,
  wishesLine,
} from "../../../environments/shop/client/wording.ts";

/** The topics a reply to `message` speaks to, in TOPICS order. */
export function answeredTopics(message: string, persona: Persona, places: readonly string[]): Topic[] {
  const asked = new Set(topicsAsked(message, places));
  if (isOpenQuestion(message, places)) for (const t of persona.volunteers) asked.add(t);
  return TOPICS.filter((t) => asked.has(t));
}

/** Whether the client has named its wishes (in its opening, or an earlier reply). */
function wishesSaid(view: ClientView): boolean {
  if (view.wishes.length === 0) return true;
  const line = wishesLine(view.wishes);
  return view.conversation.some((e) => e.from === "client" && e.text.includes(line));
}

/** The persona's reply to the message in `view` (its answer sentences; the wishes on a line of their own). */
export function clientReply(view: ClientView, persona: Persona): string {
  const message = view.message ?? "";
  const topics = answeredTopics(message, persona, view.places);
  const lines = topics.map((t) => topicAnswer(t, view.requirements, view.utility));
  const open = isOpenQuestion(message, view.places);
  const sentences = lines.join(" ");
  const wishes = open && !wishesSaid(view) ? wishesLine(view.wishes) : null;
  if (sentences === "" && wishes === null) return open ? NOTHING_TO_ADD : NOT_SURE;
  return [sentences, wishes].filter((x): x is string => x !== null && x !== "").join("\n");
}
