/**
 * A run of the LLM path killed mid-run (SIGKILL) and run again by the same command, against a server
 * that answers 429 now and then: the same outcomes as a run never interrupted. A long run:
 * `npm run test:long`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { exported, run, type Trial } from "../helpers/choice-runs.ts";
import { BIN, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

describe("kill and resume over the LLM path", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0, latencyMs: 5, faults: { rate429: 0.05 }, retryAfterSeconds: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("SIGKILL mid-run then the same command gives the same outcomes as an uninterrupted run", async () => {
    const args = ["run", "choice", "--agent", "openai:sim-steep", "--base-url", server.url, "--limit", "600"];
    const killedDir = tempDir();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: killedDir, stdio: "ignore" });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (storedTrials(path.join(killedDir, "bazaar.db")) >= 150) {
          clearInterval(poll);
          child.kill("SIGKILL");
          resolve();
        }
      }, 20);
    });
    await new Promise((resolve) => child.on("close", resolve));
    const partial = storedTrials(path.join(killedDir, "bazaar.db"));
    expect(partial).toBeLessThan(600);
    const resumed = await run(killedDir, args.slice(2));
    expect(resumed.ranNow).toBe(600 - partial);
    const cleanDir = tempDir();
    const clean = await run(cleanDir, args.slice(2));
    const outcome = (t: Trial) => [t.trialKey, t.chosenSlot, t.replies, t.nonResponse];
    expect((await exported(killedDir, resumed.runId)).map(outcome)).toEqual(
      (await exported(cleanDir, clean.runId)).map(outcome),
    );
  });
});
