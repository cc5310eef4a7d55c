/**
 * Strict reading of a dollar amount from a model's answer. An answer counts only when it states one
 * finite number of US dollars unambiguously; anything else is a non-finite output with a short,
 * stable reason (the part before the first colon) that a researcher can group by. Nothing is guessed:
 * a range is not read as its midpoint, "$40 cheaper" is not read as −40, and "1.250" is not read as
 * either 1.25 or 1,250.
 *
 * Accepted: "450", "$450", "$1,250.50", "USD 450", "450 dollars", "US$ 450", "-$35", "$-35",
 * "−35" (U+2212), "– 35" (a dash before the first number), "+$40", "minus 35", "negative $35",
 * "zero", "$0", decorated forms ("**$450**", "`450`", "30_", "$450."), a short sentence around one
 * number ("I'd pay about $450 for it."), the same number repeated, and a final "Answer: …" line,
 * which alone counts when present. Closed <think>…</think> blocks are dropped first.
 *
 * Rejected (reason): "empty"; "unfinished reasoning"; "range" ("$400–$500", "400 to 500",
 * "between 400 and 500", "$400 or $450"); "several numbers"; "no number"; "number in words"
 * ("fifty dollars"); "infinite" ("any price", "∞"); "not US dollars" ("€40"); "percentage";
 * "magnitude suffix" ("$1.2k", "2 thousand"); "malformed number" ("1,25"); "ambiguous separator"
 * ("1.250"); "ambiguous sign" ("($35)", accounting parentheses); and, for signed answers only,
 * "sign in words" ("$40 cheaper" with no explicit sign).
 */

export type AmountVerdict = { ok: true; value: number } | { ok: false; reason: string };

