import { describe, expect, it } from "vitest";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import { buildCueTasks, CUE_GRID, type CueTask } from "../../../environments/cue/index.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

const pairs = DEFAULT_PRODUCT_PAIRS;
const library = DEFAULT_CUE_LIBRARY;

function main(conditions: string[], extra: object = {}): CueTask[] {
  return buildCueTasks({ conditions, blocks: ["main"], ...extra }, pairs, library);
}

describe("buildCueTasks", () => {
  it("crosses condition × pair × premium × the four target × position states", () => {
    const tasks = main(["scarcity", "price-only"]);
    expect(tasks).toHaveLength(2 * 12 * CUE_GRID.length * 4);
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(tasks.length);
    const cell = tasks.filter(
      (t) => t.condition === "scarcity" && t.pairId === "hp-sport" && t.premium === 0.12,
    );
    expect(cell.map((t) => `${t.cueTarget}${t.cuedFirst ? 1 : 2}`).sort()).toEqual(["A1", "A2", "B1", "B2"]);
  });

  it("raises only the cued product's price and appends the cue to it alone", () => {
    const pair = pairs.find((p) => p.pairId === "cm-espresso")!;
    const [t] = main(["scarcity"]).filter(
      (x) => x.pairId === "cm-espresso" && x.premium === 0.18 && x.cueTarget === "B" && !x.cuedFirst,
    );
    if (!t) throw new Error("no task");
    const [shownFirst, shownSecond] = t.options;
    expect(shownFirst.cued).toBe(false);
    expect(shownFirst.product).toBe("A");
    expect(shownFirst.price).toBe(249.99);
    expect(shownFirst.description).toBe(pair.products[0].description);
    expect(shownSecond.cued).toBe(true);
    expect(shownSecond.price).toBe(294.99);
    expect(shownSecond.description).toBe(`${pair.products[1].description} Only 3 units remain in stock.`);
    expect(t.referencePrice).toBe(249.99);
    expect(t.oneSided).toBe(true);
  });

  it("two-sided conditions put the other sentence on the other product; price-only adds none", () => {
    const [framing] = main(["framing-gain-loss"]).filter((t) => t.category === "headphones" && t.cuedFirst);
    expect(framing?.options[0].description).toMatch(/keeps 80% of its original capacity\.$/);
    expect(framing?.options[1].description).toMatch(/loses 20% of its original capacity\.$/);
    expect(framing?.oneSided).toBe(false);
    const [rating] = main(["reformat-rating"]).filter((t) => t.pairId === "hp-inear-anc" && t.cuedFirst);
    expect(rating?.options[0].description).toMatch(/works out to 8\.8 out of 10\.$/);
    expect(rating?.options[1].description).toMatch(/works out to 4\.4 out of 5\.$/);
    for (const t of main(["price-only"])) {
      expect(t.options[0].description).toBe(
        pairs.find((p) => p.pairId === t.pairId)?.products[t.options[0].product === "A" ? 0 : 1].description,
      );
      expect(t.oneSided).toBe(false);
    }
  });

  it("builds the 2³ additivity factorial with a constant sentence count on the extended grid", () => {
    const tasks = buildCueTasks({ blocks: ["additivity"], categories: ["headphones"] }, pairs, library);
    const cells = [...new Set(tasks.map((t) => t.condition))].sort();
    expect(cells).toEqual(
      ["000", "001", "010", "011", "100", "101", "110", "111"].map((b) => `additivity-${b}`),
    );
    expect(Math.max(...tasks.map((t) => t.premium))).toBe(0.6);
    for (const t of tasks) {
      for (const o of t.options) {
        const base = pairs.find((p) => p.pairId === t.pairId)!.products[o.product === "A" ? 0 : 1]
          .description;
        const added = o.description.slice(base.length + 1);
        expect(added.split(/(?<=\.) /)).toHaveLength(3);
      }
    }
    const t111 = tasks.find((t) => t.condition === "additivity-111" && t.cuedFirst)!;
    expect(t111.factors).toEqual({ "social-proof-strong": true, authority: true, scarcity: true });
    expect(t111.options[0].description).toMatch(
      /buy it again\. An independent panel of audio engineers recommends this model\. Only 3 units remain in stock\.$/,
    );
    expect(t111.options[1].description).toMatch(
      /packing paper\. The outer packaging carries a printed batch number and date\. The box shows a serial number\.$/,
    );
  });

  it("runs the paraphrases under instructions 1–3, or 0–3 without the main block", () => {
    const both = buildCueTasks(
      { blocks: ["main", "paraphrases"], conditions: ["neutral"], paraphrases: { conditions: ["neutral"] } },
      pairs,
      library,
    );
    expect(
      [...new Set(both.filter((t) => t.block === "paraphrases").map((t) => t.instruction))].sort(),
    ).toEqual([1, 2, 3]);
    const alone = buildCueTasks(
      { blocks: ["paraphrases"], paraphrases: { conditions: ["neutral"] } },
      pairs,
      library,
    );
    expect([...new Set(alone.map((t) => t.instruction))].sort()).toEqual([0, 1, 2, 3]);
  });

  it("is a pure function of the design: the seed orders the tasks and nothing else", () => {
    const a = main(["vacuous"], { seed: 5 });
    expect(main(["vacuous"], { seed: 5 })).toEqual(a);
    const b = main(["vacuous"], { seed: 6 });
    expect(b.map((t) => t.taskId)).not.toEqual(a.map((t) => t.taskId));
    const strip = (ts: CueTask[]) => ts.map(({ seed: _s, ...rest }) => JSON.stringify(rest)).sort();
    expect(strip(b)).toEqual(strip(a));
  });

  it("refuses what it cannot build, saying what exists", () => {
    expect(() => main(["no-such-cue"])).toThrow(UserError);
    expect(() => main(["no-such-cue"])).toThrow(/condition "no-such-cue" is not in the cue library/);
    expect(() => buildCueTasks({ categories: ["toasters"] }, pairs, library)).toThrow(
      /no product pairs in category "toasters"/,
    );
    expect(() =>
      buildCueTasks(
        { blocks: ["additivity"], additivity: { cues: ["scarcity", "neutral", "vacuous"] } },
        pairs,
        library,
      ),
    ).toThrow(/additivity filler "filler-neutral"/);
    expect(() => buildCueTasks({ grid: [0.02, 0.04] }, pairs, library)).toThrow(/start at 0/);
    expect(() => buildCueTasks({ nPerCell: 6 }, pairs, library)).toThrow(/multiple of 4/);
  });
});
