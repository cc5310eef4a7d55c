/**
 * An LLM client's conversation read back into the client's view: the exact inverse of
 * `prompt.ts`, for the simulated clients behind serve-sim (`sim-client-<persona>`), which see only
 * the messages a client model is sent. The profile is read off the system message — requirements,
 * the trade-off's dollar weights, wishes, areas, the opening — and the prompt is written again from
 * what was read and compared, so only exactly what `prompt.ts` writes is read (null otherwise).
 */
import type { Message, Observation } from "../../kernel/types.ts";
import { readRequest } from "../observe.ts";
import { REQUEST_CLOSING, REQUEST_OPENING } from "../prompt.ts";
import {
  AREAS_INTRO,
  CLIENT_INTRO,
  clientSystemPrompt,
  TRADEOFF_INTRO,
  VOLUNTEERS,
  WISHES_NOTE,
} from "./prompt.ts";
import { readClientText, topicsStated } from "./reader.ts";
import { topicsAsked } from "./topics.ts";
import type { ClientUtility, ClientView, ConversationEntry, PersonaName } from "./types.ts";

const OPENING = /\nYour first message to the assistant was:\n"""\n([\s\S]*?)\n"""\n/;

function lineAfter(text: string, intro: string): string | null {
  for (const line of text.split("\n")) if (line.startsWith(intro)) return line.slice(intro.length);
  return null;
}

/** The client's view when its model was sent `messages`; null if they are not a client's. */
export function observeClient(messages: Message[]): Observation<ClientView> | null {
  const system = messages[0];
  if (system?.role !== "system" || !system.content.startsWith(`${CLIENT_INTRO}\n`)) return null;
  const s = system.content;
  const opening = OPENING.exec(s)?.[1];
  const areasLine = lineAfter(s, AREAS_INTRO);
  const trade = lineAfter(s, TRADEOFF_INTRO);
  if (opening === undefined || areasLine === null || trade === null || !areasLine.endsWith(".")) return null;
  const areas = areasLine.slice(0, -1).split(", ");
  // The requirement lines of the profile (the opening, quoted above them, may hold the same lines).
  const reqLines = s
    .replace(OPENING, "\n")
    .split("\n")
    .filter((l) => /^- (Price|Stars|Area|Must have): /.test(l));
  const request = readRequest([REQUEST_OPENING, "Requirements:", ...reqLines, REQUEST_CLOSING].join("\n"));
  if (!request) return null;
  const t = readClientText(trade, areas).tradeoff;
  const utility: ClientUtility = {
    base: 0,
    review: t?.review ?? 0,
    stars: t?.stars ?? 0,
    amenities: {
      free_cancellation: t?.amenities.free_cancellation ?? 0,
      breakfast: t?.amenities.breakfast ?? 0,
    },
    areas: t?.areas ?? {},
  };
  const wishLine = s.split("\n").find((l) => l.startsWith("Nice to have: ") && l.endsWith(WISHES_NOTE));
  const wishes = wishLine ? wishLine.slice("Nice to have: ".length, -WISHES_NOTE.length - 1).split("; ") : [];
  const persona = (Object.keys(VOLUNTEERS) as PersonaName[]).find((p) =>
    s.includes(`mention only ${VOLUNTEERS[p]}.`),
  );
  if (!persona) return null;
  const view: ClientView = {
    requirements: request.constraints,
    utility,
    wishes,
    areas,
    places: areas.map((a) => a.toLowerCase()),
    conversation: [],
    message: null,
  };
  if (clientSystemPrompt(view, persona, opening) !== s) return null;
  const conversation: ConversationEntry[] = [
    { step: 0, from: "client", text: opening, topics: topicsStated(readClientText(opening, areas)) },
  ];
  const rest = messages.slice(1);
  if (rest.length === 0 || rest.at(-1)!.role !== "user") return null;
  for (const [i, m] of rest.entries()) {
    if (m.role === "system" || (m.role === "user") !== (i % 2 === 0)) return null;
    conversation.push(
      m.role === "user"
        ? { step: i / 2 + 1, from: "agent", text: m.content, topics: topicsAsked(m.content, areas) }
        : {
            step: (i + 1) / 2,
            from: "client",
            text: m.content,
            topics: topicsStated(readClientText(m.content, areas)),
          },
    );
  }
  // The message to answer is the last of the conversation, as the machine's view has it.
  return { messages, view: { ...view, conversation, message: rest.at(-1)!.content } };
}