const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;
const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;
const ANSWER_LINE = /^[\s*_#>`~-]*(?:(?:the|my)\s+)?(?:final\s+)?answer[\s*_`]*(?::|=|\bis\b)/i;
const DECORATION = /[*_`~#]/g;
const OTHER_CURRENCY = /[€£¥₹₩]|\b(?:EUR|GBP|JPY|CAD|AUD|euros?|pounds?|yen)\b/i;
const INFINITE =
  /∞|\binfinit(?:e|y)\b|\bunlimited\b|\bany\s+(?:price|amount)\b|\bno\s+(?:limit|upper\s+bound)\b/i;
const NUMBER_WORDS =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)\b/i;
const ZERO_WORD = /\bzero\b/i;
const NEGATIVE_WORDS =
  /\b(?:cheaper|less|lower|decrease[sd]?|reduc(?:e|ed|tion)|discount(?:ed)?|drop|cut)\b/i;
// A number token: digits with optional comma groups and decimals (validated separately).
const NUMBER = /\d[\d,]*(?:\.\d+)?|\.\d+/g;
const SIGN_BEFORE = /(?:(minus|negative)\s+|([-−–—+])\s*)$/i;
const CURRENCY_BEFORE = /(?:US\$|\$|USD)\s*$/i;
const SUFFIX_AFTER = /^\s*(?:k\b|K\b|thousand\b|million\b|mn\b|bn\b)/;
const RANGE_JOIN = /^\s*(?:[-–—]|to|or|and)\s*$/i;

interface Token {
  value: number;
  start: number;
  end: number;
  /** Where the token's prefix (currency, sign) begins. */
  prefixStart: number;
  explicitSign: boolean;
}

function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(/\r\n?/g, "\n")
    .replace(THINK_BLOCK, "")
    .trim();
}

/** The text after the last "Answer:" line (or the lines below it when the line ends there). */
function answerPart(text: string): string {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const m = ANSWER_LINE.exec(line);
    if (!m) continue;
    const rest = line.slice(m[0].length).trim();
    return rest.replace(DECORATION, "").trim() === ""
      ? lines
          .slice(i + 1)
          .join("\n")
          .trim()
      : rest;
  }
  return text;
}

function fail(reason: string, detail?: string): AmountVerdict {
  return { ok: false, reason: detail === undefined ? reason : `${reason}: ${detail}` };
}

/**
 * Reads the amount an answer states. `signed`: the answer is a signed price change (an offer-pair
 * query), so a negative direction stated only in words is flagged instead of read as positive.
 */
export function parseDollarAmount(text: string, options: { signed?: boolean } = {}): AmountVerdict {
  let clean = normalize(text);
  if (clean === "") return fail("empty");
  if (/<think>/i.test(clean)) return fail("unfinished reasoning");
  clean = answerPart(clean).replace(DECORATION, "").trim();
  if (clean === "") return fail("empty");
  if (INFINITE.test(clean)) return fail("infinite", clean.slice(0, 40));
  if (OTHER_CURRENCY.test(clean)) return fail("not US dollars", clean.slice(0, 40));

  const tokens: Token[] = [];
  for (const m of clean.matchAll(NUMBER)) {
    const raw = m[0];
    const start = m.index ?? 0;
    // A trailing comma or period is punctuation ("$450.", "450, I think").
    const body = raw.replace(/[,.]+$/, "");
    const bodyEnd = start + body.length;
    if (body.includes(",") && !/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(body))
      return fail("malformed number", body);
    if (/^[1-9]\d{0,2}\.\d{3}$/.test(body)) return fail("ambiguous separator", body);
    const after = clean.slice(bodyEnd);
    if (/^\s*%/.test(after)) return fail("percentage", body);
    if (SUFFIX_AFTER.test(after)) return fail("magnitude suffix", clean.slice(start, bodyEnd + 9).trim());
    let before = clean.slice(0, start);
    let prefixStart = start;
    let sign = 1;
    let explicitSign = false;
    const takeSign = () => {
      const s = SIGN_BEFORE.exec(before);
      if (!s) return;
      const mark = s[2];
      // A dash right after another number joins a range ("400-500"), it is not a minus sign.
      if (mark !== undefined && mark !== "+" && /\d\s*$/.test(before.slice(0, s.index))) return;
      sign = s[1] !== undefined || mark !== "+" ? -1 : 1;
      explicitSign = true;
      prefixStart = s.index;
      before = before.slice(0, s.index);
    };
    takeSign();
    const currency = CURRENCY_BEFORE.exec(before);
    if (currency) {
      prefixStart = currency.index;
      before = before.slice(0, currency.index);
      if (!explicitSign) takeSign();
    }
    if (/\(\s*$/.test(before) && /^\s*\)/.test(after) && !explicitSign)
      return fail("ambiguous sign", clean.slice(prefixStart - 1, bodyEnd + 1));
    tokens.push({
      value: sign * Number(body.replaceAll(",", "")),
      start,
      end: bodyEnd,
      prefixStart,
      explicitSign,
    });
  }

  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!;
    const b = tokens[i]!;
    const between = clean.slice(a.end, b.prefixStart);
    const joined = RANGE_JOIN.test(between.replace(/\$|USD|dollars?/gi, ""));
    const dashJoin = /^\s*$/.test(between) && /^[-–—]/.test(clean.slice(b.prefixStart));
    const betweenAnd = /\bbetween\s+(?:US\$|\$|USD)?\s*$/i.test(clean.slice(0, a.prefixStart));
    if (joined || dashJoin || betweenAnd)
      return fail(
        "range",
        `${clean.slice(a.prefixStart, a.end)} to ${clean.slice(b.prefixStart, b.end).trim()}`,
      );
  }

  if (tokens.length === 0) {
    if (ZERO_WORD.test(clean)) return { ok: true, value: 0 };
    if (NUMBER_WORDS.test(clean)) return fail("number in words", clean.slice(0, 40));
    return fail("no number");
  }
  const values = [...new Set(tokens.map((t) => t.value))];
  if (values.length > 1) return fail("several numbers", values.slice(0, 4).join(", "));
  const value = values[0] as number;
  if (!Number.isFinite(value)) return fail("infinite", String(value));
  if (options.signed && value !== 0 && !tokens.some((t) => t.explicitSign) && NEGATIVE_WORDS.test(clean))
    return fail("sign in words", clean.slice(0, 40));
  return { ok: true, value: value === 0 ? 0 : value };
}
