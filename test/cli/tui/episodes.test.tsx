import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EpisodeView } from "../../../cli/tui/components/EpisodeView.tsx";
import { ladderLayout } from "../../../cli/tui/components/ladder.ts";
import { type EpisodeModel, episodeModel, type TrialRecord } from "../../../cli/tui/records/index.ts";
import { fixtureRun, lines, longBargainRecord, widest } from "./fixtures.ts";

const records: Record<string, TrialRecord[]> = {};
const tasks: Record<string, (seq: number) => unknown> = {};

beforeAll(async () => {
  for (const env of ["choice", "cue", "elicit"]) {
    const r = await fixtureRun(env, env === "choice" ? 30 : 8);
    records[env] = r.records;
    tasks[env] = (seq) => r.plan.tasks[Math.floor(seq / (r.plan.agents.length * r.plan.replicates))];
    r.store.close();
  }
});
afterEach(() => cleanup());

/** Renders inside a box of the given width, as a terminal of that many columns would. */
function frame(node: ReactNode, width: number): string {
  const { lastFrame } = render(<Box width={width}>{node}</Box>);
  return lastFrame() ?? "";
}

function view(
  model: EpisodeModel,
  o: { step?: number; width?: number; height?: number; compact?: boolean } = {},
) {
  const width = o.width ?? 100;
  return frame(
    <EpisodeView
      model={model}
      step={o.step ?? model.steps}
      width={width}
      height={o.height ?? 40}
      compact={o.compact}
    />,
    width,
  );
}

describe("bargaining episode view", () => {
  const long = episodeModel(longBargainRecord(20));

  it("shows a long dialogue's latest turns, the price ladder with B and C, and the outcome", () => {
    const f = view(long, { width: 100, height: 34 });
    expect(f).toContain("episode #41 · og-narrator vs rule:boulware · bargain · step 40/40");
    expect(f).toMatch(/… \d+ earlier lines/);
    expect(f).toContain("t20  seller DEAL $136.00");
    expect(f).toContain("B $160.00");
    expect(f).toContain("C $90.00");
    expect(f).toContain("deal at $136.00");
    expect(f).toMatch(/profit buyer \$24\.00 \(normalized 0\.343\) · seller \$46\.00 \(normalized 0\.657\)/);
    expect(lines(f).length).toBeLessThanOrEqual(35);
  });

  it("fits an 80-column terminal", () => {
    const f = view(long, { width: 80, height: 30 });
    expect(widest(f)).toBeLessThanOrEqual(80);
    expect(f).toContain("B $160.00");
    expect(f).toContain("deal at $136.00");
  });

  it("steps: only the messages so far, and no outcome yet", () => {
    const f = view(long, { step: 3 });
    expect(f).toContain("t1   buyer  BUY $60.00");
    expect(f).toContain("t1   seller SELL $200.00");
    expect(f).toContain("t2   buyer  BUY $64.00");
    expect(f).not.toContain("t2   seller");
    expect(f).not.toContain("deal at");
    expect(f).toContain("message 3 of 40");
  });

  it("lays the ladder out on fixed axes: offers rise toward B, asks fall, the deal marked", () => {
    if (long.kind !== "bargain") throw new Error("not bargain");
    const l = ladderLayout({
      messages: long.messages,
      shown: 40,
      budget: 160,
      cost: 90,
      width: 80,
      height: 8,
    });
    const text = l.rows.map((r) => r.map((s) => s.text).join(""));
    expect(text).toHaveLength(8);
    expect(text[0]).toContain("$200.00");
    expect(text.find((t) => t.startsWith("B $160.00"))).toContain("─");
    expect(text.find((t) => t.startsWith(" C $90.00") || t.startsWith("C $90.00"))).toContain("┄");
    expect(text.join("").split("D").length - 1).toBe(1);
    expect(l.axis).toMatch(/turn 1/);
    const half = ladderLayout({
      messages: long.messages,
      shown: 4,
      budget: 160,
      cost: 90,
      width: 80,
      height: 8,
    });
    expect(
      half.rows.flat().filter((s) => s.kind === "buyer" || s.kind === "seller").length,
    ).toBeLessThanOrEqual(4);
    const narrow = ladderLayout({
      messages: long.messages,
      shown: 40,
      budget: 160,
      cost: 90,
      width: 20,
      height: 5,
    });
    expect(narrow.hiddenTurns).toBeGreaterThan(0);
    expect(Math.max(...narrow.rows.map((r) => r.map((s) => s.text).join("").length))).toBeLessThanOrEqual(20);
  });

  it("says why a session was invalid and by whom", () => {
    const rec = {
      ...longBargainRecord(2),
      outcome: "invalid",
      endedBy: "fake-deal",
      invalidSide: "buyer",
      dealPrice: null,
    };
    const f = view(episodeModel(rec));
    expect(f).toContain("invalid: fake-deal by the buyer");
  });
});

