import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_ELICIT_DOMAINS,
  ELICIT_DOMAINS,
  parseElicitDomain,
  pathItemId,
  pathOffers,
} from "../../../datasets/elicit/index.ts";
import { InvalidFileError } from "../../../environments/kernel/errors.ts";

const flightsText = readFileSync(new URL("../../../datasets/elicit/flights.json", import.meta.url), "utf8");

// biome-ignore lint/suspicious/noExplicitAny: the tests break the parsed JSON on purpose
function mutated(edit: (d: any) => void): string {
  const d = JSON.parse(flightsText);
  edit(d);
  return JSON.stringify(d);
}

describe("the project's elicit domains", () => {
  it("holds flights, apartments and hotels with the paper's shape", () => {
    expect(Object.keys(DEFAULT_ELICIT_DOMAINS)).toEqual([...ELICIT_DOMAINS]);
    const { flights, apartments, hotels } = DEFAULT_ELICIT_DOMAINS;
    expect([flights.items.length, apartments.items.length, hotels.items.length]).toEqual([9, 8, 3]);
    expect([flights.comparisons.length, apartments.comparisons.length, hotels.comparisons.length]).toEqual([
      6, 6, 4,
    ]);
    for (const d of Object.values(DEFAULT_ELICIT_DOMAINS)) {
      expect(d.utterances).toHaveLength(3);
      expect(new Set(d.utterances.map((u) => u.emphasis))).toEqual(
        new Set(["price", "features", "balanced"]),
      );
      for (const c of d.comparisons) expect(c.via).toHaveLength(2);
    }
    // Hotels: 3 rooms × 3 prices = 9 offers, all used.
    const offers = new Set(
      hotels.comparisons.flatMap((c) => [c.source, c.target, ...c.via].map((o) => `${o.item}@${o.price}`)),
    );
    expect(offers.size).toBe(9);
  });

  it("varies continuous, ordinal and categorical features in every domain", () => {
    for (const d of Object.values(DEFAULT_ELICIT_DOMAINS)) {
      const kinds = new Set(d.features.map((f) => f.kind));
      expect(kinds.has("continuous")).toBe(true);
      expect(kinds.has("categorical")).toBe(true);
      if (d.domain !== "hotels") expect(kinds.has("ordinal")).toBe(true);
      for (const f of d.features) {
        const values = new Set(d.items.map((i) => i.features[f.key]));
        expect(values.size, `${d.domain}.${f.key} varies`).toBeGreaterThan(1);
      }
    }
  });

  it("has two smooth single-feature stress paths each for flights and apartments, k = 2, 8, 16", () => {
    for (const name of ["flights", "apartments"] as const) {
      const d = DEFAULT_ELICIT_DOMAINS[name];
      expect(d.paths).toHaveLength(2);
      for (const p of d.paths) {
        expect(p.steps).toEqual([2, 8, 16]);
        const offers = pathOffers(d, p, 16);
        expect(offers).toHaveLength(17);
        for (let j = 1; j < offers.length; j++) {
          const changed = Object.keys(offers[j]!.item.features).filter(
            (k) => offers[j]!.item.features[k] !== offers[j - 1]!.item.features[k],
          );
          expect(changed).toEqual([p.feature]);
        }
      }
    }
  });
});

describe("path offers", () => {
  const d = DEFAULT_ELICIT_DOMAINS.apartments;
  const path = d.paths[0]!;

  it("share points across k: 1/2 of the k = 2 path is 4/8 and 8/16", () => {
    expect(pathItemId("ap1", 4, 8)).toBe("ap1@1/2");
    const mid2 = pathOffers(d, path, 2)[1]!;
    expect(pathOffers(d, path, 8)[4]).toEqual(mid2);
    expect(pathOffers(d, path, 16)[8]).toEqual(mid2);
    expect(pathOffers(d, path, 16)[0]!.item.id).toBe("ap1@0");
    expect(pathOffers(d, path, 16)[16]!.item.id).toBe("ap1@1");
  });

  it("interpolates the feature (to its grain) and the price (to whole dollars)", () => {
    const offers = pathOffers(d, path, 16);
    expect(offers.map((o) => o.item.features.size)).toEqual(
      Array.from({ length: 17 }, (_, j) => 480 + 25 * j),
    );
    expect(offers[1]!.price).toBe(Math.round(1650 + 600 / 16));
  });
});

describe("invalid domain files get every problem, with where it is", () => {
  // biome-ignore lint/suspicious/noExplicitAny: the tests break the parsed JSON on purpose
  const cases: [string, (d: any) => void, RegExp][] = [
    [
      "unknown item",
      (d) => (d.comparisons[0].via[0].item = "f99"),
      /comparisons\[0\] \(fc1\): unknown item "f99"/,
    ],
    [
      "bad level",
      (d) => (d.items[0].features.stops = "3 stops"),
      /items\[0\] \(f1\): feature "stops" is "3 stops"/,
    ],
    ["missing feature", (d) => delete d.items[1].features.bag, /items\[1\] \(f2\): missing feature "bag"/],
    [
      "repeated offer pair",
      (d) => d.comparisons.push({ ...d.comparisons[0], id: "fc7" }),
      /offer pair f2@279>f1@389 already belongs/,
    ],
    ["path that does not move", (d) => (d.paths[0].to = d.paths[0].from), /does not move/],
    [
      "path on a categorical feature",
      (d) => (d.paths[0].feature = "airline"),
      /must be a continuous feature/,
    ],
    ["unknown path utterance", (d) => (d.pathUtterance = "nobody"), /unknown utterance "nobody"/],
    ["schema", (d) => (d.items[0].id = 7), /items\.0\.id/],
  ];
  for (const [name, edit, message] of cases) {
    it(name, () => {
      let error: unknown;
      try {
        parseElicitDomain(mutated(edit), "flights.json");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidFileError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it("not JSON", () => {
    expect(() => parseElicitDomain("{", "x.json")).toThrow(/x\.json is not valid.*not JSON/s);
  });
});
