import type { BargainRole, MoveType } from "../../environments/bargain/types.ts";
import { formatUsd } from "../../environments/kernel/money.ts";

/**
 * What rule and simulated negotiators say with a move, and what the template narrator writes for
 * the OG buyer: short lines in which `{p}` is the move's price. The price a line names is always
 * the move's own price, so talk and action never disagree.
 */
/** A first offer opens the conversation. */
const OPENING: Readonly<Record<BargainRole, string>> = {
  buyer: "Hi! Would you take {p}?",
  seller: "Thanks! I'm asking {p}.",
};

const LINES: Readonly<Record<BargainRole, Readonly<Record<MoveType, readonly string[]>>>> = {
  buyer: {
    offer: [
      "I can offer {p}.",
      "How about {p}?",
      "Could we meet at {p}?",
      "{p} is my best so far.",
      "I'll raise to {p}.",
    ],
    deal: ["Deal at {p}.", "Alright, {p} it is.", "{p} works. Deal."],
    reject: ["That's more than I can pay.", "That doesn't work for me."],
    quit: ["Beyond my budget. I'll pass.", "We can't agree. Thanks anyway."],
  },
  seller: {
    offer: [
      "The best I can do is {p}.",
      "I can let it go for {p}.",
      "I could come down to {p}.",
      "{p} is already a discount.",
      "Meet me at {p}.",
    ],
    deal: ["Deal! It's yours for {p}.", "Agreed at {p}.", "{p} works. Deal."],
    reject: ["I can't go that low.", "That offer is too low."],
    quit: ["Below what I can accept. I'll pass.", "We're too far apart."],
  },
};

/**
 * The `pick`-th line for this move (wrapping around), with the price filled in; `opening` marks the
 * side's first move, whose offer greets the other side.
 */
export function talkLine(
  role: BargainRole,
  type: MoveType,
  price: number | null,
  pick: number,
  opening = false,
): string {
  const lines = LINES[role][type];
  const line =
    opening && type === "offer"
      ? OPENING[role]
      : (lines[((pick % lines.length) + lines.length) % lines.length] as string);
  return price === null ? line : line.replace("{p}", formatUsd(price));
}

/** How many lines there are for a move, for a random pick. */
export function talkLineCount(role: BargainRole, type: MoveType): number {
  return LINES[role][type].length;
}
