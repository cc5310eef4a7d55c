/**
 * A shop conversation read back into the shopper's observation: the exact inverse of `prompt.ts`
 * and `results.ts`, for simulated shoppers behind serve-sim, which see only the messages a client
 * sends (tool results arrive as user turns, the client's tool calls as `name({args})` lines). It is
 * strict: anything that is not exactly what the environment writes makes the conversation
 * unreadable (null), never half-read.
 */

import { firstSentence, oneLineText } from "../../datasets/descriptions/text.ts";
import { CHAINS } from "../../datasets/hotels/schema.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { MESSAGE_CLIENT, SearchActionSchema } from "./actions.ts";
import { nothingStated, readClientText, topicsStated, withReading } from "./client/reader.ts";
import { topicsAsked } from "./client/topics.ts";
import type { ClientSide, ConversationEntry } from "./client/types.ts";
import { JUST_BOOK } from "./client/wording.ts";
import { parseActionLines } from "./grammar.ts";
import {
  AMENITY_LABEL,
  CLIENT_TOOL_LINE,
  OFFER_TOOL_LINE,
  REQUEST_CLOSING,
  REQUEST_OPENING,
  SHOP_SYSTEM_INTRO,
  shopSystemPrompt,
} from "./prompt.ts";
import {
  CLIENT_PREFIX,
  ENDORSEMENT_TAG,
  NEGOTIABLE_TAG,
  offerText,
  SNIPPET_INDENT,
  SPONSORED_TAG,
} from "./results.ts";
import { searchQuery } from "./search.ts";
import type {
  Amenity,
  Card,
  HardConstraints,
  ListingDetail,
  OfferAnswer,
  OfferResult,
  ShopCall,
  ShopRequest,
  ShopRules,
  ShopTurn,
  ShopView,
  ToolResult,
} from "./types.ts";

const MONEY = String.raw`\$[\d,]+(?:\.\d{2})?`;
const PRICE = new RegExp(`^(${MONEY})(?: \\(was (${MONEY})\\))?$`);
const RATING = /^(\d{1,2}\.\d)\/10 from ([\d,]+) reviews?$/;
const PLACE = /^(.*) \(([^()]*)\)$/;
const SCARCITY = /^Only (\d+) rooms? left$/;
const FOOTER = /\n\[(\d+) of (\d+) tool calls used\]$/;
// `s`: the arguments are one line of JSON, which may still hold U+2028/U+2029 (JSON.stringify leaves them).
const ECHO_CALL = /^([A-Za-z_][A-Za-z0-9_]*|)\((.*)\)$/s;
const BLOCK = /^Result of call (\d+) \(([^()]*)\):\n/;

function money(text: string): number {
  return Number(text.slice(1).replaceAll(",", ""));
}

function readRules(system: string): { rules: ShopRules; areas: string[]; client: boolean } | null {
  if (!system.startsWith(`${SHOP_SYSTEM_INTRO}\n`)) return null;
  const page = /one page of (\d+) result cards?/.exec(system);
  const steps = /You have at most (\d+) tool calls?;/.exec(system);
  const invalid = /the task also ends after (\d+) invalid calls? in a row\./.exec(system);
  const areas = /^Areas: (.*) \(a neighborhood name works as an area too\)\.$/m.exec(system);
  if (!page || !steps || !invalid || !areas) return null;
  const rules: ShopRules = {
    pageSize: Number(page[1]),
    maxSteps: Number(steps[1]),
    maxInvalid: Number(invalid[1]),
  };
  if (system.includes(`\n${OFFER_TOOL_LINE}\n`)) rules.offers = true;
  const rounds = /^- You may make at most (\d+) offers? on each listing;/m.exec(system);
  if (rules.offers && rounds) rules.offerRounds = Number(rounds[1]);
  const read = {
    rules,
    areas: (areas[1] as string).split(", "),
    client: system.includes(`\n${CLIENT_TOOL_LINE}\n`),
  };
  // Whole-prompt check: a prompt that differs anywhere (a tool line of another design, an edited
  // rule) is not one this shop wrote, and its rules would be guessed.
  return shopSystemPrompt(read.rules, read.areas, read.client) === system ? read : null;
}

