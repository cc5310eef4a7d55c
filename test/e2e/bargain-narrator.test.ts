import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import type { BargainAnalysis } from "../../analysis/bargain/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

const MUTE = "og-narrator:openai:sim-bargain-llm";

describe("an LLM narrator that never gives a usable sentence, through the real CLI", () => {
  it("the run's headline, --watch's running stats and analyze --json count its template fallbacks", async () => {
    const cwd = tempDir();
    const store = path.join(cwd, "bazaar.db");
    // serve-sim's bargaining models answer in the negotiator's format, never with a `Sentences:` line.
    const run = await runCli(
      [
        "run",
        "bargain",
        "--buyer",
        `${MUTE},og-narrator`,
        "--seller",
        "rule:boulware",
        "--scenarios",
        "3",
        "--base-url",
        server.url,
        "--store",
        store,
        "--watch",
      ],
      { cwd },
    );
    expect(run.code).toBe(0);
    const out = run.stdout;
    const turns = Number(
      out.match(/^og-narrator:openai:sim-bargain-llm +3 +100\.0% .* (\d+) of \1 turns \(100\.0%\)$/m)?.[1],
    );
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(out).toMatch(/^buyer +sessions +deal rate \(valid\) +buyer SNP +narrator fallbacks$/m);
    // The template narrator has nothing to fall back from: no count on its row.
    expect(out).toMatch(/^og-narrator +3 +100\.0% +\S+$/m);
    expect(out).toContain(
      `${MUTE}: all ${turns} narrator turns fell back to the template line (openai:sim-bargain-llm gave no usable sentence), so these results are the template narrator's, not openai:sim-bargain-llm's.`,
    );
    // --watch without a terminal prints each pairing's running stats on stderr at the end.
    expect(run.stderr).toContain(
      `  narrator: template line in ${turns} of ${turns} turns (100.0%): results are the template's`,
    );
    expect(run.stderr.match(/^ {2}narrator: /gm)).toHaveLength(1);

    const runId = out.match(/^run (bargain-\w+):/m)![1]!;
    const analyzed = await runCli(["analyze", runId, "--store", store, "--json"], { cwd });
    expect(analyzed.code).toBe(0);
    const a = JSON.parse(analyzed.stdout) as BargainAnalysis;
    expect(a.byBuyer.map((b) => [b.buyer, b.narratorTurns, b.narratorFallbacks])).toEqual([
      [MUTE, turns, turns],
      ["og-narrator", null, null],
    ]);
    expect(a.notes).toHaveLength(1);
    expect(a.notes[0]).toContain("these results are the template narrator's");
    // The same moves as the template narrator's: its deal rate is the template's.
    expect(a.byBuyer[0]!.summary.ALL.dealRateValid).toBe(a.byBuyer[1]!.summary.ALL.dealRateValid);

    const text = await runCli(["analyze", runId, "--store", store], { cwd });
    expect(text.stdout.split("\n")[2]).toBe(a.notes[0]);
    expect(text.stdout).toMatch(
      new RegExp(
        `^og-narrator:openai:sim-bargain-llm +ALL .* ${turns} of ${turns} turns \\(100\\.0%\\)$`,
        "m",
      ),
    );
  });
});
