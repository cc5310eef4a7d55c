/**
 * The layout's import rules (scripts/layout.ts) hold on the tree, and catch what they are for: each
 * rule is broken once, in memory, by adding one import to a real file.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkLayout, layerOf } from "../../scripts/layout.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The tree with one file's text replaced by itself plus `line`. */
async function withImport(file: string, line: string): Promise<Map<string, string>> {
  const { readFileSync } = await import("node:fs");
  return new Map([[file, `${line}\n${readFileSync(path.join(ROOT, file), "utf8")}`]]);
}

describe("the layout", () => {
  it("has the design card's top level and every import rule holds", () => {
    expect(checkLayout(ROOT).map((v) => v.message)).toEqual([]);
  });

  it("puts each file in its layer", () => {
    expect(layerOf("environments/kernel/types.ts")).toBe("kernel");
    expect(layerOf("environments/runner/execute.ts")).toBe("runner");
    expect(layerOf("environments/store/store.ts")).toBe("store");
    expect(layerOf("environments/choice/machine.ts")).toBe("environments");
    expect(layerOf("agents/serve-sim/server.ts")).toBe("agents");
    expect(layerOf("cli/tui/plain.ts")).toBe("cli");
    expect(layerOf("test/e2e/bargain.test.ts")).toBeNull();
  });

  const broken: [string, string, string, RegExp][] = [
    [
      "environments → agents",
      "environments/choice/machine.ts",
      'import { CHOICE_PRESETS } from "../../agents/sim/index.ts";',
      /environments\/choice\/machine\.ts imports agents\/sim\/index\.ts: environments → agents/,
    ],
    [
      "environments → cli",
      "environments/bargain/scenarios.ts",
      'import { renderTable } from "../../cli/table.ts";',
      /environments → cli/,
    ],
    [
      "kernel → anything above it",
      "environments/kernel/episode.ts",
      'import type { ChoiceTask } from "../choice/types.ts";',
      /kernel → environments/,
    ],
    [
      "agents → runner",
      "agents/registry.ts",
      'import type { RunPlan } from "../environments/runner/plan.ts";',
      /agents → runner/,
    ],
    [
      "agents → store",
      "agents/llm/cache.ts",
      'import { Store } from "../../environments/store/index.ts";',
      /agents → store/,
    ],
    [
      "analysis → agents",
      "analysis/choice/analyze.ts",
      'import { CHOICE_PRESETS } from "../../agents/sim/index.ts";',
      /analysis → agents/,
    ],
    [
      "analysis → runner",
      "analysis/cue/analyze.ts",
      'import { executeRun } from "../../environments/runner/execute.ts";',
      /analysis → runner/,
    ],
    [
      "datasets → analysis",
      "datasets/hotels/load.ts",
      'import { analyzeChoice } from "../../analysis/choice/index.ts";',
      /datasets → analysis/,
    ],
    [
      "a runtime import hidden in a dynamic import()",
      "environments/runner/execute.ts",
      'const w = () => import("../../agents/llm/workers.ts");',
      /runner → agents/,
    ],
  ];
  for (const [rule, file, line, message] of broken) {
    it(`fails on ${rule}`, async () => {
      // The import may close a circle too (agents import environments); the rule is what is checked.
      const found = checkLayout(ROOT, await withImport(file, line)).filter((v) => v.kind === "forbidden");
      expect(found).toHaveLength(1);
      expect(found[0]!.message).toMatch(message);
    });
  }

  it("fails on an import circle between files, naming every file of it", async () => {
    // Two files of one environment that import each other: no rule of layers is broken, only this.
    const found = checkLayout(
      ROOT,
      new Map([
        [
          "environments/bargain/prompt.ts",
          `import { renderReply } from "./text.ts";\nexport const x = renderReply;\n`,
        ],
        [
          "environments/bargain/text.ts",
          `import { x } from "./prompt.ts";\n${(await import("node:fs")).readFileSync(path.join(ROOT, "environments/bargain/text.ts"), "utf8")}`,
        ],
      ]),
    );
    const circles = found.filter((v) => v.kind === "circle");
    expect(circles).toHaveLength(1);
    expect(circles[0]!.message).toMatch(
      /import circle: .*environments\/bargain\/prompt\.ts ↔ environments\/bargain\/text\.ts/,
    );
  });

  it("names an import that resolves to no file", async () => {
    const found = checkLayout(ROOT, await withImport("agents/sim/index.ts", 'import "./no-such-file.ts";'));
    expect(found.map((v) => v.message)).toEqual(['agents/sim/index.ts: cannot resolve "./no-such-file.ts"']);
  });
});
