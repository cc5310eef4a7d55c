import { describe, expect, it } from "vitest";
import {
  type CueCondition,
  checkLibrary,
  checkPairs,
  checkStimuli,
  DEFAULT_PRODUCT_PAIRS,
  findPersuasiveWording,
  PERSUASION_KINDS,
  type ProductPair,
} from "../../../datasets/products/index.ts";

const base = DEFAULT_PRODUCT_PAIRS[0] as ProductPair;

function pair(edit: (p: ProductPair) => void): ProductPair {
  const p = structuredClone(base);
  edit(p);
  return p;
}

function cue(c: Partial<CueCondition>): CueCondition {
  return {
    name: "x",
    version: 1,
    family: "social-proof",
    intensity: null,
    role: "condition",
    cue: "Many shoppers bought it.",
    other: null,
    note: "",
    ...c,
  };
}

describe("checkPairs", () => {
  it("rejects a pair whose price, rating, rating count or specs differ, naming row and field", () => {
    const problems = checkPairs(
      [
        base,
        pair((p) => {
          p.pairId = "b";
          p.products[1].price = 89.99;
          p.products[1].rating = 4.1;
          p.products[1].ratingCount = 12;
          p.products[1].specs = { ...p.products[1].specs, Battery: "9 hours" };
        }),
      ],
      "my-pairs.json",
    );
    expect(problems.map((p) => [p.row, p.field])).toEqual([
      [1, "products.1.price"],
      [1, "products.1.rating"],
      [1, "products.1.ratingCount"],
      [1, "products.1.specs.Battery"],
    ]);
    expect(problems[0]?.file).toBe("my-pairs.json");
    expect(problems[0]?.message).toMatch(/89\.99 differs from products\.0 \(84\.99\)/);
  });

  it("rejects descriptions more than 15% apart in length", () => {
    const long = pair((p) => {
      p.products[1].description = `${p.products[1].description} It also has a spare set of tips and a cleaning cloth in a pouch.`;
    });
    const [problem] = checkPairs([long], "f");
    expect(problem?.field).toBe("products.1.description");
    expect(problem?.message).toMatch(/42 and 53 words; the longer may have at most 15% more/);
  });

  it("rejects persuasive wording of every kind in a neutral description", () => {
    const cases: [string, string][] = [
      ["social proof", "Thousands of shoppers use these earbuds."],
      ["scarcity", "Only 3 left at the warehouse."],
      ["authority", "Recommended by sound technicians."],
      ["evaluative", "A great pair of earbuds."],
      ["superlative", "The quietest earbuds in the range."],
      ["embedded price", "Now $20 off."],
      ["embedded rating", "Rated 4.5/5 by listeners."],
    ];
    for (const [kind, sentence] of cases) {
      const hits = findPersuasiveWording(sentence);
      expect(
        hits.map((h) => h.kind),
        sentence,
      ).toContain(kind);
      const p = pair((x) => {
        x.products[0].description = `${x.products[0].description.split(". ")[0]}. ${sentence}`;
        x.products[1].description = x.products[0].description.replace("True", "Wireless");
      });
      expect(
        checkPairs([p], "f").some((x) => x.message.includes(kind)),
        kind,
      ).toBe(true);
    }
    expect([...PERSUASION_KINDS].sort()).toEqual(
      [
        "social proof",
        "scarcity",
        "authority",
        "evaluative",
        "superlative",
        "embedded price",
        "embedded rating",
      ].sort(),
    );
  });

  it("accepts neutral words that merely look like the list (test, interest, left and right)", () => {
    expect(findPersuasiveWording("After a test, the left and right earbuds rest in the case.")).toEqual([]);
  });

  it("rejects duplicate pair ids and identical product names", () => {
    const twin = pair((p) => {
      p.products[1].name = p.products[0].name;
    });
    const problems = checkPairs([base, twin], "f");
    expect(problems.map((p) => p.field)).toEqual(["pairId", "products.1.name"]);
  });
});

describe("checkLibrary", () => {
  it("accepts a plain one-sided cue", () => {
    expect(checkLibrary([cue({})], "c")).toEqual([]);
  });

  it("rejects two sentences, unknown placeholders, reserved and duplicate names", () => {
    const problems = checkLibrary(
      [
        cue({ name: "a", cue: "It sells well. People like it." }),
        cue({ name: "b", cue: "Rated {stars} by owners." }),
        cue({ name: "price-only" }),
        cue({ name: "a" }),
      ],
      "cues.json",
    );
    expect(problems.map((p) => [p.row, p.field])).toEqual([
      [0, "cue"],
      [1, "cue"],
      [2, "name"],
      [3, "name"],
    ]);
    expect(problems[0]?.message).toMatch(/single sentence/);
    expect(problems[1]?.message).toMatch(/unknown placeholder \{stars\}/);
  });

  it("requires neutral sentences to be neutral and a length control to be length-matched", () => {
    const problems = checkLibrary(
      [
        cue({ name: "n", family: "neutral", cue: "A popular model." }),
        cue({
          name: "l",
          family: "control-length",
          cue: "More than ten thousand shoppers have bought this model this year.",
          other: "It ships in a box.",
        }),
      ],
      "c",
    );
    expect(problems.map((p) => [p.row, p.field])).toEqual([
      [0, "cue"],
      [1, "other"],
    ]);
    expect(problems[1]?.message).toMatch(/11 and 5 words/);
  });

  it("checkStimuli: a cue needs a text for every category it runs in", () => {
    const perCategory = cue({ name: "p", cue: { headphones: "Many shoppers bought it." } });
    const problems = checkStimuli(DEFAULT_PRODUCT_PAIRS, [perCategory], "c");
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/no text for category "coffee-machines"/);
  });
});
