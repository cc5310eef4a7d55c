import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import { filterChoices, ReplayApp, ReplayScreen } from "../../../cli/tui/replay/ReplayApp.tsx";
import { initialReplay, replayReducer } from "../../../cli/tui/state/replay.ts";
import { longBargainRecord, until, widest } from "./fixtures.ts";
import { memorySource } from "./memory-source.ts";

afterEach(() => cleanup());
const tick = (ms = 40) => new Promise((r) => setTimeout(r, ms));

function sessions(n: number): TrialRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const r = longBargainRecord(3 + (i % 4), i) as Record<string, unknown>;
    if (i % 5 === 4)
      return { ...r, agent: "sim:llm vs rule:linear", outcome: "no-deal", endedBy: "quit", dealPrice: null };
    if (i % 7 === 6)
      return { ...r, outcome: "invalid", endedBy: "fake-deal", invalidSide: "buyer", dealPrice: null };
    return r;
  });
}

describe("ReplayApp", () => {
  it("lists episodes, opens one, steps and plays it, filters, shows help and quits", async () => {
    const source = memorySource(sessions(300));
    const app = render(<ReplayApp source={source} width={100} height={30} playMs={20} />);
    let f = await until(app, "300 matching");
    expect(f).toContain("bazaar watch run-mem · bargain · 300 of 300 trials stored · 2 agents");
    expect(f).toMatch(/▶ #0 +og-narrator vs rule:boulware +deal \$/);
    app.stdin.write("\u001B[B"); // down
    await until(app, /▶ #1 /);
    app.stdin.write("\r");
    f = await until(app, "── episode #1 · og-narrator vs rule:boulware · bargain · step 8/8");
    expect(f).toContain("B $160.00");
    expect(f).toContain("running deal rates and profits (og-narrator vs rule:boulware)");
    app.stdin.write("\u001B[D"); // left
    await until(app, "step 7/8 · paused");
    app.stdin.write(" ");
    await until(app, /episode #(2|3) .* · playing/);
    app.stdin.write(" ");
    app.stdin.write("\u001B"); // esc: back to the list
    await until(app, "enter open");
    app.stdin.write("o");
    await until(app, "[o] outcome: deal");
    app.stdin.write("o");
    await until(app, `${300 / 5} matching`);
    f = await until(app, /▶ #4 +sim:llm vs rule:linear +no deal \(quit\)/);
    expect(f).toContain("[o] outcome: no-deal");
    app.stdin.write("?");
    await until(app, "keys (replay)");
    // q quits: after it, keys no longer change the screen. (What the last frame shows once ink has
    // unmounted depends on timing, so only the absence of further frames is checked.)
    app.stdin.write("q");
    await tick();
    const framesAfterQuit = app.frames.length;
    app.stdin.write("?");
    await tick();
    expect(app.frames.length).toBe(framesAfterQuit);
  });

  it("opens the requested episode first", async () => {
    const app = render(
      <ReplayApp source={memorySource(sessions(50))} openSeq={33} width={100} height={30} />,
    );
    await until(app, "── episode #33 ·");
  });
});

describe("ReplayScreen", () => {
  it("fits an 80-column terminal, in the list and in an episode with a long dialogue", () => {
    const records = [longBargainRecord(20, 0), ...sessions(20).slice(1)];
    const source = memorySource(records);
    let state = initialReplay(filterChoices(source));
    state = replayReducer(state, {
      type: "loaded",
      request: state.request!,
      page: source.after(-1, 100, {}),
    });
    const list = render(
      <ReplayScreen
        state={state}
        source={source}
        episode={null}
        stats={null}
        matched={20}
        indexed={1}
        width={80}
        height={30}
      />,
    ).lastFrame();
    expect(widest(list)).toBeLessThanOrEqual(80);
    expect(list).toContain("(end)");
    state = replayReducer(state, { type: "key", key: "enter" });
    const episode = source.episode(0);
    const open = render(
      <ReplayScreen
        state={state}
        source={source}
        episode={episode}
        stats={source.stats(episode!.record)}
        matched={20}
        indexed={1}
        width={80}
        height={40}
      />,
    ).lastFrame();
    expect(widest(open)).toBeLessThanOrEqual(80);
    expect(open).toContain("t20  seller DEAL $136.00");
  });

  it("says when nothing matches", () => {
    const source = memorySource([]);
    let state = initialReplay(filterChoices(source));
    state = replayReducer(state, {
      type: "loaded",
      request: state.request!,
      page: source.after(-1, 100, {}),
    });
    const f = render(
      <ReplayScreen
        state={state}
        source={source}
        episode={null}
        stats={null}
        matched={0}
        indexed={1}
        width={80}
        height={20}
      />,
    ).lastFrame();
    expect(f).toContain("no episode matches these filters");
  });
});
