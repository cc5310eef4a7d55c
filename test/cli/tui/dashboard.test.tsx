import { Writable } from "node:stream";
import { cleanup, render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Dashboard } from "../../../cli/tui/components/Dashboard.tsx";
import { feedText } from "../../../cli/tui/components/feed.ts";
import { agentColumnWidth } from "../../../cli/tui/format.ts";
import { inkRunView } from "../../../cli/tui/live/ink-view.ts";
import { LiveApp, type LiveCommands } from "../../../cli/tui/live/LiveApp.tsx";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import { DashboardState, type DashboardView, DEFAULT_TIMING } from "../../../cli/tui/state/dashboard.ts";
import { narratorFallbackNote } from "../../../environments/bargain/record.ts";
import type { RunResult } from "../../../environments/runner/execute.ts";
import { fixtureRun, lines, longBargainRecord, until, widest } from "./fixtures.ts";

let choice: TrialRecord[] = [];
beforeAll(async () => {
  const r = await fixtureRun("choice", 40, { agent: "sim:steep,sim:locked" });
  choice = r.records;
  r.store.close();
});
afterEach(() => cleanup());
const tick = () => new Promise((r) => setTimeout(r, 30));
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes
const ESCAPE = /\u001b/;

function choiceView(agents = ["sim:steep", "sim:locked"], now = 4000): DashboardView {
  const s = new DashboardState({
    runId: "choice-abc",
    env: "choice",
    target: 80,
    agents: agents.map((agent) => ({ agent, total: 40, storedBefore: 0 })),
    startedAt: 0,
    costOf: (_a, u) => u.inputTokens * 1e-6,
  });
  for (const r of choice)
    s.trial(r.agent === "sim:steep" ? 0 : 1, {
      ...r,
      usage: { ...(r.usage as object), inputTokens: 1500, outputTokens: 3 },
    });
  s.error("#7 sim:locked: agent error: 503 Service Unavailable");
  s.progress({ stored: 40, elapsedMs: now });
  return s.snapshot(now);
}

