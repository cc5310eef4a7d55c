/**
 * Strict reading of a catalog-choice answer. A reply counts only when it names exactly one slot
 * unambiguously; anything else is a non-response with a short, stable reason a researcher can group
 * by. Unlike the PriceBench reference's last fallback (the first bare A/B anywhere, so "Based on…"
 * became B), a letter that merely occurs in prose never counts as a choice.
 *
 * Accepted (letters A, B):
 * - the letter alone, any case, wrapped in whitespace, quotes (straight, curly, guillemets),
 *   backticks, markdown emphasis, brackets or a list/quote marker, with an optional trailing period
 *   or "!": "b", "B.", "**B**", "(B)", "“B”", "- B";
 * - a reply that starts with such a letter followed by a separator (. : ; , ! ) ] - – — or a line
 *   break) and then an explanation: "B. It is cheaper", "B) because…", "B\n\nIt has breakfast";
 * - a cue phrase naming a letter: "Option B", "option b", "Options: B", "Answer: B", "The answer is
 *   B", "My choice: B", `{"choice": "B"}`, "I choose Option B", "B is my answer";
 * - a sentence whose subject is the choice and whose predicate is the letter: "The best option for a
 *   one-night stay in New York City is B:", "My choice for you is A.", "The option I would book is
 *   B.", and the other way round, "B is the better choice". The subject names a choice ("the best
 *   option", "the better choice", "my pick", "my recommendation", "the option I'd choose"), not a
 *   fact ("the option with the higher price is B" says which is dearer, not which to book), and the
 *   letter ends the clause ("is A nice hotel" is an article).
 * In every accepted reply all letters named anywhere must be the same one: cue letters, the leading
 * letter, and stand-alone letters in the prose. So "B. Option A costs more" and "Option A or B" are
 * ambiguous. A stand-alone capital counts as naming a slot even when it is the article "A" — strict
 * by design: "A nice hotel, but Option B" is ambiguous. Lower-case "a" before a word is an article and
 * "I"/"i" before a word a pronoun; neither counts. "I'd", "A-list", "e.g." are words, not letters.
 *
 * Rejected, with reason: "empty"; "refusal"; "out of range: C"; "ambiguous: names A and B";
 * "uncued letter: B" (one letter in prose without a cue, e.g. "I would pick B"); "undecided"
 * ("Both are fine"); "no letter found" ("Based on the price…"); "unfinished reasoning" (an unclosed
 * <think> block); and, for `cot`, "no answer line". Closed <think>…</think> blocks (reasoning
 * models) are dropped before judging: they are reasoning, not the answer.
 *
 * `cot`: only the last "Answer: X" line counts ("Final answer:", "**Answer:**", "Answer is" too);
 * the reasoning above may name any options. On that line the line itself is the cue, so exactly one
 * letter must be named there (or on the lines below it when the line ends at the colon). A reply that
 * is only a bare letter is accepted too. Other variants have no such exception: a reasoned reply that
 * names two options is ambiguous even if it ends with "Answer: B".
 */
import type { PromptVariant } from "./types.ts";

export type ChoiceVerdict = { ok: true; slot: number } | { ok: false; reason: string };

const OPEN = "\\s\"'`*_~#>“”‘’«»„(\\[{<•-";
const CLOSE = "\\s\"'`*_~“”‘’«»)\\]}>";