function splitOr(text: string): string[] {
  const i = text.lastIndexOf(" or ");
  return i < 0 ? [text] : [...text.slice(0, i).split(", "), text.slice(i + 4)];
}

const AMENITY_OF_LABEL = new Map(Object.entries(AMENITY_LABEL).map(([k, v]) => [v, k as Amenity]));

/** The request's hard constraints and wishes from the first user message. */
export function readRequest(text: string): ShopRequest | null {
  const lines = text.split("\n");
  if (lines[0] !== REQUEST_OPENING || lines.at(-1) !== REQUEST_CLOSING) return null;
  const c: HardConstraints = { maxPrice: null, minStars: null, areas: null, amenities: [] };
  let wishes: string[] = [];
  const priceLine = new RegExp(`^- Price: at most (${MONEY}) a night$`);
  for (const line of lines.slice(1, -1)) {
    if (line === "Requirements:" || line === "Requirements: none") continue;
    const price = priceLine.exec(line);
    const stars = /^- Stars: at least ([1-5])$/.exec(line);
    const area = /^- Area: (.+)$/.exec(line);
    const must = /^- Must have: (.+)$/.exec(line);
    const nice = /^Nice to have: (.+)\.$/.exec(line);
    if (price) c.maxPrice = money(price[1] as string);
    else if (stars) c.minStars = Number(stars[1]);
    else if (area) c.areas = splitOr(area[1] as string);
    else if (must) {
      for (const label of (must[1] as string).split(", ")) {
        const a = AMENITY_OF_LABEL.get(label);
        if (!a) return null;
        c.amenities.push(a);
      }
    } else if (nice) wishes = (nice[1] as string).split("; ");
    else return null;
  }
  return { text, constraints: c, wishes };
}

function readCardFields(id: string, fields: string[]): Card | null {
  const [name, place, stars, price, rating, ...tags] = fields;
  if (
    name === undefined ||
    place === undefined ||
    stars === undefined ||
    price === undefined ||
    rating === undefined
  )
    return null;
  const p = PLACE.exec(place);
  const s = /^([1-5])★$/.exec(stars);
  const pr = /^(.*) a night$/.exec(price);
  const money2 = pr ? PRICE.exec(pr[1] as string) : null;
  const r = RATING.exec(rating);
  if (!p || !s || !money2 || !r) return null;
  const card: Card = {
    id,
    name,
    neighborhood: p[1] as string,
    area: p[2] as string,
    stars: Number(s[1]),
    price: money(money2[1] as string),
    wasPrice: money2[2] === undefined ? null : money(money2[2]),
    reviewScore: Number(r[1]),
    reviewCount: Number((r[2] as string).replaceAll(",", "")),
    sponsored: false,
    endorsed: false,
    roomsLeft: null,
    negotiable: false,
    snippet: "",
  };
  for (const t of tags) {
    const sc = SCARCITY.exec(t);
    if (t === NEGOTIABLE_TAG && !card.negotiable) card.negotiable = true;
    else if (t === SPONSORED_TAG && !card.sponsored) card.sponsored = true;
    else if (t === ENDORSEMENT_TAG && !card.endorsed) card.endorsed = true;
    else if (sc && card.roomsLeft === null) card.roomsLeft = Number(sc[1]);
    else return null;
  }
  return card;
}

function readSearch(lines: string[], call: ShopCall, rules: ShopRules): ToolResult | null {
  const parsed = SearchActionSchema.safeParse({ ...(call.args as object | undefined), type: "search" });
  if (!parsed.success) return null;
  const query = searchQuery(parsed.data);
  const head = lines[0] as string;
  if (head === "Found 0 listings.")
    return lines.length === 1 ? { kind: "results", query, total: 0, pages: 0, cards: [] } : null;
  const past = /^Found (\d+) listings?; there is no page (\d+) \((\d+) pages?\)\.$/.exec(head);
  if (past) {
    if (lines.length !== 1 || Number(past[2]) !== query.page) return null;
    return { kind: "results", query, total: Number(past[1]), pages: Number(past[3]), cards: [] };
  }
  const m = /^Found (\d+) listings? \(page (\d+) of (\d+), (\d+) per page, sorted by ([a-z_]+)\):$/.exec(
    head,
  );
  if (!m || Number(m[2]) !== query.page || Number(m[4]) !== rules.pageSize || m[5] !== query.sort)
    return null;
  const cards: Card[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cm = /^(\d+)\. (\S+) · (.*)$/.exec(lines[i] as string);
    if (!cm || Number(cm[1]) !== cards.length + 1) return null;
    const card = readCardFields(cm[2] as string, (cm[3] as string).split(" · "));
    if (!card) return null;
    // The card's description line, indented under it (a card without a description has none).
    const next = lines[i + 1];
    if (next?.startsWith(SNIPPET_INDENT)) {
      card.snippet = next.slice(SNIPPET_INDENT.length);
      if (card.snippet === "" || card.snippet !== oneLineText(card.snippet)) return null;
      i++;
    }
    cards.push(card);
  }
  return { kind: "results", query, total: Number(m[1]), pages: Number(m[3]), cards };
}