describe("catalog choice episode view", () => {
  it("shows the option cards exactly as the agent read them, the answer and the slot", () => {
    const rec = records.choice!.find((r) => r.kind === "ternary") ?? records.choice![0]!;
    const m = episodeModel(rec);
    if (m.kind !== "choice") throw new Error("not choice");
    const f = view(m, { width: 99, height: 60 });
    expect(f).toContain("Option A");
    expect(f).toContain("Price per night: $");
    expect(f).toContain(m.cards[0]!.lines[1]!);
    expect(f).toContain(`answer 1: ${m.replies[0]}`);
    expect(f).toContain("◀ booked");
    expect(f).toContain(
      `booked ${m.cards[m.chosenSlot!]!.letter} (slot ${m.chosenSlot! + 1} of ${m.cards.length})`,
    );
  });

  it("fits 80 columns, in cards and compact", () => {
    const m = episodeModel(records.choice![0]!);
    for (const compact of [false, true]) {
      const f = view(m, { width: 80, height: 50, compact });
      expect(widest(f)).toBeLessThanOrEqual(80);
      expect(f).toContain("booked");
    }
    expect(view(m, { width: 80, compact: true })).toMatch(/▶ [AB] {2}/);
  });

  it("shows a non-response with its reason", () => {
    const rec = {
      ...records.choice![0]!,
      chosenSlot: null,
      nonResponse: { reason: "no letter", raw: "hmm" },
      replies: ["hmm"],
    };
    expect(view(episodeModel(rec))).toContain("non-response: no letter");
  });
});

describe("cue, elicitation and generic episode views", () => {
  it("cue: two cards as shown, the cued one marked, the choice", () => {
    const rec = records.cue![0]!;
    const f = view(episodeModel(rec), { width: 100, height: 40 });
    expect(f).toContain("Option A");
    expect(f).toContain("Option B");
    expect(f).toContain("Price: $");
    expect(f).toContain(`condition ${rec.condition}`);
    expect(f).toMatch(/chose [AB] \(slot [12]\)/);
    expect(widest(view(episodeModel(rec), { width: 80, height: 30 }))).toBeLessThanOrEqual(80);
  });

  it("elicitation: the question, the answer and the parsed number", () => {
    const rec = records.elicit![0]!;
    const f = view(episodeModel(rec, tasks.elicit!(Number(rec.seq))), { width: 100, height: 40 });
    expect(f).toContain(`query ${rec.queryId}`);
    expect(f).toContain(`answer: ${rec.raw}`);
    expect(f).toContain("parsed number: $");
    expect(widest(view(episodeModel(rec), { width: 80 }))).toBeLessThanOrEqual(80);
  });

  it("generic: the fields of a record without a view, and why a known one fell back", () => {
    const f = view(episodeModel({ env: "auction", seq: 9, agent: "x", lot: 12 }));
    expect(f).toContain("lot: 12");
    const broken = view(episodeModel({ env: "bargain", seq: 9, agent: "x" }), { width: 80 });
    expect(broken).toContain("no bargain view for this record");
  });
});
