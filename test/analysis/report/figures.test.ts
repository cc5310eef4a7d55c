/**
 * Figures that stay legible with many agents: labels never collide or cover a point (a number and
 * a key where no room is left), panel and axis names are never cut, the user's own model stands out.
 */
import { describe, expect, it } from "vitest";
import { analyzeChoice } from "../../../analysis/choice/index.ts";
import {
  choiceFigures,
  placeLabels,
  renderSvg,
  textWidth,
  type VegaLiteSpec,
  wrapLabel,
} from "../../../analysis/report/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { presetAgents, simulateChoiceTrials } from "../choice/simulate.ts";

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const overlap = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

describe("label placement", () => {
  it("no two labels overlap, no label covers a point, all inside the plot; crowded points get numbers and a key", () => {
    for (const seed of [1, 2, 3]) {
      const rng = createRng(seed);
      // 30 points, a third of them crammed into one corner (as the near-zero models of the map).
      const points = Array.from({ length: 30 }, (_, i) => {
        const crowded = i % 3 === 0;
        return {
          x: crowded ? 600 + rng.next() * 60 : 20 + rng.next() * 660,
          y: crowded ? 380 + rng.next() * 40 : 20 + rng.next() * 400,
          label: `Model number ${i} $${Math.round(rng.next() * 1000)}`,
          priority: i === 7,
        };
      });
      const width = 700;
      const height = 440;
      const fontSize = 10;
      const { labels, key } = placeLabels(points, { width, height, fontSize, markerRadius: 4 });
      expect(labels).toHaveLength(30);
      const boxes = labels.map((l) => {
        const w = textWidth(l.text, fontSize) / 2;
        const h = (fontSize * 1.15) / 2;
        return { x0: l.x - w, y0: l.y - h, x1: l.x + w, y1: l.y + h };
      });
      const placed = labels.map((l, i) => ({ l, b: boxes[i]! })).filter(({ l }) => l.keyNumber === null);
      for (let i = 0; i < placed.length; i++) {
        const b = placed[i]!.b;
        expect(
          b.x0 >= 0 && b.y0 >= 0 && b.x1 <= width && b.y1 <= height,
          `seed ${seed}: label ${i} inside`,
        ).toBe(true);
        for (let j = i + 1; j < placed.length; j++)
          expect(overlap(b, placed[j]!.b), `seed ${seed}: labels ${i} and ${j}`).toBe(false);
        for (const [k, p] of points.entries()) {
          if (labels[k] === placed[i]!.l) continue;
          expect(
            overlap(b, { x0: p.x - 4, y0: p.y - 4, x1: p.x + 4, y1: p.y + 4 }),
            `label over point ${k}`,
          ).toBe(false);
        }
      }
      // Every label is shown in full either beside its point or in the key.
      const keyed = labels.filter((l) => l.keyNumber !== null);
      expect(key).toHaveLength(keyed.length);
      for (const l of keyed)
        expect(key[l.keyNumber! - 1]).toMatch(new RegExp(`^${l.keyNumber}\\. Model number`));
      expect(labels[7]!.keyNumber).toBeNull(); // the priority point is placed first, in full
      // Deterministic.
      expect(placeLabels(points, { width, height, fontSize, markerRadius: 4 })).toEqual({ labels, key });
    }
  });

  it("wraps long names at spaces, and a word longer than a line after a separator, losing nothing", () => {
    expect(wrapLabel("Qwen3 30B-A3B", 22)).toEqual(["Qwen3 30B-A3B"]);
    expect(wrapLabel("pricebench:qwen3_30b-a3b-instruct-2507-q4_K_M (yours)", 22)).toEqual([
      "pricebench:qwen3_30b-",
      "a3b-instruct-2507-q4_",
      "K_M (yours)",
    ]);
    expect(wrapLabel("openai:meta-llama/Llama-3.3-70B-Instruct-Turbo", 22)).toEqual([
      "openai:meta-llama/",
      "Llama-3.3-70B-",
      "Instruct-Turbo",
    ]);
    // No separator in reach: cut at the line's length.
    expect(wrapLabel("abcdefghijklmnopqrstuvwxyz", 10)).toEqual(["abcdefghij", "klmnopqrst", "uvwxyz"]);
    for (const text of ["openai:sim-shop-asks-first for openai:sim-client-faulty", "a b  c"])
      expect(wrapLabel(text, 12).join("").replaceAll(" ", "")).toBe(text.replaceAll(" ", ""));
    expect(wrapLabel("a model with a rather long display name", 16)).toEqual([
      "a model with a",
      "rather long",
      "display name",
    ]);
  });
});

describe("the choice figures with many agents", () => {
  const trials = simulateChoiceTrials(
    presetAgents("steep", "quality", "budget", "primacy", "noisy", "locked"),
    { pairs: 200, triples: 30, fives: 0 },
    "figures",
  );
  const analysis = analyzeChoice(trials, { bootstrapDraws: 20 });
  const names = { "sim:steep": "Steep Shopper With A Long Display Name", "sim:quality": "Quality" };
  const figures = choiceFigures(analysis, "", { names, highlight: new Set(["sim:budget"]) });
  const spec = (file: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: the test walks a loosely typed Vega-Lite spec
    figures.find((f) => f.file === file)!.spec as VegaLiteSpec & Record<string, any>;

  it("decile curves: one panel per engaged agent, full names wrapped not cut, the user's model first and dashed in every other panel", () => {
    const s = spec("decile-curves.svg");
    const panels = s.facet.sort as string[];
    expect(panels).toHaveLength(5); // the locked agent is not a preference
    expect(panels[0]).toBe("sim:budget (yours)");
    expect(panels).toContain("Steep Shopper With A|Long Display Name");
    expect(s.facet.header.labelLimit).toBe(0);
    const values = s.data.values as { panel: string; role: string }[];
    for (const p of panels.slice(1))
      expect(
        values.some((v) => v.panel === p && v.role === "reference"),
        p,
      ).toBe(true);
    expect(values.some((v) => v.panel === panels[0] && v.role === "reference")).toBe(false);
  });

  it("price–quality map: every engaged agent labelled by name with its WTP, the user's model highlighted", () => {
    const s = spec("price-quality-map.svg");
    const layer = (s.layer as { data: { values: Record<string, unknown>[] }; mark: { type: string } }[]).find(
      (l) => l.mark.type === "point",
    )!;
    const texts = layer.data.values.map((v) => v.text as string);
    expect(texts).toHaveLength(5);
    expect(
      texts.some((t) => /^Steep Shopper With A Long Display Name \$\d+/.test(t) || /^\d+$/.test(t)),
    ).toBe(true);
    expect(layer.data.values.find((v) => v.highlight)!.group).toBe("yours");
  });

  it("WTP ranking: names never cut, intervals on every row, the user's model in bold", async () => {
    const s = spec("wtp-ranking.svg");
    const y = s.layer[0].encoding.y;
    expect(y.axis.labelLimit).toBe(0);
    expect(JSON.stringify(y.axis.labelFontWeight)).toContain("sim:budget (yours)");
    const rows = s.data.values as { low: number; high: number; label: string }[];
    for (const r of rows) expect(r.low, r.label).toBeLessThan(r.high);
    const svg = await renderSvg(s);
    expect(svg).toContain("Steep Shopper With A Long Display Name");
    for (const f of figures) expect((await renderSvg(f.spec)).startsWith("<svg"), f.file).toBe(true);
  });
});
