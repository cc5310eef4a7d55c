/**
 * Reading option cards back out of a rendered catalog-choice user message: the exact inverse of the
 * text (plain, price-first, value-persona, cot) and JSON card renderings in `prompt.ts`. The simulated
 * model server uses it to let simulated agents answer real prompts, so it is strict: a card that does
 * not look exactly like one `prompt.ts` writes makes the whole message unreadable (null) rather than
 * half-read. Hotel ids are not shown to agents, so every option read back has `hotelId: -1`.
 *
 * Free-text values (name, neighborhood, room) round-trip exactly in JSON cards; in text cards they
 * must not contain a line break, since a card line ends at one.
 */
import { CHAINS, type Chain } from "../../datasets/hotels/schema.ts";
import { CARD_LABELS, type CardLabel } from "./prompt.ts";
import type { ChoiceOption } from "./types.ts";

type CardValues = Partial<Record<CardLabel, string>>;

const LABEL_SET: ReadonlySet<string> = new Set(CARD_LABELS);
const CHAIN_SET: ReadonlySet<string> = new Set(CHAINS);

const PRICE = /^\$(\d{1,3}(?:,\d{3})*)(?:\.(\d{2}))?$/;
const RATING = /^(\d{1,2}\.\d) \/ 10$/;
const REVIEWS = /^(\d{1,3}(?:,\d{3})*) reviews?$/;
const STARS = /^[1-5]$/;

function parsePrice(text: string): number | null {
  const m = PRICE.exec(text);
  if (!m) return null;
  const dollars = Number((m[1] as string).replaceAll(",", ""));
  return m[2] === undefined ? dollars : Number(dollars + "." + m[2]);
}

function parseYesNo(text: string): boolean | null {
  return text === "Yes" ? true : text === "No" ? false : null;
}

function toOption(v: CardValues): ChoiceOption | null {
  const name = v.Hotel;
  const chain = v.Brand;
  const stars = v.Stars;
  const neighborhood = v.Neighborhood;
  const roomType = v.Room;
  if (name === undefined || neighborhood === undefined || roomType === undefined) return null;
  if (chain === undefined || !CHAIN_SET.has(chain)) return null;
  if (stars === undefined || !STARS.test(stars)) return null;
  const price = parsePrice(v["Price per night"] ?? "");
  const freeCancellation = parseYesNo(v["Free cancellation"] ?? "");
  const breakfast = parseYesNo(v["Breakfast included"] ?? "");
  const rating = RATING.exec(v["Guest rating"] ?? "");
  const reviews = REVIEWS.exec(v.Reviews ?? "");
  if (price === null || freeCancellation === null || breakfast === null || !rating || !reviews) return null;
  return {
    hotelId: -1,
    name,
    stars: Number(stars),
    neighborhood,
    chain: chain as Chain,
    price,
    roomType,
    freeCancellation,
    breakfast,
    reviewScore: Number(rating[1]),
    reviewCount: Number((reviews[1] as string).replaceAll(",", "")),
  };
}

function readJsonCard(line: string): CardValues | null {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) return null;
  const values: CardValues = {};
  let count = 0;
  for (const [key, value] of Object.entries(record)) {
    if (!LABEL_SET.has(key) || typeof value !== "string") return null;
    values[key as CardLabel] = value;
    count++;
  }
  return count === CARD_LABELS.length ? values : null;
}

/** Reads `Label: value` lines from `start` up to a blank line; null on an unknown or repeated label. */
function readTextCard(lines: readonly string[], start: number): { values: CardValues; next: number } | null {
  const values: CardValues = {};
  let count = 0;
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "") break;
    // Labels hold no colon, so the first ": " ends the label even when a hotel name has one.
    const cut = line.indexOf(": ");
    if (cut < 0) return null;
    const label = line.slice(0, cut);
    if (!LABEL_SET.has(label) || values[label as CardLabel] !== undefined) return null;
    values[label as CardLabel] = line.slice(cut + 2);
    count++;
  }
  return count === CARD_LABELS.length ? { values, next: i } : null;
}

/**
 * The options shown in a rendered catalog-choice user message, in display order (Option A first).
 * Null when the message holds no cards, the cards are not lettered A, B, C, … in order, or any card
 * lacks an attribute or shows one in a form `prompt.ts` never writes.
 */
export function parseChoiceCards(userText: string): ChoiceOption[] | null {
  const lines = userText.split("\n");
  const options: ChoiceOption[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.startsWith("Option ") || line.length !== 8) continue;
    if (line !== "Option " + String.fromCharCode(65 + options.length)) return null;
    const first = lines[i + 1];
    if (first === undefined) return null;
    let values: CardValues | null;
    if (first.startsWith("{")) {
      values = readJsonCard(first);
      i += 1;
    } else {
      const card = readTextCard(lines, i + 1);
      values = card ? card.values : null;
      if (card) i = card.next;
    }
    const option = values ? toOption(values) : null;
    if (!option) return null;
    options.push(option);
  }
  return options.length > 0 ? options : null;
}
