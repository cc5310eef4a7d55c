/**
 * The cue environment read back out of a conversation: the shopper's observation from the messages
 * a client sends (the inverse of the prompt rendering), for simulated models behind serve-sim.
 */
import { DEFAULT_PRODUCT_PAIRS } from "../../datasets/products/library.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { parseCuePrompt } from "./cards.ts";
import type { CueView } from "./machine.ts";
import { CUE_LETTERS } from "./types.ts";

/** The category a shipped pair's item names; unknown items read as no category (texts fall back to "*"). */
const CATEGORY_OF_ITEM = new Map(DEFAULT_PRODUCT_PAIRS.map((p) => [p.item, p.category]));

/** The shopper's observation read back from the conversation, or null if it is not a cue prompt. */
export function observeCue(messages: Message[]): Observation<CueView> | null {
  const user = messages.find((m) => m.role === "user");
  const read = user ? parseCuePrompt(user.content) : null;
  if (!read) return null;
  const attempt = messages.filter((m) => m.role === "assistant").length;
  return {
    messages,
    view: {
      cards: read.cards,
      letters: CUE_LETTERS,
      category: CATEGORY_OF_ITEM.get(read.item) ?? "",
      item: read.item,
      attempt,
    },
  };
}
