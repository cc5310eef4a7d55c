import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRODUCT_PAIRS,
  loadCueLibrary,
  loadProductPairs,
  parseCueLibrary,
  parseProductPairs,
} from "../../../datasets/products/index.ts";
import { InvalidFileError, UserError } from "../../../environments/kernel/errors.ts";
import { tempDir } from "../../helpers/cli.ts";

function thrown(f: () => unknown): InvalidFileError {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidFileError) return e;
    throw e;
  }
  throw new Error("expected an InvalidFileError");
}

describe("loading pairs and cues", () => {
  it("reads an array or an object holding it, and round-trips the shipped pairs", () => {
    const text = JSON.stringify(DEFAULT_PRODUCT_PAIRS);
    expect(parseProductPairs(text, "p.json")).toEqual(DEFAULT_PRODUCT_PAIRS);
    expect(
      parseProductPairs(JSON.stringify({ pairs: DEFAULT_PRODUCT_PAIRS.slice(0, 2) }), "p.json"),
    ).toHaveLength(2);
    const dir = tempDir();
    const file = path.join(dir, "cues.json");
    writeFileSync(
      file,
      JSON.stringify([{ name: "loud", family: "social-proof", cue: "Lots of shoppers bought it." }]),
    );
    expect(loadCueLibrary(file)).toEqual([
      {
        name: "loud",
        version: 1,
        family: "social-proof",
        intensity: null,
        role: "condition",
        cue: "Lots of shoppers bought it.",
        other: null,
        note: "",
      },
    ]);
  });

  it("reports every schema problem with its file, entry and field", () => {
    const bad = [{ ...DEFAULT_PRODUCT_PAIRS[0], pairId: "Bad Id" }, { pairId: "x" }];
    const e = thrown(() => parseProductPairs(JSON.stringify(bad), "mine.json"));
    expect(e.message).toMatch(/^mine\.json is not valid/);
    expect(e.problems.some((p) => p.row === 0 && p.field === "pairId")).toBe(true);
    expect(e.problems.some((p) => p.row === 1 && p.field === "category")).toBe(true);
    expect(e.message).toMatch(/mine\.json, row 0, pairId: pairId must be lower-case words/);
  });

  it("runs the structural checker on user pairs", () => {
    const p = structuredClone(DEFAULT_PRODUCT_PAIRS[0]);
    if (!p) throw new Error("no pairs");
    p.products[0].description += " The best earbuds we make.";
    const e = thrown(() => parseProductPairs(JSON.stringify([p]), "mine.json"));
    expect(
      e.problems.some((x) => x.field === "products.0.description" && /superlative: "best"/.test(x.message)),
    ).toBe(true);
  });

  it("explains unreadable files", () => {
    expect(() => loadProductPairs("/no/such/pairs.json")).toThrow(UserError);
    expect(() => loadProductPairs("/no/such/pairs.json")).toThrow(/does not exist/);
    expect(thrown(() => parseProductPairs("{ nope", "x.json")).message).toMatch(/not valid JSON/);
    expect(thrown(() => parseProductPairs('{"cues": []}', "x.json")).message).toMatch(/"pairs" array/);
    expect(thrown(() => parseCueLibrary("[]", "c.json")).message).toMatch(/no cues/);
  });
});
