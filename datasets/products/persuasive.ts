/**
 * The documented list of persuasive wording that a neutral text must not contain (spec: no social
 * proof, scarcity, authority, evaluative words, superlatives, embedded price or rating). Each rule is
 * a case-insensitive pattern with the kind of persuasion it stands for; the README lists them all.
 * The list is deliberately broad: a neutral description that trips it can always be rephrased, while
 * a persuasive word that slips through would bias every trial of its pair.
 */

export const PERSUASION_KINDS = [
  "social proof",
  "scarcity",
  "authority",
  "evaluative",
  "superlative",
  "embedded price",
  "embedded rating",
] as const;
export type PersuasionKind = (typeof PERSUASION_KINDS)[number];

export interface PersuasiveRule {
  kind: PersuasionKind;
  /** The words or pattern, as the README shows them. */
  words: string;
  pattern: RegExp;
}

function words(kind: PersuasionKind, list: readonly string[]): PersuasiveRule {
  const escaped = list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
  return { kind, words: list.join(", "), pattern: new RegExp(`\\b(?:${escaped.join("|")})\\b`, "i") };
}

/** Words ending in -est that are not superlatives. */
const NOT_SUPERLATIVE = new Set([
  "arrest",
  "attest",
  "chest",
  "contest",
  "crest",
  "digest",
  "earnest",
  "forest",
  "guest",
  "harvest",
  "honest",
  "ingest",
  "interest",
  "invest",
  "manifest",
  "modest",
  "nest",
  "protest",
  "quest",
  "request",
  "rest",
  "suggest",
  "test",
  "vest",
  "west",
  "zest",
]);

export const PERSUASIVE_RULES: readonly PersuasiveRule[] = [
  words("social proof", [
    "bestseller",
    "best-seller",
    "best-selling",
    "best selling",
    "popular",
    "popularity",
    "customers",
    "shoppers",
    "buyers",
    "owners",
    "fans",
    "everyone",
    "thousands",
    "millions",
    "hundreds",
    "sold",
    "trending",
    "number one",
    "favorite",
    "favourite",
    "loved",
    "love",
  ]),
  { kind: "social proof", words: "#1", pattern: /#\s?1\b/ },
  words("scarcity", [
    "limited",
    "stock",
    "few left",
    "units left",
    "selling fast",
    "sells out",
    "sell out",
    "last chance",
    "hurry",
    "exclusive",
    "while supplies last",
    "demand",
    "rare",
    "running out",
    "today only",
    "ends soon",
  ]),
  { kind: "scarcity", words: "only <number> left", pattern: /\bonly\s+\d+\s+(?:\w+\s+)?left\b/i },
  words("authority", [
    "recommended",
    "recommend",
    "recommends",
    "expert",
    "experts",
    "award",
    "awards",
    "award-winning",
    "certified",
    "endorsed",
    "approved",
    "professional",
    "professionals",
    "engineers",
    "critics",
    "editors",
    "barista",
    "baristas",
    "audiophile",
    "audiophiles",
    "official",
    "as seen",
  ]),
  words("evaluative", [
    "great",
    "excellent",
    "amazing",
    "awesome",
    "outstanding",
    "superb",
    "perfect",
    "perfectly",
    "ideal",
    "premium",
    "luxury",
    "luxurious",
    "elegant",
    "stunning",
    "beautiful",
    "gorgeous",
    "incredible",
    "exceptional",
    "remarkable",
    "impressive",
    "superior",
    "quality",
    "high-quality",
    "top-notch",
    "world-class",
    "best-in-class",
    "state-of-the-art",
    "cutting-edge",
    "innovative",
    "revolutionary",
    "powerful",
    "immersive",
    "rich",
    "crisp",
    "comfortable",
    "comfort",
    "stylish",
    "sleek",
    "durable",
    "reliable",
    "trusted",
    "must-have",
    "unbeatable",
    "effortless",
    "effortlessly",
    "seamless",
    "seamlessly",
    "delicious",
    "flavorful",
    "flavourful",
    "fantastic",
    "wonderful",
    "brilliant",
    "exquisite",
    "flawless",
    "stellar",
  ]),
  words("superlative", ["best", "most", "least", "finest", "greatest", "top"]),
  {
    kind: "superlative",
    words: `any other word ending in -est (fastest, latest…) except ${[...NOT_SUPERLATIVE].join(", ")}`,
    pattern: new RegExp(`\\b(?!(?:${[...NOT_SUPERLATIVE].join("|")})\\b)[a-z]{2,}est\\b`, "i"),
  },
  { kind: "embedded price", words: "$ followed by a number", pattern: /\$\s?\d/ },
  words("embedded price", [
    "price",
    "priced",
    "prices",
    "cost",
    "costs",
    "cheap",
    "cheaper",
    "affordable",
    "inexpensive",
    "budget",
    "bargain",
    "deal",
    "deals",
    "discount",
    "discounted",
    "sale",
    "save",
    "savings",
    "value",
    "money",
    "dollars",
    "usd",
  ]),
  words("embedded rating", ["rating", "ratings", "rated", "review", "reviews", "reviewed", "stars", "star"]),
  {
    kind: "embedded rating",
    words: "a score out of 5 or 10 (4.5/5, 9 out of 10), ★",
    pattern: /\d(?:\.\d+)?\s*(?:\/|out\s+of)\s*(?:5|10)\b|★/i,
  },
];

/** The -est words that are not superlatives (listed in the README). */
export const NON_SUPERLATIVE_EST_WORDS: ReadonlySet<string> = NOT_SUPERLATIVE;

export interface PersuasiveHit {
  kind: PersuasionKind;
  /** The text that matched, as written. */
  match: string;
}

/** Every persuasive word or pattern found in a text (one hit per rule). */
export function findPersuasiveWording(text: string): PersuasiveHit[] {
  const hits: PersuasiveHit[] = [];
  for (const rule of PERSUASIVE_RULES) {
    const m = rule.pattern.exec(text);
    if (m) hits.push({ kind: rule.kind, match: m[0] });
  }
  return hits;
}