const DETAIL_LABELS = [
  "Hotel",
  "Brand",
  "Stars",
  "Neighborhood",
  "Room",
  "Price per night",
  "Free cancellation",
  "Breakfast included",
  "Guest rating",
  "Tags",
  "Description",
] as const;

function readListing(lines: string[]): ToolResult | null {
  const head = /^Listing (\S+)$/.exec(lines[0] as string);
  if (!head || lines.length !== DETAIL_LABELS.length + 1) return null;
  const v: Record<string, string> = {};
  for (let i = 0; i < DETAIL_LABELS.length; i++) {
    const label = DETAIL_LABELS[i] as string;
    const line = lines[i + 1] as string;
    if (!line.startsWith(`${label}: `)) return null;
    v[label] = line.slice(label.length + 2);
  }
  const yes = (x: string | undefined) => (x === "Yes" ? true : x === "No" ? false : null);
  const chain = v.Brand as (typeof CHAINS)[number];
  const fc = yes(v["Free cancellation"]);
  const bf = yes(v["Breakfast included"]);
  const stars = `${v.Stars}★`;
  const tags = v.Tags === "none" ? [] : (v.Tags as string).split(", ");
  const card = readCardFields(head[1] as string, [
    v.Hotel as string,
    v.Neighborhood as string,
    stars,
    `${v["Price per night"]} a night`,
    v["Guest rating"] as string,
    ...tags,
  ]);
  if (!card || !CHAINS.includes(chain) || fc === null || bf === null) return null;
  const description = v.Description as string;
  if (description !== oneLineText(description)) return null;
  const listing: ListingDetail = {
    ...card,
    snippet: firstSentence(description),
    chain,
    roomType: v.Room as string,
    freeCancellation: fc,
    breakfast: bf,
    description,
  };
  return { kind: "listing", listing };
}

/** A dollar amount as `formatUsd` writes it ("$180", "$179.50": no thousands separators). */
const USD = String.raw`-?\$\d+(?:\.\d{2})?`;
const OFFER_HEAD = new RegExp(`^Offer to listing (\\S+): (${USD}) a night\\. `);
const COUNTER = new RegExp(`^The seller counters at (${USD}) a night\\.`);
const DEAL_LINE = new RegExp(`^Deal at (${USD}) a night: `);
const SAYS = " The seller says: ";

/** How each answer other than a counter opens, after the offer's own sentence. */
const ANSWER_SENTENCES: readonly [OfferAnswer, string][] = [
  ["accept", "The seller accepts."],
  ["deal", "That is the seller's own offer."],
  ["reject", "The seller rejects it."],
  ["quit", "The seller ends the negotiation."],
  ["invalid", "The seller gave no usable answer: take it as a rejection."],
];

function usd(text: string): number {
  return text.startsWith("-") ? -money(text.slice(1)) : money(text);
}

/** The seller's quoted words after an answer's sentence: "" when none, null when not a JSON string. */
function readSaid(rest: string): string | null {
  if (rest === "") return "";
  if (!rest.startsWith(SAYS)) return null;
  try {
    const said: unknown = JSON.parse(rest.slice(SAYS.length));
    return typeof said === "string" ? said : null;
  } catch {
    return null;
  }
}

