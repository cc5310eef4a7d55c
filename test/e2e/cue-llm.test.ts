import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import type { CueTrialRecord } from "../../environments/cue/index.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

/** `bazaar export` and `bazaar analyze` in this process; `bazaar run` is the real binary. */
async function inProcess(args: string[]): Promise<string> {
  const { code, out } = await runInProcess(args);
  expect(code, args.join(" ")).toBe(0);
  return out;
}

const SMALL = ["--categories", "headphones", "--n-per-cell", "4", "--grid", "0,8,26"];

/** `bazaar run cue` as the real binary, or (for a second answer mode, quicker) in this process. */
async function runAndExport(cwd: string, args: string[], spawn = true) {
  const argv = ["run", "cue", ...SMALL, ...args, "--concurrency", "32", "--json"];
  const stdout = spawn
    ? await runCli(argv, { cwd }).then((r) => {
        if (r.code !== 0) throw new Error(`run failed (${r.code}): ${r.stderr}`);
        return r.stdout;
      })
    : await inProcess([...argv, "--store", path.join(cwd, "bazaar.db")]);
  const { runId, stored, total } = JSON.parse(stdout) as { runId: string; stored: number; total: number };
  expect(stored).toBe(total);
  const file = path.join(cwd, "trials.jsonl");
  await inProcess(["export", runId, "--store", path.join(cwd, "bazaar.db"), "--out", file]);
  const trials = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as CueTrialRecord);
  return { runId, total, trials };
}

describe("the cue LLM path: ChatOpenAI over HTTP against serve-sim", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("bazaar run cue --agent openai:sim-cue-moderate completes with valid records (text mode)", async () => {
    const cwd = tempDir();
    const agent = ["--agent", "openai:sim-cue-moderate", "--base-url", server.url];
    const { runId, total, trials } = await runAndExport(cwd, [
      ...agent,
      "--conditions",
      "social-proof-strong,price-only",
    ]);
    expect(total).toBe(2 * 6 * 3 * 4);
    expect(trials).toHaveLength(total);
    for (const t of trials) {
      expect(t).toMatchObject({
        env: "cue",
        run: runId,
        agent: "openai:sim-cue-moderate",
        nonResponse: null,
      });
      expect(t.chosenSlot === 0 || t.chosenSlot === 1).toBe(true);
      expect(t.choseCued).toBe(t.options[t.chosenSlot as number]?.cued);
      expect(t.usage.calls + t.usage.cacheHits).toBeGreaterThan(0);
      expect(["A", "B"]).toContain(t.raw);
    }
    // The simulated model answers the prompt it was sent: the dearer identical item loses at +26%.
    const rate = (condition: string, g: number) => {
      const sel = trials.filter((t) => t.condition === condition && t.premium === g);
      return sel.filter((t) => t.choseCued).length / sel.length;
    };
    expect(rate("social-proof-strong", 0)).toBeGreaterThan(0.7);
    expect(rate("price-only", 0.26)).toBeLessThan(0.1);
    const text = await inProcess([
      "analyze",
      runId,
      "--store",
      path.join(cwd, "bazaar.db"),
      "--bootstrap",
      "100",
    ]);
    expect(text).toMatch(/openai:sim-cue-moderate: 144 trials, 0 non-responses/);
  });

  it("tools mode: the model calls the cue environment's choose tool", async () => {
    const cwd = tempDir();
    const { trials } = await runAndExport(
      cwd,
      [
        "--agent",
        "openai:sim-cue-locked",
        "--base-url",
        server.url,
        "--answer-mode",
        "tools",
        "--conditions",
        "scarcity",
      ],
      false,
    );
    expect(trials).toHaveLength(6 * 3 * 4);
    expect(trials.every((t) => t.raw === "choose(A)" && t.chosenSlot === 0)).toBe(true);
  });
});
