/**
 * The live dashboard and the replay in a real pseudo-terminal: tmux runs the command, `send-keys`
 * types, `capture-pane` reads the screen. Skipped with a notice where tmux is not installed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.ts";
import { closeTerminals, TMUX, terminal } from "../helpers/tmux.ts";

if (!TMUX) console.warn("test/e2e/watch-tty: tmux is not installed; skipping the pseudo-terminal tests");

afterAll(closeTerminals);

describe.skipIf(!TMUX)("in a pseudo-terminal (tmux)", () => {
  it("run bargain --watch: the live dashboard, its keys, a clean stop; then watch replays it", async () => {
    const cwd = tempDir();
    const live = terminal(cwd, ["run", "bargain", "--watch", "--replicates", "40"]);
    // Each part of the frame is waited for: on a loaded machine the first frames come slowly.
    await live.until(/── episode #\d+ · .+ vs .+ · bargain/);
    let s = await live.until(/^ *C \$[\d,.]+│/m);
    expect(s).toMatch(/^bazaar run bargain-\w+ · bargain · [\d,]+\/40,000 stored · [\d,]+ trials\/s/m);
    expect(s).toMatch(/^og-narrator vs rule:boulware +█*░+ [\d,]+\/4,000 · [\d,]+\/s · ETA/m);
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