/**
 * The answer to an offer (`offerText`): the offer's line with the seller's answer and its quoted
 * words (JSON, so quotes and newlines stay on the line), then what the shopper can do next. Read
 * field by field, then written again and compared, so only exactly what `offerText` writes is read.
 */
function readOffer(body: string): OfferResult | null {
  const nl = body.indexOf("\n");
  if (nl < 0) return null;
  const first = body.slice(0, nl);
  const head = OFFER_HEAD.exec(first);
  if (!head) return null;
  const rest = first.slice(head[0].length);
  let answer: OfferAnswer;
  let said: string | null = "";
  let counter: number | null = null;
  const counters = COUNTER.exec(rest);
  if (counters) {
    answer = "counter";
    counter = usd(counters[1] as string);
    said = readSaid(rest.slice(counters[0].length));
  } else {
    const opening = ANSWER_SENTENCES.find(([, sentence]) => rest.startsWith(sentence));
    if (!opening) return null;
    answer = opening[0];
    said = readSaid(rest.slice(opening[1].length));
  }
  if (said === null) return null;
  let deal: number | null = null;
  if (answer === "accept" || answer === "deal") {
    const d = DEAL_LINE.exec(body.slice(nl + 1));
    if (!d) return null;
    deal = usd(d[1] as string);
  }
  const result: OfferResult = {
    kind: "offer",
    id: head[1] as string,
    price: usd(head[2] as string),
    answer,
    counter,
    message: said,
    deal,
  };
  return offerText(result) === body ? result : null;
}

/** One result as the agent read it, with the step number of its budget line. */
function readResult(
  text: string,
  call: ShopCall,
  rules: ShopRules,
): { result: ToolResult; step: number } | null {
  const foot = FOOTER.exec(text);
  if (!foot || Number(foot[2]) !== rules.maxSteps) return null;
  const body = text.slice(0, foot.index);
  const lines = body.split("\n");
  let result: ToolResult | null = null;
  if (body.startsWith("Error: ") && lines.length === 1) result = { kind: "error", message: body.slice(7) };
  else if (body.startsWith("Found ") && call.tool === "search") result = readSearch(lines, call, rules);
  else if (body.startsWith("Listing ") && call.tool === "view") result = readListing(lines);
  else if (body.startsWith("Offer to listing ") && call.tool === "offer") result = readOffer(body);
  else if (body.startsWith(CLIENT_PREFIX) && call.tool === MESSAGE_CLIENT) {
    const said = body.slice(CLIENT_PREFIX.length);
    result = { kind: "client", text: said, ...(said === JUST_BOOK ? { machine: true } : {}) };
  }
  return result ? { result, step: Number(foot[1]) } : null;
}

function readEchoCall(line: string): ShopCall | null {
  const m = ECHO_CALL.exec(line);
  if (!m) return null;
  const inner = m[2] as string;
  if (inner === "") return { tool: m[1] as string, args: undefined };
  try {
    return { tool: m[1] as string, args: JSON.parse(inner) };
  } catch {
    return null;
  }
}

function isTextModeAnswer(results: readonly Message[]): boolean {
  return results.length === 1 && BLOCK.test((results[0] as Message).content);
}

/** With a client: a message to it (a reply without any call), answered by one message, its reply. */
function readClientMessage(echo: string, results: readonly Message[], rules: ShopRules): ShopTurn | null {
  if (results.length !== 1 || !(results[0] as Message).content.startsWith(CLIENT_PREFIX)) return null;
  if (parseActionLines(echo).length > 0) return null;
  const call: ShopCall = { tool: MESSAGE_CLIENT, args: { text: echo } };
  const read = readResult((results[0] as Message).content, call, rules);
  return read
    ? { mode: "message", text: echo, calls: [{ call, result: read.result, step: read.step }] }
    : null;
}

