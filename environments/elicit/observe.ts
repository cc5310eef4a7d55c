/**
 * Reading an elicitation query back out of the messages a client sends: the exact inverse of
 * `prompt.ts`, against the project's own domains (context line and utterance identify the domain and
 * the person). Strict like the choice cards reader: a message that is not exactly what `prompt.ts`
 * writes is unreadable (null) rather than half-read.
 */
import { DEFAULT_ELICIT_DOMAINS } from "../../datasets/elicit/default.ts";
import type { ElicitDomain, FeatureSpec, FeatureValue } from "../../datasets/elicit/schema.ts";
import type { Message, Observation } from "../kernel/types.ts";
import type { ElicitView, ViewOffer } from "./machine.ts";
import {
  ELICIT_SYSTEM_PROMPT,
  itemQuestion,
  OFFER_A,
  OFFER_B,
  offerPairQuestion,
  PERSON_HEADER,
  PRICE_LABEL,
} from "./prompt.ts";

function readFeature(spec: FeatureSpec, text: string): FeatureValue | null {
  if (spec.kind !== "continuous") return spec.levels.includes(text) ? text : null;
  if (spec.unit === "minutes") {
    const m = /^(\d+) h(?: (\d{1,2}) min)?$/.exec(text);
    return m ? Number(m[1]) * 60 + Number(m[2] ?? 0) : null;
  }
  const m = new RegExp(`^(\\d{1,3}(?:,\\d{3})*) ${spec.unit}$`).exec(text);
  return m ? Number((m[1] as string).replaceAll(",", "")) : null;
}

/** Features from exactly one "Label: value" line per feature, in the domain's order. */
function readItem(domain: ElicitDomain, lines: readonly string[]): Record<string, FeatureValue> | null {
  if (lines.length !== domain.features.length) return null;
  const features: Record<string, FeatureValue> = {};
  for (let i = 0; i < lines.length; i++) {
    const spec = domain.features[i] as FeatureSpec;
    const prefix = `${spec.label}: `;
    const line = lines[i] as string;
    if (!line.startsWith(prefix)) return null;
    const value = readFeature(spec, line.slice(prefix.length));
    if (value === null) return null;
    features[spec.key] = value;
  }
  return features;
}

function readPrice(line: string, priceUnit: string): number | null {
  const m = new RegExp(
    `^${PRICE_LABEL}: \\$(\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?)${priceUnit.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
  ).exec(line);
  return m ? Number((m[1] as string).replaceAll(",", "")) : null;
}

function readOffer(domain: ElicitDomain, block: string, header: string): ViewOffer | null {
  const lines = block.split("\n");
  if (lines[0] !== header || lines.length < 3) return null;
  const features = readItem(domain, lines.slice(1, -1));
  const price = readPrice(lines.at(-1) as string, domain.priceUnit);
  return features && price !== null ? { features, price } : null;
}

/** The query a rendered user message asks, or null when it is not one `prompt.ts` writes. */
export function readElicitQuery(
  user: string,
  domains: Readonly<Record<string, ElicitDomain>> = DEFAULT_ELICIT_DOMAINS,
): ElicitView | null {
  const blocks = user.split("\n\n");
  const domain = Object.values(domains).find((d) => d.context === blocks[0]);
  const person = blocks[1];
  if (!domain || person === undefined || !person.startsWith(`${PERSON_HEADER}\n"`) || !person.endsWith('"'))
    return null;
  const text = person.slice(PERSON_HEADER.length + 2, -1);
  const utterance = domain.utterances.find((u) => u.text === text);
  if (!utterance) return null;
  const base = { domain: domain.domain, utterance: utterance.id };
  if (blocks.length === 4 && blocks[3] === itemQuestion(domain.noun, domain.priceUnit)) {
    const lines = (blocks[2] as string).split("\n");
    if (lines[0] !== `The ${domain.noun}:`) return null;
    const item = readItem(domain, lines.slice(1));
    return item ? { ...base, queryType: "item", item } : null;
  }
  if (blocks.length === 5 && blocks[4] === offerPairQuestion(domain.priceUnit)) {
    const source = readOffer(domain, blocks[2] as string, OFFER_A);
    const target = readOffer(domain, blocks[3] as string, OFFER_B);
    return source && target ? { ...base, queryType: "offer-pair", source, target } : null;
  }
  return null;
}

/** The observation a respondent would have had: the system prompt, then the query as the first user turn. */
export function observeElicit(messages: Message[]): Observation<ElicitView> | null {
  if (messages[0]?.role !== "system" || messages[0].content !== ELICIT_SYSTEM_PROMPT) return null;
  const user = messages.find((m) => m.role === "user");
  const view = user ? readElicitQuery(user.content) : null;
  return view ? { messages, view } : null;
}
