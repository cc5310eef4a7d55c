/**
 * Watching episodes as they happen, in real terminals (tmux), against serve-sim answering after a
 * second: the live view shows a bargaining session turn by turn before it ends, with one status
 * line; `bazaar watch --follow` in a second terminal shows the same run's turns from the store; the
 * plain follower (a pipe) prints them as lines. Every check waits for what it reads.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, tempDir } from "../helpers/cli.ts";
import { closeTerminals, TMUX, terminal } from "../helpers/tmux.ts";

if (!TMUX) console.warn("test/e2e/watch-live: tmux is not installed; skipping the pseudo-terminal tests");

afterAll(closeTerminals);

/**
 * A bargaining run of `scenarios` sessions, two at a time. The followers' runs are longer than the
 * live view's: a follower is a second process that must be up while the run still has sessions in
 * flight, and starting one takes seconds on a loaded machine.
 */
function bargainArgs(url: string, store: string, scenarios = 3): string[] {
  return [
    "run",
    "bargain",
    "--buyer",
    "openai:sim-bargain-llm",
    "--seller",
    "rule:boulware",
    "--scenarios",
    String(scenarios),
    "--concurrency",
    "2",
    "--base-url",
    url,
    "--store",
    store,
  ];
}

/** Sessions in the runs a follower watches. */
const FOLLOWED = 8;

/** The dialogue lines of the focused session on a screen, e.g. "t1   buyer  BUY $104.37". */
const turnLine = (t: number) => new RegExp(`^t${t} +(buyer|seller) +(BUY|SELL|DEAL|REJECT|QUIT)`, "m");

describe.skipIf(!TMUX)("episodes as they happen", () => {
  it("run --watch: turn 1, then turn 2, of a session in flight; the status line once", async () => {
    const server = await startSimServer({ latencyMs: 1000 });
    try {
      const cwd = tempDir();
      const live = terminal(cwd, [...bargainArgs(server.url, "s.db"), "--watch"], { width: 150, height: 45 });
      let s = await live.until(/── episode #\d+ · .+ · bargain · in flight/);
      s = await live.until(turnLine(1));
      const seq = /── episode #(\d+) · .+ · in flight/.exec(s)![1]!;
      // Later, turn 2 of the same session — while it is still in flight.
      s = await live.until(
        new RegExp(`── episode #${seq} · [^\\n]+ in flight[\\s\\S]*^t2 +(buyer|seller)`, "m"),
      );
      expect(s).toMatch(/in progress · turn \d+/);
      expect(s).toMatch(/^ *C \$[\d,.]+│/m); // the price ladder grows with it
      // One status line on the screen, however many frames were drawn, and none left above it.
      expect(s.match(/^bazaar run bargain-\w+ · bargain · /gm)).toHaveLength(1);
      s = await live.until("EXIT=0");
      expect(
        live.history().match(/^bazaar run bargain-\w+ · bargain · \d\/3 stored/gm)?.length,
      ).toBeLessThanOrEqual(1);
      expect(s).toMatch(/trials\/min|s per trial|trials\/s/);
      live.close();
    } finally {
      await server.close();
    }
  });

  it("watch --follow in a second terminal: the run's turns appear there as they are written", async () => {
    const server = await startSimServer({ latencyMs: 1000 });
    try {
      const cwd = tempDir();
      const store = path.join(cwd, "s.db");
      const run = terminal(cwd, bargainArgs(server.url, store, FOLLOWED), { width: 150, height: 45 });
      // The run id is a hash of the run: ask for it the way a user would, from the store.
      const { runInProcess } = await import("../helpers/cli.ts");
      let runId: string | undefined;
      for (const t0 = Date.now(); !runId && Date.now() - t0 < 120_000; ) {
        const r = await runInProcess(["runs", "--store", store, "--json"]);
        runId = r.code === 0 ? (JSON.parse(r.out) as { id: string }[])[0]?.id : undefined;
        if (!runId) await new Promise((r) => setTimeout(r, 100));
      }
      expect(runId).toBeDefined();
      const follow = terminal(cwd, ["watch", runId!, "--store", store, "--follow"], {
        width: 150,
        height: 45,
      });
      const s = await follow.until(/── episode #\d+ · .+ · bargain · in flight/);
      expect(s).toMatch(/^in flight: \d episodes?/m);
      // Each turn is on the follower's screen soon after the run wrote it (within 2 s of the store).
      const before = (/── episode #(\d+) [^\n]+ · in flight · (\d+) turns? so far/.exec(follow.screen()) ??
        [])[2];
      await follow.until(
        new RegExp(`in flight · (?!${before} turns?)\\d+ turns? so far|run bargain-\\w+ finished`),
        60_000,
      );
      await follow.until(new RegExp(`run bargain-\\w+ finished: ${FOLLOWED} of ${FOLLOWED} trials stored`));
      await follow.until("EXIT=0");
      await run.until("EXIT=0");
      run.close();
      follow.close();
    } finally {
      await server.close();
    }
  });

  it("a follower on a pipe prints each turn and each finished session as a line, then the end", async () => {
    const server = await startSimServer({ latencyMs: 1000 });
    try {
      const cwd = tempDir();
      const store = path.join(cwd, "s.db");
      const runner = spawn(process.execPath, [BIN, ...bargainArgs(server.url, store, FOLLOWED), "--json"], {
        cwd,
        stdio: ["ignore", "pipe", "ignore"],
      });
      let ran = "";
      runner.stdout.on("data", (d: Buffer) => {
        ran += d.toString();
      });
      // Listened for at once: the runner may well be done before the follower is.
      const runnerClosed = new Promise((resolve) => runner.on("close", resolve));
      const { runInProcess } = await import("../helpers/cli.ts");
      let runId: string | undefined;
      for (const t0 = Date.now(); !runId && Date.now() - t0 < 120_000; ) {
        const r = await runInProcess(["runs", "--store", store, "--json"]);
        runId = r.code === 0 ? (JSON.parse(r.out) as { id: string }[])[0]?.id : undefined;
        if (!runId) await new Promise((r) => setTimeout(r, 100));
      }
      const follower = spawn(process.execPath, [BIN, "watch", runId!, "--store", store, "--follow"], {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let seen = "";
      let complaints = "";
      follower.stdout.on("data", (d: Buffer) => {
        seen += d.toString();
      });
      follower.stderr.on("data", (d: Buffer) => {
        complaints += d.toString();
      });
      const code = await new Promise<number | null>((resolve) => follower.on("close", resolve));
      await runnerClosed;
      expect(code).toBe(0);
      expect(seen).toMatch(/^following run bargain-\w+ \(bargain\)/m);
      expect(seen).toMatch(/^#\d+ openai:sim-bargain-llm vs rule:boulware · turn \d+ · (buyer|seller) · /m);
      expect(seen).toMatch(new RegExp(`run bargain-\\w+ finished: ${FOLLOWED} of ${FOLLOWED} trials stored`));
      expect(seen).not.toContain("\u001b["); // plain lines, no escape codes
      // Polling leaves nothing behind (a listener per poll once warned after ten polls).
      expect(complaints).not.toMatch(/MaxListenersExceeded/);
      expect(JSON.parse(ran)).toMatchObject({ stored: FOLLOWED });
    } finally {
      await server.close();
    }
  });
});
