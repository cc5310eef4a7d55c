import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

const ARGS = [
  "run",
  "choice",
  "--agent",
  "sim:steep,sim:noisy",
  "--replicates",
  "3",
  "--pairs",
  "300",
  "--triples",
  "150",
  "--fives",
  "0",
];

/** Starts the real command, waits until it has stored `atLeast` trials, then sends `signal`. */
function interruptMidRun(cwd: string, signal: NodeJS.Signals, atLeast: number) {
  return new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
    storedAtSignal: number;
  }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...ARGS], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let storedAtSignal = -1;
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const poll = setInterval(() => {
      const n = storedTrials(path.join(cwd, "bazaar.db"));
      if (n >= atLeast && storedAtSignal < 0) {
        storedAtSignal = n;
        child.kill(signal);
      }
    }, 20);
    child.on("error", reject);
    child.on("close", (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, stderr, storedAtSignal });
    });
  });
}

describe("a killed run resumes with no trial lost or duplicated", () => {
  it("SIGKILL mid-run, then the same command: the store equals an uninterrupted run", async () => {
    const killedDir = tempDir();
    const killed = await interruptMidRun(killedDir, "SIGKILL", 2000);
    expect(killed.signal).toBe("SIGKILL");
    const partial = storedTrials(path.join(killedDir, "bazaar.db"));
    expect(partial).toBeGreaterThanOrEqual(2000);

    const resumed = await runCli([...ARGS, "--json"], { cwd: killedDir });
    expect(resumed.code).toBe(0);
    const r = JSON.parse(resumed.stdout) as { runId: string; stored: number; total: number; ranNow: number };
    expect(r.ranNow).toBeGreaterThan(0);
    expect(r.stored).toBe(r.total);
    expect(r.ranNow).toBe(r.total - partial);

    const cleanDir = tempDir();
    const clean = await runCli(ARGS, { cwd: cleanDir });
    expect(clean.code).toBe(0);
    const a = await runCli(["export", r.runId], { cwd: killedDir });
    const b = await runCli(["export", r.runId], { cwd: cleanDir });
    expect(a.stdout.length).toBeGreaterThan(0);
    expect(a.stdout === b.stdout).toBe(true);
    const keys = a.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { trialKey: string }).trialKey);
    expect(keys).toHaveLength(r.total);
    expect(new Set(keys).size).toBe(r.total);
  });

  it("Ctrl-C stops cleanly with exit code 130 and says how to resume", async () => {
    const cwd = tempDir();
    const stopped = await interruptMidRun(cwd, "SIGINT", 1000);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(
      /interrupted: \d+ of \d+ trials are stored; run the same command again to resume/,
    );
    const resumed = await runCli([...ARGS, "--json"], { cwd });
    const r = JSON.parse(resumed.stdout) as { stored: number; total: number };
    expect(r.stored).toBe(r.total);
  });
});
