import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, runCli, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

async function outcomes(cwd: string, runId: string) {
  const r = await runCli(["export", runId], { cwd });
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split("\n")
    .map((l) => {
      const t = JSON.parse(l) as { trialKey: string; chosenSlot: number | null; replies: string[] };
      return [t.trialKey, t.chosenSlot, t.replies];
    });
}

describe("bazaar run --workers: LLM agents in worker threads from the CLI", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0, latencyMs: 5 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("Ctrl-C stops with exit code 130; the resumed run equals a run without workers", async () => {
    const args = ["run", "choice", "--agent", "openai:sim-steep", "--base-url", server.url, "--limit", "400"];
    const dir = tempDir();
    const child = spawn(process.execPath, [BIN, ...args, "--workers", "2", "--concurrency", "16"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const poll = setInterval(() => {
      if (storedTrials(path.join(dir, "bazaar.db")) >= 60) {
        clearInterval(poll);
        child.kill("SIGINT");
      }
    }, 20);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearInterval(poll);
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted: \d+ of 400 trials are stored/);
    const partial = storedTrials(path.join(dir, "bazaar.db"));
    expect(partial).toBeLessThan(400);

    const resumed = await runCli([...args, "--workers", "2", "--json"], { cwd: dir });
    expect(resumed.code).toBe(0);
    const r = JSON.parse(resumed.stdout) as { runId: string; stored: number; ranNow: number };
    expect(r.ranNow).toBe(400 - partial);
    expect(r.stored).toBe(400);

    const plainDir = tempDir();
    const plain = await runCli([...args, "--workers", "0", "--json"], { cwd: plainDir });
    expect(plain.code).toBe(0);
    expect(await outcomes(dir, r.runId)).toEqual(await outcomes(plainDir, r.runId));
  });

  it("rejects a bad --workers value with exit code 2", async () => {
    const r = await runCli(["run", "choice", "--agent", "sim:steep", "--workers", "many"], {
      cwd: tempDir(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--workers/);
  });
});
