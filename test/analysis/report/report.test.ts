import { describe, expect, it } from "vitest";
import { analyzeChoice } from "../../../analysis/choice/index.ts";
import {
  choiceAgentTable,
  choiceBrandTable,
  choiceFigures,
  choiceReport,
  dollars,
  intervalChart,
  markdownDocument,
  markdownTable,
  percent,
  pValue,
  renderSvg,
  sig,
  stars,
} from "../../../analysis/report/index.ts";
import type { PriceEquivalent } from "../../../analysis/shop/index.ts";
import { peCell } from "../../../analysis/shop/tables.ts";
import { presetAgents, simulateChoiceTrials } from "../choice/simulate.ts";

describe("formatting", () => {
  it("numbers, money, shares and p-values", () => {
    expect(sig(-7.0237)).toBe("-7.02");
    expect(sig(-0.029209)).toBe("-0.0292");
    expect(sig(1234.5)).toBe("1,235");
    expect(sig(null)).toBe("–");
    expect(dollars(247.074)).toBe("$247.07");
    expect(dollars(1071, false)).toBe("$1,071");
    expect(dollars(-3)).toBe("−$3.00");
    expect(percent(0.926)).toBe("92.6%");
    expect(pValue(0.0312)).toBe("0.031");
    expect(pValue(1e-157)).toBe("1.0e-157");
    expect(stars(0.0004)).toBe("***");
    expect(stars(0.2)).toBe("");
  });

  it("money that rounds to nothing has no sign: a price-equivalent interval's end is $0, never −$0", () => {
    expect(dollars(-0.3, false)).toBe("$0");
    expect(dollars(-0, false)).toBe("$0");
    expect(dollars(-0)).toBe("$0.00");
    expect(dollars(-0.004)).toBe("$0.00");
    // Rounded away from zero, the amount is shown and so is its sign.
    expect(dollars(-0.5, false)).toBe("−$1");
    expect(dollars(-0.005)).toBe("−$0.01");
    // The interval the issue showed ("$51 [−$0, $102]"), as the shop's table writes it.
    expect(peCell({ dollars: 51, low: -0.2, high: 102 } as PriceEquivalent)).toBe("$51 [$0, $102]");
  });

  it("markdown tables escape pipes and right-align numeric columns", () => {
    const t = markdownTable(
      ["agent", "β"],
      [
        ["a|b", "1.5"],
        ["c", "-2"],
      ],
    );
    expect(t.split("\n")).toEqual(["| agent | β |", "| --- | ---: |", "| a\\|b | 1.5 |", "| c | -2 |"]);
    expect(markdownDocument("T", [{ heading: "H", body: ["x"] }])).toBe("# T\n\n## H\n\nx\n");
  });
});

describe("figures render to SVG headlessly", () => {
  it("an interval chart keeps its labels", async () => {
    const svg = await renderSvg(
      intervalChart({
        title: "WTP",
        xTitle: "$",
        rows: [
          { label: "agent-a", estimate: 10, low: 8, high: 12 },
          { label: "agent-b", estimate: 20 },
        ],
      }),
    );
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("agent-a");
    expect(svg).toContain("agent-b");
  });

  it("the choice report: tables for every agent, three figures, locked agents marked", async () => {
    const trials = simulateChoiceTrials(
      presetAgents("steep", "quality", "locked"),
      { pairs: 200, triples: 30, fives: 10 },
      "report",
    );
    const analysis = analyzeChoice(trials, { bootstrapDraws: 20 });
    const table = choiceAgentTable(analysis);
    expect(table.rows.map((r) => r[0])).toEqual(["sim:steep", "sim:quality", "sim:locked"]);
    expect(table.rows[2]![1]).toBe("LOCKED (primacy)");
    expect(table.rows[0]![4]).toMatch(/^-\d\.\d+\*\*\*$/);
    expect(table.header).toContain("WTP log @$250 [95% boot.]");
    expect(choiceBrandTable(analysis).rows).toHaveLength(2);
    const figures = choiceFigures(analysis);
    expect(figures.map((f) => f.file)).toEqual([
      "decile-curves.svg",
      "price-quality-map.svg",
      "wtp-ranking.svg",
    ]);
    for (const f of figures) expect((await renderSvg(f.spec)).startsWith("<svg")).toBe(true);
    const md = choiceReport(analysis, figures).join("\n\n");
    expect(md).toMatch(/position-locked/);
    expect(md).toContain("![WTP ranking](wtp-ranking.svg)");
  });
});
