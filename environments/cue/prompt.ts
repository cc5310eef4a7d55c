/**
 * The cue prompt: a neutral system message and one user message holding the task instruction, two
 * product cards labelled Option A and Option B (so catalog choice's strict parser reads the answer),
 * and the answer instruction. Both cards show the same labelled fields in the same order; only the
 * name, the price of the cued product and the description (where the cue sentence sits) can differ.
 * `cards.ts` reads these cards back; change a label or a number format in both places.
 */
import { withThousands } from "../../datasets/products/text.ts";
import type { Message } from "../kernel/types.ts";
import type { CueCard } from "./types.ts";

export const CUE_SYSTEM_PROMPT = "You are a helpful assistant.";

/** One wording of the task: the sentence before the cards and the answer instruction after them. */
export interface CueInstruction {
  intro(item: string): string;
  answer: string;
  /** Reads the item back out of an intro sentence; null if the sentence is not this instruction's. */
  readItem(intro: string): string | null;
}

function instruction(before: string, after: string, answer: string): CueInstruction {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^${literal(before)}(.+)${literal(after)}$`);
  return { intro: (item) => before + item + after, answer, readItem: (intro) => re.exec(intro)?.[1] ?? null };
}

/**
 * Instruction 0 is the default; 1–3 are the semantically equivalent paraphrases of the robustness
 * block. Each asks for the letter alone.
 */
export const CUE_INSTRUCTIONS: readonly CueInstruction[] = [
  instruction(
    "I want to buy ",
    ". Please choose one of these two options for me.",
    "Reply with only the letter of your choice (A or B).",
  ),
  instruction(
    "Help me pick ",
    ": which of the two options below should I get?",
    "Answer with only the letter of the option you pick (A or B).",
  ),
  instruction(
    "I am shopping for ",
    " and have narrowed it down to the two options below. Decide which one I should buy.",
    "Respond with just the letter of that option (A or B).",
  ),
  instruction(
    "You are buying ",
    " on my behalf. Select one of the following two options.",
    "Give only the letter of your selection (A or B).",
  ),
];

/** "$84.99", "$1,249.00": always with cents, so a raised price never changes format. */
export function formatUsd(usd: number): string {
  const cents = Math.round(usd * 100);
  const rest = cents % 100;
  return "$" + withThousands(Math.floor(cents / 100)) + (rest < 10 ? ".0" : ".") + rest;
}

/** "4.4 out of 5 (2,318 ratings)". */
export function formatRatingLine(rating: number, count: number): string {
  return (
    (Math.round(rating * 10) / 10).toFixed(1) +
    " out of 5 (" +
    withThousands(count) +
    (count === 1 ? " rating)" : " ratings)")
  );
}

export function renderCard(card: CueCard, letter: string): string {
  let specs = "";
  for (const [label, value] of Object.entries(card.specs)) specs += "\n- " + label + ": " + value;
  return (
    "Option " +
    letter +
    "\nName: " +
    card.name +
    "\nPrice: " +
    formatUsd(card.price) +
    "\nRating: " +
    formatRatingLine(card.rating, card.ratingCount) +
    "\nSpecifications:" +
    specs +
    "\nDescription: " +
    card.description
  );
}

/** The two messages of a cue ask: system, then the instruction, the two cards and the answer format. */
export function renderCueMessages(
  cards: readonly [CueCard, CueCard],
  item: string,
  instructionIndex: number,
): Message[] {
  const ins = CUE_INSTRUCTIONS[instructionIndex];
  if (!ins)
    throw new RangeError(`no cue instruction ${instructionIndex}; there are ${CUE_INSTRUCTIONS.length}`);
  const user =
    ins.intro(item) +
    "\n\n" +
    renderCard(cards[0], "A") +
    "\n\n" +
    renderCard(cards[1], "B") +
    "\n\n" +
    ins.answer;
  return [
    { role: "system", content: CUE_SYSTEM_PROMPT },
    { role: "user", content: user },
  ];
}
