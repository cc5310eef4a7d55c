import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT_PAIRS } from "../../datasets/products/index.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { runCue as run } from "../helpers/cue-runs.ts";

const inProcess = runInProcess;

describe("bazaar run cue, then bazaar analyze (as a user runs them)", () => {
  it("runs user pairs and cues picked by a glob, and prints censoring marks for a skeptic", async () => {
    const cwd = tempDir();
    const pairs = DEFAULT_PRODUCT_PAIRS.filter((p) => p.category === "headphones").slice(0, 3);
    writeFileSync(path.join(cwd, "pairs.json"), JSON.stringify({ pairs }));
    writeFileSync(
      path.join(cwd, "cues.json"),
      JSON.stringify([
        { name: "scarcity", family: "scarcity", cue: "Only 2 units remain in stock." },
        {
          name: "social-proof-very-strong",
          family: "social-proof",
          intensity: "very-strong",
          cue: "Over 80,000 shoppers picked this model, more than any other.",
        },
        {
          name: "social-proof-strong",
          family: "social-proof",
          intensity: "strong",
          cue: "More than 10,000 shoppers have bought this model.",
        },
      ]),
    );
    const r = await run(cwd, [
      "--pairs",
      path.join(cwd, "pairs.json"),
      "--cues",
      path.join(cwd, "cues.json"),
      "--conditions",
      "social-proof-*,scarcity",
      "--agent",
      "sim:skeptic",
    ]);
    expect(r.total).toBe(3 * 3 * 8 * 24);
    const a = await inProcess([
      "analyze",
      r.runId,
      "--store",
      path.join(cwd, "bazaar.db"),
      "--bootstrap",
      "100",
    ]);
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/social-proof-very-strong .*>26% †/);
    expect(a.out).toMatch(/scarcity .*≤0 ‡/);
    expect(a.out).toMatch(/price sensitivity: no price-only control in this run/);
  });

  it("refuses bad input with exit code 2 and says what to do", async () => {
    const cwd = tempDir();
    const bad = path.join(cwd, "bad.json");
    writeFileSync(bad, JSON.stringify([{ ...DEFAULT_PRODUCT_PAIRS[0], pairId: "Bad" }]));
    const cases: [string[], RegExp][] = [
      [["--n-per-cell", "10"], /--n-per-cell must be a multiple of 4/],
      [["--grid", "2,4,6"], /--grid must start at 0/],
      [["--grid", "0,4,2"], /increasing order/],
      [["--conditions", "nothing-*"], /no condition matches "nothing-\*"\n {2}conditions: social-proof-weak/],
      [["--pairs", bad], /bad\.json, row 0, pairId: pairId must be lower-case/],
      [["--pairs", path.join(cwd, "missing.json")], /missing\.json does not exist/],
      [["--agent", "sim:nope"], /unknown agent "sim:nope" for cue runs/],
      [["--blocks", "main,extra"], /unknown block "extra"/],
      [
        ["--pool", "x.json"],
        /--pool is an option of `run choice`, `run shop` and `run market`, not of `run cue`/,
      ],
    ];
    const store = path.join(cwd, "bazaar.db");
    for (const [args, message] of cases) {
      const r = await inProcess(["run", "cue", ...args, "--store", store]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(message);
    }
    const spawned = await runCli(["run", "cue", "--n-per-cell", "6"], { cwd });
    expect(spawned.code).toBe(2);
    expect(spawned.stderr).toMatch(/^bazaar: --n-per-cell must be a multiple of 4/);
    expect(existsSync(store)).toBe(false);
  });
});