const BARE = new RegExp("^[" + OPEN + "]*([A-Za-z])[" + CLOSE + "]*[.!]?[" + CLOSE + "]*$");
const LEAD = new RegExp(
  "^[" + OPEN + "]*([A-Za-z])[*_`\"'”’»]*(?:[)\\]}>]|\\.(?![A-Za-z])|[:;,!]|[ \\t]*[-–—]|[ \\t]*\\n)",
);
// A cue word, then up to a few non-word characters (": ", " **", "\": \""), optionally "is", then a
// single letter that is not the start of a word ("the option I'd book" is the pronoun).
const CUE =
  /\b(options?|answer|choice)\b(?:[^A-Za-z0-9\n]{0,6}?\bis\b)?[^A-Za-z0-9\n]{0,6}?([A-Za-z])(?![A-Za-z0-9]|['’](?:d|m|ve|ll|re)\b)/gi;
// Words that make "the … option" a choice rather than a description ("the best option", not "the
// option with the higher price"), and the nouns they qualify.
const CHOOSING =
  "(?:best|better|ideal|preferred|recommended|right|top|optimal|wisest|smartest|most\\s+suitable|most\\s+sensible)";
const CHOSEN = "(?:option|choice|pick|hotel|selection|bet)";
// The subject of a sentence that names the choice: "the best option", "the better overall choice",
// "my choice", "my top pick", "my recommendation", "the option I'd book".
const CHOICE_SUBJECT =
  "(?:(?:the|my|our)\\s+(?:(?:single|very|overall|clear|obvious)\\s+)?" +
  CHOOSING +
  "\\s+(?:[A-Za-z-]+\\s+)?" +
  CHOSEN +
  "|my\\s+(?:final\\s+|top\\s+|own\\s+)?(?:choice|pick|selection|recommendation)" +
  "|the\\s+(?:option|hotel|one)\\s+I(?:['’]d|\\s+would)?\\s+(?:choose|pick|select|book|recommend))";
// The letter ends its clause: the end, punctuation, a line break, or a dash or parenthesis before
// an explanation. "is A nice hotel" is the article, not a slot.
const CLAUSE_END = "[*_`\"'”’»)\\]]*(?=\\s*$|\\s*[.:;,!?\\n]|\\s+[-–—(])";
// "The best option for a one-night stay is B:": the subject, words up to its verb within the same
// sentence (no sentence end, no line break), the verb, and the letter.
const SUBJECT_CUE = new RegExp(
  "\\b" +
    CHOICE_SUBJECT +
    "\\b(?:[^.!?\\n]|\\.(?=\\w)){0,80}?\\s+(?:is|would\\s+be|will\\s+be|remains)\\s+" +
    "(?:(?:clearly|definitely|still|therefore|thus)\\s+)?(?:(?:option|hotel)\\s+)?" +
    "[*_`\"'“”‘’«(\\[]*([A-Za-z])(?![A-Za-z0-9])" +
    CLAUSE_END,
  "gi",
);
// "B is my answer", "B is the better choice": the cue after the letter.
const TRAILING_CUE = new RegExp(
  "(?<![A-Za-z0-9'’])([A-Za-z])[*_`\"'”’)\\]]*\\s+is\\s+(?:my\\s+(?:final\\s+)?(?:answer|choice|pick)|the\\s+" +
    CHOOSING +
    "\\s+" +
    CHOSEN +
    ")\\b",
  "gi",
);
const STANDALONE = /(?<![A-Za-z0-9'’])([A-Za-z])(?![A-Za-z0-9]|['’](?:d|m|ve|ll|re)\b|[.-][A-Za-z])/g;
// Followed by a space and then a word, number or price rather than a capital or punctuation.
const BEFORE_WORD = /^\s+[^\sA-Z.,;:!?)\]}]/;
const ANSWER_LINE = /^[\s*_#>`~-]*(?:(?:the|my)\s+)?(?:final\s+)?answer[\s*_`]*(?::|=|\bis\b)/i;

const REFUSAL = new RegExp(
  "\\bI(?:\\s+can(?:no|['’])t|\\s+cannot|\\s+am\\s+(?:not\\s+able|unable)|['’]m\\s+(?:not\\s+able|unable)" +
    "|\\s+won['’]t|\\s+will\\s+not)\\s+(?:to\\s+)?(?:make|choose|pick|select|book|decide|help|provide|assist" +
    "|recommend|express|determine|comply)" +
    "|\\bas\\s+an\\s+ai\\b|\\bI\\s+(?:do\\s+not|don['’]t)\\s+have\\s+(?:personal\\s+)?(?:preferences|opinions" +
    "|the\\s+ability)|\\bI(?:['’]m|\\s+am)\\s+sorry\\b|\\bI\\s+apologi[sz]e\\b",
  "i",
);
const UNDECIDED = /\b(?:both|either|neither|none|no\s+preference|equally)\b/i;
const DECORATION = /[\s*_`"'“”‘’]/g;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;

function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(/\r\n?/g, "\n")
    .replace(THINK_BLOCK, "")
    .trim();
}

/** Lower-case "a" before a word is the article and "I"/"i" before a word the pronoun. */
function isWordNotLetter(letter: string, after: string, articleCounts: boolean): boolean {
  if (letter === "I" || letter === "i") return BEFORE_WORD.test(after);
  return letter === "a" && !articleCounts && BEFORE_WORD.test(after);
}

function letterVerdict(letter: string, letters: readonly string[]): ChoiceVerdict {
  const upper = letter.toUpperCase();
  const slot = letters.indexOf(upper);
  return slot >= 0 ? { ok: true, slot } : { ok: false, reason: "out of range: " + upper };
}

function ambiguous(named: ReadonlySet<string>): ChoiceVerdict {
  const sorted = [...named].sort();
  const last = sorted.pop() as string;
  return { ok: false, reason: "ambiguous: names " + sorted.join(", ") + " and " + last };
}

function cueLetters(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(CUE)) {
    const word = (m[1] as string).toLowerCase();
    const letter = m[2] as string;
    const after = text.slice((m.index ?? 0) + m[0].length);
    if (isWordNotLetter(letter, after, word.startsWith("option"))) continue;
    found.add(letter.toUpperCase());
  }
  for (const m of text.matchAll(TRAILING_CUE)) found.add((m[1] as string).toUpperCase());
  for (const m of text.matchAll(SUBJECT_CUE)) found.add((m[1] as string).toUpperCase());
  return found;
}

/** Letters of the answer set that stand alone in the text (any case, articles/pronouns aside). */
function proseLetters(text: string, letters: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(STANDALONE)) {
    const letter = m[1] as string;
    if (isWordNotLetter(letter, text.slice((m.index ?? 0) + 1), false)) continue;
    const upper = letter.toUpperCase();
    if (letters.includes(upper)) found.add(upper);
  }
  return found;
}

/** The rules shared by every variant; `cued` says the text already follows an "Answer:" cue. */
function judge(text: string, letters: readonly string[], cued: boolean): ChoiceVerdict {
  if (text === "") return { ok: false, reason: "empty" };
  const bare = BARE.exec(text);
  if (bare) return letterVerdict(bare[1] as string, letters);
  if (REFUSAL.test(text)) return { ok: false, reason: "refusal" };

  const cues = cueLetters(text);
  const prose = proseLetters(text, letters);
  const leadMatch = LEAD.exec(text);
  const lead = leadMatch ? (leadMatch[1] as string).toUpperCase() : null;
  const leadInRange = lead !== null && letters.includes(lead);

  const named = new Set<string>([...cues, ...prose]);
  if (leadInRange) named.add(lead);
  if (named.size >= 2) return ambiguous(named);
  const only = named.values().next().value;
  if (cues.size === 1 || leadInRange || (cued && only !== undefined))
    return letterVerdict(only as string, letters);
  // An out-of-range leading "I" ("I, for one, …") is the pronoun, not a slot.
  if (lead !== null && lead !== "I" && only === undefined) return letterVerdict(lead, letters);
  if (only !== undefined) return { ok: false, reason: "uncued letter: " + only };
  if (UNDECIDED.test(text)) return { ok: false, reason: "undecided" };
  return { ok: false, reason: "no letter found" };
}

function judgeChainOfThought(text: string, letters: readonly string[]): ChoiceVerdict {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const m = ANSWER_LINE.exec(line);
    if (!m) continue;
    let rest = line.slice(m[0].length).trim();
    if (rest.replace(DECORATION, "") === "") {
      rest = lines
        .slice(i + 1)
        .join("\n")
        .trim();
    }
    return judge(rest, letters, true);
  }
  if (BARE.test(text)) return judge(text, letters, false);
  if (REFUSAL.test(text)) return { ok: false, reason: "refusal" };
  return { ok: false, reason: "no answer line" };
}

/**
 * The display slot a reply chooses (0 for A), or why it cannot be used. `letters` are the slot
 * letters shown, in display order; `variant` selects the `cot` rule (only the last "Answer:" line).
 */
export function parseChoiceAnswer(
  text: string,
  letters: readonly string[],
  variant?: PromptVariant,
): ChoiceVerdict {
  const clean = normalize(text);
  if (clean === "") return { ok: false, reason: "empty" };
  if (/<think>/i.test(clean)) return { ok: false, reason: "unfinished reasoning" };
  return variant === "cot" ? judgeChainOfThought(clean, letters) : judge(clean, letters, false);
}