describe("run dashboard", () => {
  it("shows totals, a progress row per agent with tokens and cost, errors, an episode and its statistics", () => {
    const { lastFrame } = render(<Dashboard view={choiceView()} width={99} episodeHeight={12} />);
    const f = lastFrame()!;
    expect(f).toContain("bazaar run choice-abc · choice · 40/80 stored · 10 trials/s · ETA 4s");
    expect(f).toMatch(/sim:steep +█+░+ 20\/40 · 5\/s · ETA 4s/);
    expect(f).toContain("tokens 30.0k in / 60 out · cost $0.03");
    expect(f).toContain("1 error:");
    expect(f).toContain("503 Service Unavailable");
    expect(f).toMatch(/── episode #\d+ · sim:(steep|locked) · choice/);
    expect(f).toContain("first-slot rate");
    expect(f).toContain("q stop");
    // The feed is not part of the live area: the glue prints it above (LiveApp's `above`).
    expect(f).not.toContain("more finished");
  });

  it("writes the finished-episode feed as lines, coloured only for a terminal that shows colours", () => {
    const feed = choiceView().feed;
    const plain = feedText(feed, 99, false);
    expect(plain.split("\n")).toHaveLength(feed.length);
    expect(plain).toContain("  … 36 more finished");
    expect(plain).toMatch(/^#\d+ +sim:\w+ +[AB] +binary ·/m);
    expect(plain).not.toMatch(ESCAPE);
    expect(widest(feedText(feed, 40, false))).toBeLessThanOrEqual(40);
    // Gray for the count of episodes not listed, as the live area draws it.
    expect(feedText(feed, 99, true).split("\n")[0]).toBe("\u001B[90m  … 36 more finished\u001B[39m");
  });

  it("fits an 80-column terminal", () => {
    const { lastFrame } = render(<Dashboard view={choiceView()} width={80} episodeHeight={10} />);
    expect(widest(lastFrame())).toBeLessThanOrEqual(80);
    // The counts' short names keep the cost on its line.
    expect(lastFrame()).toMatch(/nr \d+ · err 0 · rt 0 · tokens 30\.0k in \/ 60 out · cost \$0\.0300/);
  });

  it("puts each agent on one line when there are many, and sums those beyond the cap", () => {
    const many = ["a1", "a2", "a3", "a4", "a5", "a6"];
    const { lastFrame } = render(
      <Dashboard view={choiceView(many)} width={99} episodeHeight={8} maxAgents={4} />,
    );
    const f = lastFrame()!;
    expect(lines(f).filter((l) => /^a\d +█*░+ /.test(l))).toHaveLength(4);
    expect(f).toContain("… 2 more agents");
    expect(f).toMatch(/a1 .* nr \d+ · err \d+ · rt 0/);
  });

  it("keeps long agent names whole in the progress rows and the feed (up to 40% of the line)", () => {
    const long = ["sim:seller-playing-haggler", "og-narrator:openai:gpt-4o-mini-2024-07-18"];
    const v = choiceView(long);
    const f = render(<Dashboard view={v} width={120} episodeHeight={8} />).lastFrame()!;
    for (const name of long) expect(f).toContain(`${name} `);
    const agentWidth = agentColumnWidth(long, 120);
    expect(agentWidth).toBe(long[1]!.length);
    const feed = feedText(
      v.feed.map((item) =>
        item.kind === "more" ? item : { ...item, summary: { ...item.summary, agent: long[1]! } },
      ),
      119,
      false,
      agentWidth,
    );
    expect(feed).toContain(`${long[1]} `);
    // On a narrow line the column stops at 40% of it, so the outcome still shows.
    expect(agentColumnWidth(long, 60)).toBe(24);
  });

  it("says how the run ended", () => {
    const v = { ...choiceView(), finished: { interrupted: true, failure: null } };
    expect(render(<Dashboard view={v} width={99} episodeHeight={8} />).lastFrame()).toContain(
      "run stopped: run the same command again to resume",
    );
  });
});

describe("bargaining statistics panel", () => {
  const LLM = "og-narrator:openai:mute vs rule:boulware";
  const TEMPLATE = "og-narrator vs rule:boulware";
  /** A session of an LLM-narrator buyer whose buyer messages fell back to the template on `fallbacks` of them. */
  function narrated(seq: number, fallbacks: number): TrialRecord {
    const r = longBargainRecord(6, seq) as Record<string, unknown>;
    let left = fallbacks;
    const transcript = (r.transcript as { role: string }[]).map((m) =>
      m.role === "buyer" && left-- > 0 ? { ...m, note: narratorFallbackNote(3) } : m,
    );
    return { ...r, agent: LLM, buyer: "og-narrator:openai:mute", transcript };
  }
  function bargainView(records: [number, TrialRecord][]): DashboardView {
    const s = new DashboardState({
      runId: "bargain-abc",
      env: "bargain",
      target: 10,
      agents: [LLM, TEMPLATE].map((agent) => ({ agent, total: 5, storedBefore: 0 })),
      startedAt: 0,
    });
    for (const [agent, r] of records) s.trial(agent, r);
    s.progress({ stored: records.length, elapsedMs: 1000 });
    return s.snapshot(1000);
  }

  it("counts an LLM narrator's template fallbacks beside the deal rate, and says when the results are the template's", () => {
    const all = render(
      <Dashboard
        view={bargainView([0, 1, 2].map((i) => [0, narrated(i, 6)]))}
        width={99}
        episodeHeight={12}
      />,
    ).lastFrame()!;
    expect(all).toContain("── running deal rates and profits (og-narrator:openai:mute vs rule:boulware) ──");
    const rows = lines(all);
    const rate = rows.findIndex((l) => l.startsWith("deal rate "));
    expect(rows[rate + 1]).toMatch(
      /^narrator +template line in 18 of 18 turns \(100\.0%\): results are the template's/,
    );

    const some = render(
      <Dashboard
        view={bargainView([0, 1, 2].map((i) => [0, narrated(i, 1)]))}
        width={99}
        episodeHeight={12}
      />,
    ).lastFrame()!;
    expect(some).toMatch(/narrator +template line in 3 of 18 turns \(16\.7%\)\s*$/m);
    expect(widest(some)).toBeLessThanOrEqual(99);
  });

  it("shows nothing about narration for the template narrator", () => {
    const f = render(
      <Dashboard
        view={bargainView([
          [0, narrated(0, 6)],
          [1, longBargainRecord(6, 1)],
        ])}
        width={99}
        episodeHeight={12}
      />,
    ).lastFrame()!;
    expect(f).toContain("── running deal rates and profits (og-narrator vs rule:boulware) ──");
    expect(f).toContain("deal rate");
    expect(f).not.toMatch(/narrator +template line/);
  });
});

describe("LiveApp", () => {
  it("lays out each snapshot it is given and maps keys to commands", async () => {
    const s = new DashboardState({
      runId: "b",
      env: "bargain",
      target: 3,
      agents: [{ agent: "og-narrator vs rule:boulware", total: 3, storedBefore: 0 }],
      startedAt: 0,
    });
    s.trial(0, longBargainRecord(12, 0));
    const calls: string[] = [];
    const commands: LiveCommands = {
      togglePause: () => calls.push("pause"),
      step: (d) => calls.push(`step ${d}`),
      latest: () => calls.push("latest"),
      focus: (d) => calls.push(`focus ${d}`),
      pin: () => calls.push("pin"),
      stop: () => calls.push("stop"),
    };
    const app = render(<LiveApp view={s.snapshot(0)} commands={commands} width={100} episodeHeight={24} />);
    await until(app, "step 0/24");
    s.stepFeatured(5);
    app.rerender(<LiveApp view={s.snapshot(1000)} commands={commands} width={100} episodeHeight={24} />);
    await until(app, "step 5/24 · paused");
    for (const k of [" ", "\u001B[D", "\u001B[C", "n", "q"]) {
      app.stdin.write(k);
      await tick();
    }
    expect(calls).toEqual(["pause", "step -1", "step 1", "latest", "stop"]);
    app.stdin.write("?");
    await until(app, "keys (live run)");
  });

  it("prints the finished-episode feed above the live area, once, as a terminal shows it", async () => {
    const writes: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        writes.push(String(chunk));
        done();
      },
    });
    const stdout = Object.assign(sink, {
      isTTY: true,
      columns: 100,
      rows: 40,
    }) as unknown as NodeJS.WriteStream;
    const plan = {
      runId: "choice-abc",
      env: { name: "choice" },
      agents: [{ label: "sim:steep" }, { label: "sim:locked" }],
      replicates: 1,
      tasks: [],
    };
    const view = inkRunView({
      plan,
      target: 80,
      storedByAgent: new Map(),
      stdout,
      log: () => {},
      onStop: () => {},
      timing: { ...DEFAULT_TIMING, feedMs: 0 },
    });
    for (const r of choice) view.onTrial(r);
    await view.finish({ stored: 40, elapsedMs: 1000, interrupted: false } as RunResult);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes out
    const screen = writes.join("").replace(/\u001B\[[0-9;?]*[A-Za-z]/g, "");
    const more = screen.indexOf("… 36 more finished");
    expect(more).toBeGreaterThanOrEqual(0);
    expect(screen.indexOf("… 36 more finished", more + 1)).toBe(-1);
    expect(screen.slice(more)).toMatch(/#\d+ +sim:\w+ +[AB] +binary ·/);
    // The live area, drawn again below the feed, is the last thing on the screen.
    expect(screen.lastIndexOf("run finished")).toBeGreaterThan(more);
  });
});
