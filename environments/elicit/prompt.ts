/**
 * The elicitation prompts: one canonical wording per query type (paper, appendix B.3). Only the
 * domain's context line, the preference utterance and the item or offer content vary. Items are shown
 * as "Label: value" lines, one per feature; `observe.ts` reads all of this back, so change both.
 */
import type { ElicitDomain, FeatureSpec, FeatureValue } from "../../datasets/elicit/schema.ts";
import type { Message } from "../kernel/types.ts";
import type { ElicitTask, TaskOffer } from "./types.ts";

export const ELICIT_SYSTEM_PROMPT =
  "You are a careful assistant who estimates what a specific person would pay. " +
  "Answer each question with a single number of US dollars.";

export const PERSON_HEADER = "The person describes themselves:";
export const OFFER_A = "Offer A:";
export const OFFER_B = "Offer B:";
export const PRICE_LABEL = "Price";
export const ONE_NUMBER = "Reply with one number of US dollars and nothing else.";

/** "What is the most this person would pay per month for this apartment? Reply with …" */
export function itemQuestion(noun: string, priceUnit: string): string {
  return `What is the most this person would pay${priceUnit} for this ${noun}? ${ONE_NUMBER}`;
}

export function offerPairQuestion(priceUnit: string): string {
  return (
    `By how many dollars${priceUnit} would the price of Offer B have to change for this person to be ` +
    "exactly indifferent between Offer A at its price and Offer B? Answer with a signed number: positive " +
    "if Offer B could cost that much more and still be just as good to them, negative if Offer B would " +
    `have to be that much cheaper. ${ONE_NUMBER}`
  );
}

/** 1234567 → "1,234,567". */
export function thousands(n: number): string {
  const s = String(Math.trunc(Math.abs(n)));
  const grouped = s.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${grouped}` : grouped;
}

/** "$1,950", "$19.99". */
export function formatDollars(usd: number): string {
  if (Number.isInteger(usd)) return `$${thousands(usd)}`;
  const cents = Math.round(usd * 100);
  return `$${thousands(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, "0")}`;
}

/** A feature value as shown: "6 h 25 min", "650 sq ft", "25 min by transit", or the level itself. */
export function formatFeature(spec: FeatureSpec, value: FeatureValue): string {
  if (spec.kind !== "continuous") return String(value);
  const n = Number(value);
  if (spec.unit === "minutes") {
    const h = Math.floor(n / 60);
    const m = n % 60;
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  return `${thousands(n)} ${spec.unit}`;
}

/** The "Label: value" lines that describe an item, in the domain's feature order. */
export function describeItem(domain: ElicitDomain, features: Record<string, FeatureValue>): string[] {
  return domain.features.map(
    (spec) => `${spec.label}: ${formatFeature(spec, features[spec.key] as FeatureValue)}`,
  );
}

function offerBlock(header: string, offer: TaskOffer, priceUnit: string): string {
  return [header, ...offer.item.lines, `${PRICE_LABEL}: ${formatDollars(offer.price)}${priceUnit}`].join(
    "\n",
  );
}

/** The system and user messages of one query. */
export function renderElicitMessages(task: ElicitTask): Message[] {
  const blocks = [task.context, `${PERSON_HEADER}\n"${task.utterance.text}"`];
  if (task.queryType === "item") {
    blocks.push(
      [`The ${task.noun}:`, ...task.item.lines].join("\n"),
      itemQuestion(task.noun, task.priceUnit),
    );
  } else {
    blocks.push(
      offerBlock(OFFER_A, task.source, task.priceUnit),
      offerBlock(OFFER_B, task.target, task.priceUnit),
      offerPairQuestion(task.priceUnit),
    );
  }
  return [
    { role: "system", content: ELICIT_SYSTEM_PROMPT },
    { role: "user", content: blocks.join("\n\n") },
  ];
}
