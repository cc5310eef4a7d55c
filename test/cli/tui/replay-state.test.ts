import { describe, expect, it } from "vitest";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import type { ReplaySource } from "../../../cli/tui/replay/source.ts";
import {
  type FilterChoice,
  initialReplay,
  PAGE,
  type ReplayAction,
  type ReplayState,
  replayReducer,
  WINDOW,
} from "../../../cli/tui/state/replay.ts";
import { longBargainRecord } from "./fixtures.ts";
import { memorySource } from "./memory-source.ts";

function bargainRecords(n: number): TrialRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const r = longBargainRecord(2 + (i % 3), i) as Record<string, unknown>;
    return { ...r, agent: i % 2 ? "sim:llm vs rule:linear" : "og-narrator vs rule:linear" };
  });
}

const FILTERS: FilterChoice[] = [
  {
    key: "agent",
    hotkey: "a",
    label: "agent",
    values: [null, "og-narrator vs rule:linear", "sim:llm vs rule:linear"],
  },
  { key: "nonResponse", hotkey: "n", label: "non-response", values: [null, "yes", "no"] },
];

/** Runs actions, fulfilling every page request from the source the way the app does. */
function drive(source: ReplaySource, s: ReplayState, ...actions: ReplayAction[]): ReplayState {
  let state = s;
  const settle = () => {
    for (let i = 0; state.request && i < 50; i++) {
      const req = state.request;
      const page =
        req.kind === "first"
          ? source.after(-1, PAGE, state.filter)
          : req.kind === "last"
            ? source.before(Number.MAX_SAFE_INTEGER, PAGE, state.filter)
            : req.kind === "at"
              ? source.after(req.seq - 1, PAGE, state.filter)
              : req.kind === "after"
                ? source.after(req.seq, PAGE, state.filter)
                : source.before(req.seq, PAGE, state.filter);
      state = replayReducer(state, { type: "loaded", request: req, page });
    }
  };
  settle();
  for (const a of actions) {
    state = replayReducer(state, a);
    settle();
  }
  return state;
}

const key = (k: Extract<ReplayAction, { type: "key" }>["key"]): ReplayAction => ({ type: "key", key: k });

describe("replay state", () => {
  const source = memorySource(bargainRecords(1_000));

  it("loads the first page, moves, and pages on past the end of the window", () => {
    let s = drive(source, initialReplay(FILTERS));
    expect(s.items).toHaveLength(PAGE);
    expect(s.items[0]!.seq).toBe(0);
    s = drive(source, s, ...Array<ReplayAction>(PAGE + 5).fill(key("down")));
    expect(s.items[s.cursor]!.seq).toBe(PAGE + 5);
    expect(s.items.length).toBe(2 * PAGE);
  });

  it("keeps a bounded window, and reloads what it dropped on the way back", () => {
    let s = drive(source, initialReplay(FILTERS), ...Array<ReplayAction>(WINDOW + 250).fill(key("pageDown")));
    expect(s.items[s.cursor]!.seq).toBe(999);
    expect(s.items.length).toBeLessThanOrEqual(WINDOW);
    expect(s.moreBefore).toBe(true);
    s = drive(source, s, key("home"));
    expect(s.items[s.cursor]!.seq).toBe(0);
    s = drive(source, s, key("end"));
    expect(s.items[s.cursor]!.seq).toBe(999);
    s = drive(source, s, ...Array<ReplayAction>(150).fill(key("up")));
    expect(s.items[s.cursor]!.seq).toBe(849);
  });

  it("filters by agent (cycling its values) and clears", () => {
    let s = drive(
      source,
      initialReplay(FILTERS),
      { type: "cycle", hotkey: "a" },
      { type: "cycle", hotkey: "a" },
    );
    expect(s.filter.agent).toBe("sim:llm vs rule:linear");
    expect(s.items.every((i) => i.summary.agent === "sim:llm vs rule:linear")).toBe(true);
    expect(s.items[0]!.seq).toBe(1);
    s = drive(source, s, { type: "cycle", hotkey: "a" });
    expect(s.filter.agent).toBeNull();
    s = drive(source, s, { type: "cycle", hotkey: "n" }, key("clear"));
    expect(s.filter).toEqual({ agent: null, nonResponse: null });
  });

  it("opens an episode complete, steps its turns, plays and moves on to the next", () => {
    let s = drive(source, initialReplay(FILTERS), key("down"), key("enter"));
    expect(s.screen).toBe("episode");
    const steps = s.items[1]!.summary.steps;
    expect(s.open).toEqual({ seq: 1, steps, step: steps, playing: false });
    s = drive(source, s, key("left"), key("left"));
    expect(s.open!.step).toBe(steps - 2);
    s = drive(source, s, key("right"), key("right"), key("right"));
    expect(s.open!.step).toBe(steps);
    s = drive(source, s, key("space"));
    expect(s.open).toMatchObject({ step: 0, playing: true });
    s = drive(source, s, ...Array<ReplayAction>(steps).fill({ type: "tick" }));
    expect(s.open).toMatchObject({ seq: 1, step: steps, playing: true });
    s = drive(source, s, { type: "tick" });
    expect(s.open).toMatchObject({ seq: 2, step: 0, playing: true });
    s = drive(source, s, key("space"));
    expect(s.open!.playing).toBe(false);
    s = drive(source, s, key("down"));
    expect(s.open!.seq).toBe(3);
    s = drive(source, s, key("back"));
    expect(s.screen).toBe("list");
    expect(s.items[s.cursor]!.seq).toBe(3);
  });

  it("opens a given episode directly, with the list around it", () => {
    const s = drive(source, initialReplay(FILTERS, {}, 500));
    expect(s.screen).toBe("episode");
    expect(s.open!.seq).toBe(500);
    const back = drive(source, s, key("up"));
    expect(back.open!.seq).toBe(499);
  });

  it("toggles help and quits", () => {
    let s = drive(source, initialReplay(FILTERS), key("help"));
    expect(s.help).toBe(true);
    s = drive(source, s, key("back"));
    expect(s.help).toBe(false);
    expect(drive(source, s, key("quit")).quit).toBe(true);
  });

  it("an empty result says so and goes nowhere", () => {
    const empty = memorySource([]);
    const s = drive(empty, initialReplay(FILTERS), key("down"), key("enter"), key("space"));
    expect(s.items).toEqual([]);
    expect(s.screen).toBe("list");
    expect(s.moreAfter).toBe(false);
  });
});

describe("replay state and late pages", () => {
  it("drops a page that answers a request the state no longer makes", () => {
    const source = memorySource(bargainRecords(50));
    const s0 = initialReplay(FILTERS);
    const stale = s0.request!;
    const s1 = replayReducer(s0, { type: "cycle", hotkey: "a" });
    const s2 = replayReducer(s1, { type: "loaded", request: stale, page: source.after(-1, PAGE, {}) });
    expect(s2).toBe(s1);
    expect(s2.request).not.toBeNull();
  });
});
