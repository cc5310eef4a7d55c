/**
 * Prompt templates: the catalog-choice prompt in any wording, so a run can match another runner's
 * prompt (the PriceBench reference's own, say) or audit a production prompt. A template is a text
 * file of sections, each opened by a line that is exactly its header:
 *
 *   [system]      the system message (optional; without it there is no system message)
 *   [user]        the user message; must hold {{cards}}, may hold {{letters}} and {{count}}
 *   [user 3]      the user message for tasks with that many options (overrides [user] there)
 *   [card]        one option card (optional; default: bazaar's own card), with the attribute
 *                 placeholders below; cards are joined by a blank line
 *   [reask]       the follow-up after an unusable answer (optional; may hold {{letters}})
 *
 * Placeholders: {{letter}} (A, B, …), {{name}}, {{brand}} (chain family or Independent), {{stars}},
 * {{neighborhood}}, {{room}}, {{price}} ("$1,249"), {{price_number}} ("1249"), {{free_cancellation}}
 * and {{breakfast}} ("Yes"/"No"), {{rating}} (one decimal, "8.4"), {{reviews}} ("2,431"),
 * {{amenities}} ("Free WiFi; Gym", empty where the task lists none); {{letters}} ("A, B or C"),
 * {{count}} (how many options). Lines before the first section that start with `#` are comments.
 * Leading and trailing blank lines of a section are dropped. An unknown section or placeholder is an
 * error naming the file and line.
 */
import { UserError } from "../kernel/errors.ts";
import type { Message } from "../kernel/types.ts";
import { formatPrice, letterList, reaskMessage, textCard, thousands } from "./prompt.ts";
import type { ChoiceOption, PromptVariant } from "./types.ts";

export interface PromptTemplate {
  /** Where it came from (a file name), for messages and the run's identity. */
  source: string;
  system: string | null;
  /** The user message by option count; key 0 is the plain [user] section. */
  user: Record<number, string>;
  card: string | null;
  reask: string | null;
}

const CARD_FIELDS = [
  "letter",
  "name",
  "brand",
  "stars",
  "neighborhood",
  "room",
  "price",
  "price_number",
  "free_cancellation",
  "breakfast",
  "rating",
  "reviews",
  "amenities",
] as const;
const USER_FIELDS = ["cards", "letters", "count"] as const;
const REASK_FIELDS = ["letters"] as const;

const HEADER = /^\[(system|user|card|reask)(?: (\d+))?\]$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

function fail(source: string, line: number, message: string): never {
  throw new UserError(
    `${source}, line ${line}: ${message}`,
    "see --help of `bazaar run choice` (--prompt-template) for the sections and placeholders",
  );
}

/** Checks a section's placeholders against the ones it may use. */
function checkPlaceholders(
  source: string,
  line: number,
  section: string,
  body: string,
  allowed: readonly string[],
): void {
  for (const m of body.matchAll(PLACEHOLDER)) {
    const name = m[1] as string;
    if (!allowed.includes(name)) {
      const at = line + body.slice(0, m.index).split("\n").length;
      fail(
        source,
        at,
        `unknown placeholder {{${name}}} in [${section}]${allowed.length ? ` (it may use ${allowed.map((a) => `{{${a}}}`).join(", ")})` : " (it takes none)"}`,
      );
    }
  }
}

