/**
 * Reading a rendered cue prompt back: the exact inverse of `prompt.ts`, used by serve-sim so that
 * a simulated shopper can answer a real client's request. Strict: a message that does not look
 * exactly like one `prompt.ts` writes is unreadable (null), never half-read.
 */
import { CUE_INSTRUCTIONS } from "./prompt.ts";
import type { CueCard } from "./types.ts";

export interface ReadCuePrompt {
  item: string;
  instruction: number;
  cards: [CueCard, CueCard];
}

const PRICE = /^\$(\d{1,3}(?:,\d{3})*)\.(\d{2})$/;
const RATING = /^(\d)\.(\d) out of 5 \((\d{1,3}(?:,\d{3})*) ratings?\)$/;

function readCard(block: string, letter: string): CueCard | null {
  const lines = block.split("\n");
  if (lines[0] !== "Option " + letter) return null;
  const field = (i: number, label: string): string | null => {
    const line = lines[i];
    return line?.startsWith(label + ": ") ? line.slice(label.length + 2) : null;
  };
  const name = field(1, "Name");
  const price = PRICE.exec(field(2, "Price") ?? "");
  const rating = RATING.exec(field(3, "Rating") ?? "");
  if (name === null || !price || !rating || lines[4] !== "Specifications:") return null;
  const specs: Record<string, string> = {};
  let i = 5;
  for (; i < lines.length && lines[i]?.startsWith("- "); i++) {
    const line = (lines[i] as string).slice(2);
    const cut = line.indexOf(": ");
    if (cut < 0) return null;
    specs[line.slice(0, cut)] = line.slice(cut + 2);
  }
  const description = field(i, "Description");
  if (description === null || i !== lines.length - 1) return null;
  return {
    name,
    price: Number((price[1] as string).replaceAll(",", "") + "." + price[2]),
    rating: Number(rating[1] + "." + rating[2]),
    ratingCount: Number((rating[3] as string).replaceAll(",", "")),
    specs,
    description,
  };
}

/** The item, instruction and the two cards of a rendered cue user message, or null. */
export function parseCuePrompt(userText: string): ReadCuePrompt | null {
  const blocks = userText.split("\n\n");
  if (blocks.length !== 4) return null;
  const [intro, a, b, answer] = blocks as [string, string, string, string];
  const instruction = CUE_INSTRUCTIONS.findIndex(
    (ins) => ins.answer === answer && ins.readItem(intro) !== null,
  );
  if (instruction < 0) return null;
  const item = (CUE_INSTRUCTIONS[instruction] as (typeof CUE_INSTRUCTIONS)[number]).readItem(intro) as string;
  const cardA = readCard(a, "A");
  const cardB = readCard(b, "B");
  return cardA && cardB ? { item, instruction, cards: [cardA, cardB] } : null;
}
