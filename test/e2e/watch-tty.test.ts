/**
 * The live dashboard and the replay in a real pseudo-terminal: tmux runs the command, `send-keys`
 * types, `capture-pane` reads the screen. Skipped with a notice where tmux is not installed.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, tempDir } from "../helpers/cli.ts";

const TMUX = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].find((p) => existsSync(p));
if (!TMUX) console.warn("test/e2e/watch-tty: tmux is not installed; skipping the pseudo-terminal tests");

// A private tmux server, so the tests never touch a user's sessions.
const SOCKET = `bazaar-test-${process.pid}`;
// A terminal, not a CI log: ink draws frames live only when CI is unset (even set to "").
const { CI: _ci, CONTINUOUS_INTEGRATION: _cint, ...ENV } = process.env;
const tmux = (...args: string[]) =>
  execFileSync(TMUX!, ["-L", SOCKET, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: ENV,
  });
let sessions = 0;

/** Starts a command in a fresh 100×40 terminal; its exit code is printed as EXIT=<code> at the end. */
function terminal(cwd: string, args: string[]) {
  const name = `t${++sessions}`;
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    "100",
    "-y",
    "40",
    "-c",
    cwd,
    `${quoted}; echo EXIT=$?; sleep 120`,
  );
  const screen = () => tmux("capture-pane", "-p", "-t", name);
  return {
    screen,
    keys: (...keys: string[]) => tmux("send-keys", "-t", name, ...keys),
    /** Waits until the screen matches, and returns it. */
    async until(pattern: string | RegExp, ms = 30_000): Promise<string> {
      const t0 = Date.now();
      for (;;) {
        const s = screen();
        if (typeof pattern === "string" ? s.includes(pattern) : pattern.test(s)) return s;
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${pattern}; the screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => tmux("kill-session", "-t", name),
  };
}

afterAll(() => {
  if (TMUX && sessions > 0) {
    try {
      tmux("kill-server");
    } catch {
      // already gone
    }
  }
});

describe.skipIf(!TMUX)("in a pseudo-terminal (tmux)", () => {
  it("run bargain --watch: the live dashboard, its keys, a clean stop; then watch replays it", async () => {
    const cwd = tempDir();
    const live = terminal(cwd, ["run", "bargain", "--watch", "--replicates", "40"]);
    let s = await live.until(/── episode #\d+ · .+ vs .+ · bargain/);
    expect(s).toMatch(/^bazaar run bargain-\w+ · bargain · [\d,]+\/40,000 stored · [\d,]+ trials\/s/m);
    expect(s).toMatch(/^og-narrator vs rule:bou… +█*░+ [\d,]+\/4,000 · [\d,]+\/s · ETA/m);
    expect(s).toMatch(/^B \$[\d,.]+│/m);
    expect(s).toMatch(/^ *C \$[\d,.]+│/m);
    expect(s).toContain("running deal rates and profits");
    live.keys("?");
    await live.until("keys (live run)");
    live.keys(" ");
    await live.until(/step \d+\/\d+ · paused/);
    live.keys("q");
    s = await live.until("EXIT=130");
    expect(s).toContain("run stopped: run the same command again to resume");
    const runId = /^run (bargain-\w+): [\d,]+ of 40,000 trials stored/m.exec(s)?.[1];
    expect(runId).toBeDefined();
    live.close();

    const replay = terminal(cwd, ["watch", runId!]);
    s = await replay.until(/▶ #0 +og-narrator vs rule:boulware/);
    expect(s).toMatch(/^bazaar watch bargain-\w+ · bargain · [\d,]+ of 40,000 trials stored · 10 agents/m);
    replay.keys("Down", "Down");
    await replay.until(/▶ #2 /);
    replay.keys("Enter");
    s = await replay.until(/── episode #2 · og-narrator vs rule:boulware · bargain · step (\d+)\/\1/);
    expect(s).toMatch(/^t\d+ +(buyer|seller) +(BUY|SELL|DEAL|REJECT|QUIT)/m);
    expect(s).toMatch(/deal at \$[\d,.]+|no deal|invalid/);
    replay.keys("Left");
    await replay.until(/step (\d+)\/(?!\1)\d+ · paused/);
    replay.keys("Escape");
    await replay.until("enter open");
    replay.keys("i");
    s = await replay.until(/\[i\] MI\/CI: MI/);
    replay.keys("q");
    await replay.until("EXIT=0");
    replay.close();
  });

  it("run choice --watch to the end: the final dashboard stays above the summary", async () => {
    const cwd = tempDir();
    const live = terminal(cwd, [
      "run",
      "choice",
      "--watch",
      "--agent",
      "sim:steep,sim:locked",
      "--limit",
      "3000",
    ]);
    const s = await live.until("EXIT=0");
    expect(s).toMatch(/^bazaar run choice-\w+ · choice · 3,000\/3,000 stored/m);
    expect(s).toMatch(/^sim:locked +█+ 1,500\/1,500/m);
    expect(s).toContain("run finished");
    expect(s).toMatch(/^run choice-\w+: 3,000 of 17,400 trials stored/m);
    live.close();
  });
});