/** Reads a template file's text; `source` names it in errors (file name). */
export function parsePromptTemplate(text: string, source: string): PromptTemplate {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const sections: { name: string; count: number; line: number; body: string[] }[] = [];
  const seen = new Set<string>();
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    const header = HEADER.exec(line);
    if (header) {
      const name = header[1] as string;
      const count = header[2] === undefined ? 0 : Number(header[2]);
      if (header[2] !== undefined && name !== "user")
        fail(source, i + 1, `only [user] takes an option count, not [${name} ${header[2]}]`);
      if (header[2] !== undefined && !(count >= 2 && count <= 26))
        fail(source, i + 1, `[user ${header[2]}]: an option count is 2 to 26`);
      const key = `${name} ${count}`;
      if (seen.has(key)) fail(source, i + 1, `section ${line} appears twice`);
      seen.add(key);
      sections.push({ name, count, line: i + 1, body: [] });
      return;
    }
    const current = sections.at(-1);
    if (current) {
      current.body.push(raw);
      return;
    }
    if (line !== "" && !line.startsWith("#"))
      fail(
        source,
        i + 1,
        /^\[.*\]$/.test(line)
          ? `unknown section ${line} (sections: [system], [user], [user <n>], [card], [reask])`
          : "text before the first section (start with [system] or [user]; lines before it may only be # comments)",
      );
  });
  const template: PromptTemplate = { source, system: null, user: {}, card: null, reask: null };
  for (const s of sections) {
    let start = 0;
    let end = s.body.length;
    while (start < end && s.body[start]!.trim() === "") start++;
    while (end > start && s.body[end - 1]!.trim() === "") end--;
    // The line number of the section's first kept line, less one (placeholder lines count from it).
    const first = s.line + start;
    const text = s.body.slice(start, end).join("\n");
    if (text === "" && s.name !== "system") fail(source, s.line, `section [${s.name}] is empty`);
    if (s.name === "system") {
      checkPlaceholders(source, first, "system", text, []);
      template.system = text;
    } else if (s.name === "user") {
      const label = s.count ? `user ${s.count}` : "user";
      checkPlaceholders(source, first, label, text, USER_FIELDS);
      if (!/\{\{\s*cards\s*\}\}/.test(text))
        fail(source, s.line, `[${label}] must hold {{cards}}, where the option cards go`);
      template.user[s.count] = text;
    } else if (s.name === "card") {
      checkPlaceholders(source, first, "card", text, CARD_FIELDS);
      template.card = text;
    } else {
      checkPlaceholders(source, first, "reask", text, REASK_FIELDS);
      template.reask = text;
    }
  }
  if (Object.keys(template.user).length === 0)
    fail(source, lines.length, "no [user] section: a template needs the user message, with {{cards}} in it");
  return template;
}

/** The option counts a template has a user message for (null: any, there is a plain [user]). */
export function templateCounts(t: PromptTemplate): number[] | null {
  return t.user[0] !== undefined ? null : Object.keys(t.user).map(Number);
}

function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name] ?? "");
}

function cardValues(o: ChoiceOption, letter: string): Record<(typeof CARD_FIELDS)[number], string> {
  const tenths = Math.round(o.reviewScore * 10);
  return {
    letter,
    name: o.name,
    brand: o.chain,
    stars: String(o.stars),
    neighborhood: o.neighborhood,
    room: o.roomType,
    price: formatPrice(o.price),
    price_number: String(o.price),
    free_cancellation: o.freeCancellation ? "Yes" : "No",
    breakfast: o.breakfast ? "Yes" : "No",
    rating: `${Math.floor(tenths / 10)}.${tenths % 10}`,
    reviews: thousands(o.reviewCount),
    amenities: (o.amenities ?? []).join("; "),
  };
}

/**
 * The messages of one ask in the template's wording: its system message (if any), then the user
 * message with the cards in display order, lettered A, B, …. Throws UserError when the template has
 * no user message for this many options.
 */
export function renderTemplateMessages(
  t: PromptTemplate,
  options: readonly ChoiceOption[],
  variant: PromptVariant = "plain",
): Message[] {
  const n = options.length;
  const user = t.user[n] ?? t.user[0];
  if (user === undefined)
    throw new UserError(
      `${t.source} has no user message for ${n} options (it has [user ${templateCounts(t)?.join("], [user ")}])`,
      "add a plain [user] section or one for this count",
    );
  const letters = Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
  const cards = options.map((o, i) =>
    t.card === null
      ? textCard(o, letters[i]!, variant === "price-first")
      : fill(t.card, cardValues(o, letters[i]!)),
  );
  const content = fill(user, { cards: cards.join("\n\n"), letters: letterList(letters), count: String(n) });
  const messages: Message[] = [];
  if (t.system !== null && t.system !== "") messages.push({ role: "system", content: t.system });
  messages.push({ role: "user", content });
  return messages;
}

/** The re-ask after an unusable answer: the template's [reask], or bazaar's own for the variant. */
export function templateReask(t: PromptTemplate, letters: readonly string[], variant: PromptVariant): string {
  return t.reask === null ? reaskMessage(letters, variant) : fill(t.reask, { letters: letterList(letters) });
}
