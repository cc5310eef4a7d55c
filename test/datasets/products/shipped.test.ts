import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  allCueTexts,
  checkLibrary,
  checkPairs,
  checkStimuli,
  DEFAULT_CUE_LIBRARY,
  DEFAULT_PRODUCT_PAIRS,
  findPersuasiveWording,
  lengthMatched,
  notOneSentence,
  PERSUASIVE_RULES,
  runnableConditions,
} from "../../../datasets/products/index.ts";

describe("the shipped product pairs", () => {
  it("has at least six pairs in each of headphones and coffee machines", () => {
    const count = (c: string) => DEFAULT_PRODUCT_PAIRS.filter((p) => p.category === c).length;
    expect(count("headphones")).toBeGreaterThanOrEqual(6);
    expect(count("coffee-machines")).toBeGreaterThanOrEqual(6);
  });

  it("passes the structural checker: identical facts, matched lengths, neutral wording", () => {
    expect(checkPairs(DEFAULT_PRODUCT_PAIRS, "pairs.json")).toEqual([]);
    for (const p of DEFAULT_PRODUCT_PAIRS) {
      const [a, b] = p.products;
      expect(a.price).toBe(b.price);
      expect(a.specs).toEqual(b.specs);
      expect(lengthMatched(a.description, b.description)).toBe(true);
      expect(findPersuasiveWording(a.description)).toEqual([]);
      expect(findPersuasiveWording(b.description)).toEqual([]);
    }
  });
});

describe("the shipped cue library", () => {
  const byName = new Map(DEFAULT_CUE_LIBRARY.map((c) => [c.name, c]));

  it("covers every family and control of the spec", () => {
    const intensities = DEFAULT_CUE_LIBRARY.filter((c) => c.family === "social-proof").map(
      (c) => c.intensity,
    );
    expect(intensities).toEqual(["weak", "moderate", "strong", "very-strong"]);
    expect(byName.get("scarcity")?.family).toBe("scarcity");
    expect(byName.get("authority")?.intensity).toBe("domain-matched");
    expect(byName.get("authority-off-domain")?.intensity).toBe("off-domain");
    expect(byName.get("framing-gain-loss")?.other).not.toBeNull();
    expect(byName.get("reformat-rating")?.other).not.toBeNull();
    expect(byName.get("reformat-percent")?.other).not.toBeNull();
    expect(byName.get("neutral")?.family).toBe("neutral");
    expect(byName.get("vacuous")?.family).toBe("vacuous");
    expect(byName.get("control-length")?.cue).toEqual(byName.get("social-proof-strong")?.cue);
    expect(byName.get("control-presence")?.cue).toEqual(byName.get("neutral")?.cue);
    expect(runnableConditions(DEFAULT_CUE_LIBRARY).map((c) => c.name)).toContain("price-only");
    for (const c of DEFAULT_CUE_LIBRARY) expect(c.version).toBe(1);
  });

  it("is made of single sentences that pass its own checks against the pairs", () => {
    expect(checkLibrary(DEFAULT_CUE_LIBRARY, "cues.json")).toEqual([]);
    expect(checkStimuli(DEFAULT_PRODUCT_PAIRS, DEFAULT_CUE_LIBRARY, "cues.json")).toEqual([]);
    for (const c of DEFAULT_CUE_LIBRARY) {
      for (const t of [...allCueTexts(c.cue ?? ""), ...(c.other ? allCueTexts(c.other) : [])]) {
        expect(notOneSentence(t), t).toBeNull();
      }
    }
  });

  it("names a domain expert per category, and the off-domain cue swaps them", () => {
    const domain = byName.get("authority")?.cue as Record<string, string>;
    const off = byName.get("authority-off-domain")?.cue as Record<string, string>;
    expect(off.headphones).toBe(domain["coffee-machines"]);
    expect(off["coffee-machines"]).toBe(domain.headphones);
  });

  it("copies no sentence of the reference paper (checked when ../shared is present)", () => {
    const paper = path.resolve(import.meta.dirname, "../../../../shared/papers/cue-price-equivalent.txt");
    if (!existsSync(paper)) {
      console.log(`skipped: ${paper} is absent`);
      return;
    }
    const text = readFileSync(paper, "utf8").toLowerCase();
    const sentences = [
      ...DEFAULT_CUE_LIBRARY.flatMap((c) => [
        ...allCueTexts(c.cue ?? ""),
        ...(c.other ? allCueTexts(c.other) : []),
      ]),
      ...DEFAULT_PRODUCT_PAIRS.flatMap((p) => p.products.map((x) => x.description)),
    ];
    for (const s of sentences) expect(text.includes(s.toLowerCase().replace(/\.$/, "")), s).toBe(false);
  });
});

describe("the README", () => {
  it("lists every persuasive-wording rule exactly as the checker applies it", () => {
    const readme = readFileSync(
      path.resolve(import.meta.dirname, "../../../datasets/products/README.md"),
      "utf8",
    );
    for (const rule of PERSUASIVE_RULES) {
      const words = rule.words.replaceAll("<", "&lt;").replaceAll(">", "&gt;");
      expect(readme, rule.words).toContain(`| ${rule.kind} | ${words} |`);
    }
  });
});
