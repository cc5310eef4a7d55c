/**
 * A `--until` run killed mid-run (SIGKILL: no handler runs, a block is cut anywhere) and resumed by
 * the same command ends as the run made in one go: the same trials, each once, and the same
 * stopping decisions and headline intervals. The real binary, as a user runs it.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

// The default design: sim:noisy never reaches ±0.8 and plays the binary tasks out; sim:steep stops.
const ARGS = ["run", "choice", "--agent", "sim:steep,sim:noisy", "--until", "beta-lnp±0.8"];

function killAt(cwd: string, atLeast: number) {
  return new Promise<{ signal: NodeJS.Signals | null; storedAtKill: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...ARGS], { cwd, stdio: ["ignore", "ignore", "ignore"] });
    let storedAtKill = -1;
    const poll = setInterval(() => {
      const n = storedTrials(path.join(cwd, "bazaar.db"));
      if (n >= atLeast && storedAtKill < 0) {
        storedAtKill = n;
        child.kill("SIGKILL");
      }
    }, 10);
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      clearInterval(poll);
      resolve({ signal, storedAtKill });
    });
  });
}

interface RunJson {
  runId: string;
  stored: number;
  ranNow: number;
  until: unknown;
  headline: { targets: unknown };
}

describe("a killed --until run", () => {
  it("resumed by the same command equals the run made in one go", async () => {
    const killedDir = tempDir();
    const killed = await killAt(killedDir, 1500);
    expect(killed.signal).toBe("SIGKILL");
    const partial = storedTrials(path.join(killedDir, "bazaar.db"));
    expect(partial).toBeGreaterThanOrEqual(1500);

    const resumed = await runCli([...ARGS, "--json"], { cwd: killedDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const r = JSON.parse(resumed.stdout) as RunJson;
    expect(r.ranNow).toBe(r.stored - partial);

    const cleanDir = tempDir();
    const clean = await runCli([...ARGS, "--json"], { cwd: cleanDir });
    expect(clean.code, clean.stderr).toBe(0);
    const c = JSON.parse(clean.stdout) as RunJson;
    expect(c.stored).toBeGreaterThan(partial);
    expect(r.stored).toBe(c.stored);
    expect(r.until).toEqual(c.until);
    expect(r.headline.targets).toEqual(c.headline.targets);
    const a = await runCli(["export", r.runId], { cwd: killedDir });
    const b = await runCli(["export", c.runId], { cwd: cleanDir });
    expect(a.stdout.length).toBeGreaterThan(0);
    expect(a.stdout === b.stdout).toBe(true);
    const keys = a.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { trialKey: string }).trialKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
