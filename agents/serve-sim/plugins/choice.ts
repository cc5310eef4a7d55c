/**
 * Catalog choice behind serve-sim: models `sim-<preset>` read the option cards of the conversation's
 * first user message that has them and answer with a slot letter (the `choose` tool in tools mode),
 * after an "Answer: X" reasoning line when the prompt asks for one.
 */
import type { ChoiceAction } from "../../../environments/choice/actions.ts";
import { parseChoiceCards } from "../../../environments/choice/cards.ts";
import type { ChoiceView } from "../../../environments/choice/machine.ts";
import { slotLetters } from "../../../environments/choice/types.ts";
import type { Agent, Observation } from "../../../environments/kernel/types.ts";
import { CHOICE_PRESETS } from "../../sim/index.ts";
import { lazyModels, type SimPlugin, type SimReply } from "../plugin.ts";

/** serve-sim model names of catalog choice: `sim-<preset>` for every preset of `agents/sim`. */
export const MODEL_PREFIX = "sim-";

/** What a model answers when the conversation holds no option cards: polite, and no choice. */
export const NO_CARDS_REPLY =
  "I'd be happy to help you book a hotel, but I don't see any options in your message. " +
  "Could you share the listings you would like me to choose from?";

export const choiceSimPlugin: SimPlugin = {
  models: lazyModels(
    Object.entries(CHOICE_PRESETS).map(([preset, spec]) => [
      MODEL_PREFIX + preset,
      () => spec.make(`sim:${preset}`) as unknown as Agent<unknown, unknown>,
    ]),
  ),
  observe(messages): Observation<ChoiceView> | null {
    let attempt = 0;
    let options: ReturnType<typeof parseChoiceCards> = null;
    for (const m of messages) {
      if (m.role === "assistant") attempt++;
      else if (options === null && m.role === "user") options = parseChoiceCards(m.content);
    }
    if (options === null) return null;
    return { messages, view: { options, letters: slotLetters(options.length), attempt } };
  },
  reply(action, observation): SimReply {
    const a = action as ChoiceAction;
    const said = a.type === "choose" ? a.option : a.text;
    const letter = said.trim().toUpperCase();
    return (observation.view as ChoiceView).letters.includes(letter)
      ? { kind: "letter", letter }
      : { kind: "text", text: said };
  },
  unrecognized: NO_CARDS_REPLY,
  chainOfThought: (messages) =>
    messages.some((m) => m.role !== "assistant" && m.content.includes("Answer: X")),
};