/** One agent message and the results that answered it. */
function readTurn(
  echo: string,
  results: readonly Message[],
  rules: ShopRules,
  client: boolean,
): ShopTurn | null {
  if (client) {
    const message = readClientMessage(echo, results, rules);
    if (message) return message;
  }
  if (isTextModeAnswer(results)) {
    const calls = parseActionLines(echo);
    const blocks = (results[0] as Message).content.split(/\n\n(?=Result of call \d+ \()/);
    const expected = calls.length > 0 ? calls : [{ tool: "", args: echo }];
    if (blocks.length !== expected.length) return null;
    const out: ShopTurn["calls"] = [];
    for (let i = 0; i < blocks.length; i++) {
      const b = BLOCK.exec(blocks[i] as string);
      const call = expected[i] as ShopCall;
      if (!b || Number(b[1]) !== i + 1 || b[2] !== (call.tool === "" ? "no call" : call.tool)) return null;
      const read = readResult((blocks[i] as string).slice(b[0].length), call, rules);
      if (!read) return null;
      out.push({ call: { tool: call.tool, args: call.args }, result: read.result, step: read.step });
    }
    return { mode: "text", text: echo, calls: out };
  }
  const lines = echo.split("\n");
  if (lines.length !== results.length) return null;
  const out: ShopTurn["calls"] = [];
  for (let i = 0; i < lines.length; i++) {
    const call = readEchoCall(lines[i] as string);
    if (!call) return null;
    const read = readResult((results[i] as Message).content, call, rules);
    if (!read) return null;
    out.push({ call, result: read.result, step: read.step });
  }
  return { mode: "tools", text: null, calls: out };
}

/** The shopper's observation when the conversation `messages` was sent; null if it is not a shop episode. */
export function observeShop(messages: Message[]): Observation<ShopView> | null {
  const system = messages[0];
  const first = messages[1];
  if (system?.role !== "system" || first?.role !== "user") return null;
  const head = readRules(system.content);
  const opening = head?.client
    ? withReading(nothingStated(), readClientText(first.content, head.areas))
    : null;
  const request = !head
    ? null
    : opening
      ? { text: first.content, constraints: opening.constraints, wishes: opening.wishes }
      : readRequest(first.content);
  if (!head || !request) return null;
  const turns: ShopTurn[] = [];
  let i = 2;
  while (i < messages.length) {
    const echo = messages[i] as Message;
    if (echo.role !== "assistant") return null;
    let j = i + 1;
    while (j < messages.length && (messages[j] as Message).role === "user") j++;
    const turn = readTurn(echo.content, messages.slice(i + 1, j), head.rules, head.client);
    if (!turn || turn.calls.length === 0) return null;
    turns.push(turn);
    i = j;
  }
  let steps = 0;
  let invalidStreak = 0;
  for (const t of turns)
    for (const c of t.calls) {
      steps = c.step;
      invalidStreak = c.result.kind === "error" ? invalidStreak + 1 : 0;
    }
  const client = head.client ? clientRead(first.content, turns, head.areas) : null;
  return {
    messages,
    view: {
      request: client
        ? { text: first.content, constraints: client.stated.constraints, wishes: client.stated.wishes }
        : request,
      rules: head.rules,
      areas: head.areas,
      turns,
      steps,
      invalidStreak,
      ...(client ? { client } : {}),
    },
  };
}

/**
 * The client side of a conversation read back: the opening, then each message to the client and
 * its reply, read as the machine reads them (an area named by the catalog's areas; the machine also
 * knows its neighborhoods, which a conversation does not list).
 */
function clientRead(opening: string, turns: readonly ShopTurn[], areas: readonly string[]): ClientSide {
  let reading = readClientText(opening, areas);
  let stated = withReading(nothingStated(), reading);
  const conversation: ConversationEntry[] = [
    { step: 0, from: "client", text: opening, topics: topicsStated(reading) },
  ];
  let patienceOut = false;
  for (const t of turns)
    for (const c of t.calls) {
      if (c.call.tool !== MESSAGE_CLIENT || c.result.kind !== "client") continue;
      const asked = String((c.call.args as { text?: unknown } | undefined)?.text ?? "");
      conversation.push({ step: c.step, from: "agent", text: asked, topics: topicsAsked(asked, areas) });
      if (c.result.machine) {
        patienceOut = true;
        conversation.push({ step: c.step, from: "client", text: c.result.text, topics: [], machine: true });
        continue;
      }
      reading = readClientText(c.result.text, areas);
      stated = withReading(stated, reading);
      conversation.push({ step: c.step, from: "client", text: c.result.text, topics: topicsStated(reading) });
    }
  return { persona: null, conversation, stated, patienceOut };
}
