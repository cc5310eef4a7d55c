import { describe, expect, it } from "vitest";
import { CHAINS } from "../../../datasets/hotels/schema.ts";
import { parseChoiceCards } from "../../../environments/choice/cards.ts";
import { renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import { type ChoiceOption, PROMPT_VARIANTS } from "../../../environments/choice/types.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";

// Free-text pieces chosen to trip a careless reader: colons, quotes, backslashes, braces, card-like
// words, unicode, and surrounding spaces.
const NAME_PARTS = [
  "Pod 51",
  "The Ritz-Carlton New York, NoMad",
  "Hampton Inn Manhattan-35th St/Empire State Bldg",
  "Romer Hell's Kitchen",
  'The "Quote" Inn',
  "Back\\slash Suites",
  "Hotel: Option B",
  "Price per night: $1",
  "{JSON} Lodge",
  "Café Ünïcode 東京",
  "  Spacey Hotel  ",
  "Option",
  "",
];
const NEIGHBORHOODS = [
  "Midtown East",
  "Hell's Kitchen",
  "Williamsburg, Brooklyn",
  "NoMad",
  "Long Island City, Queens",
];
const ROOMS = [
  "King Room (1 king bed)",
  "Queen Pod (1 queen bed)",
  "Suite: 2 rooms",
  'The "Big" Room',
  "Full Bunk Pod",
];

function randomOption(rng: Rng): ChoiceOption {
  const priceKind = rng.int(10);
  const price =
    priceKind < 7
      ? 45 + rng.int(1606)
      : priceKind < 9
        ? Math.round(rng.uniform(10, 5000) * 100) / 100
        : 1 + rng.int(5_000_000);
  const countKind = rng.int(6);
  return {
    hotelId: rng.int(1000),
    name: rng.pick(NAME_PARTS) + (rng.bernoulli(0.3) ? " " + rng.pick(NAME_PARTS) : ""),
    stars: 1 + rng.int(5),
    neighborhood: rng.pick(NEIGHBORHOODS),
    chain: rng.pick(CHAINS),
    price: price > 0 ? price : 1,
    roomType: rng.pick(ROOMS),
    freeCancellation: rng.bernoulli(0.5),
    breakfast: rng.bernoulli(0.5),
    reviewScore: Math.round(rng.uniform(0, 10) * 10) / 10,
    reviewCount: countKind === 0 ? rng.int(2) : countKind === 1 ? rng.int(10_000_000) : rng.int(20_000),
  };
}

const hidden = (o: ChoiceOption): ChoiceOption => ({ ...o, hotelId: -1 });

describe("parseChoiceCards round-trips every rendering", () => {
  it.each(PROMPT_VARIANTS)("%s: 300 seeded random option sets", (variant) => {
    const rng = createRng("cards-round-trip/" + variant);
    for (let trial = 0; trial < 300; trial++) {
      const n = rng.pick([2, 2, 3, 5, 1 + rng.int(26)]);
      const options = Array.from({ length: n }, () => randomOption(rng));
      const user = renderChoiceMessages(options, variant)[1]?.content ?? "";
      const parsed = parseChoiceCards(user);
      if (JSON.stringify(parsed) !== JSON.stringify(options.map(hidden))) {
        expect({ trial, parsed }).toEqual({ trial, parsed: options.map(hidden) });
      }
    }
  });

  it("reads the boundary values back exactly", () => {
    const edge: ChoiceOption = {
      hotelId: 5,
      name: "Hotel: Option A",
      stars: 5,
      neighborhood: "SoHo",
      chain: "Wyndham",
      price: 1_000_000,
      roomType: "Room",
      freeCancellation: true,
      breakfast: false,
      reviewScore: 10,
      reviewCount: 1,
    };
    const low = {
      ...edge,
      stars: 1,
      price: 0.5,
      reviewScore: 0,
      reviewCount: 0,
      chain: "Independent" as const,
    };
    for (const variant of PROMPT_VARIANTS) {
      const user = renderChoiceMessages([edge, low], variant)[1]?.content ?? "";
      expect(parseChoiceCards(user)).toEqual([hidden(edge), hidden(low)]);
    }
  });
});

describe("parseChoiceCards rejects what prompt.ts never writes", () => {
  const base: ChoiceOption = {
    hotelId: 3,
    name: "Pod 51",
    stars: 2,
    neighborhood: "Midtown East",
    chain: "Independent",
    price: 95,
    roomType: "Queen Pod (1 queen bed)",
    freeCancellation: false,
    breakfast: false,
    reviewScore: 7.9,
    reviewCount: 5123,
  };
  const plain = renderChoiceMessages([base, { ...base, price: 120 }], "plain")[1]?.content ?? "";
  const json = renderChoiceMessages([base, { ...base, price: 120 }], "json")[1]?.content ?? "";

  it("reads a well-formed message", () => {
    expect(parseChoiceCards(plain)).toHaveLength(2);
    expect(parseChoiceCards(json)?.[1]?.price).toBe(120);
  });

  it.each([
    ["no cards at all", "Reply with only the letter of your choice (A or B)."],
    ["an empty string", ""],
    ["letters out of order", plain.replace("Option B", "Option C")],
    ["a missing attribute", plain.replace("Stars: 2\n", "")],
    ["a repeated attribute", plain.replace("Stars: 2\n", "Stars: 2\nStars: 3\n")],
    ["an unknown label", plain.replace("Stars: 2", "Rating: 2")],
    ["an unknown brand", plain.replace("Brand: Independent", "Brand: Accor")],
    ["a price without $", plain.replace("$95", "95")],
    ["a price with bad separators", plain.replace("$95", "$1,24,9")],
    ["a rating on another scale", plain.replace("7.9 / 10", "4 / 5")],
    ["a yes/no in another word", plain.replace("Breakfast included: No", "Breakfast included: false")],
    ["stars outside 1–5", plain.replace("Stars: 2", "Stars: 7")],
    ["malformed JSON", json.replace('{"Hotel"', '{Hotel"')],
    ["a JSON number where a string is written", json.replace('"Stars": "2"', '"Stars": 2')],
    ["a JSON record missing a key", json.replace('"Brand": "Independent", ', "")],
    ["a card cut off at the end", plain.slice(0, plain.indexOf("Guest rating", plain.indexOf("Option B")))],
  ])("%s → null", (_what, text) => {
    expect(parseChoiceCards(text)).toBeNull();
  });
});
