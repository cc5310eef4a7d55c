import { beforeAll, describe, expect, it } from "vitest";
import { scoreSession } from "../../../analysis/bargain/session.ts";
import {
  adapterFor,
  episodeModel,
  episodeSummary,
  type TrialRecord,
} from "../../../cli/tui/records/index.ts";
import { renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import type { ChoiceTrialRecord } from "../../../environments/choice/record.ts";
import { formatDollars } from "../../../environments/elicit/prompt.ts";
import { fixtureRun, longBargainRecord } from "./fixtures.ts";

const runs: Record<string, { records: TrialRecord[]; tasks: (seq: number) => unknown }> = {};

beforeAll(async () => {
  for (const env of ["choice", "bargain", "cue", "elicit"]) {
    const r = await fixtureRun(env, 40);
    runs[env] = {
      records: r.records,
      tasks: (seq) => r.plan.tasks[Math.floor(seq / (r.plan.agents.length * r.plan.replicates))],
    };
    r.store.close();
  }
});

describe("episode models from the environments' own records", () => {
  it("choice: the cards are the agent's prompt to the character, with the booked slot", () => {
    const rec = runs.choice!.records[0]! as unknown as ChoiceTrialRecord;
    const m = episodeModel(rec as unknown as TrialRecord);
    if (m.kind !== "choice") throw new Error(`got ${m.kind}`);
    const [, user] = renderChoiceMessages(rec.options, rec.variant);
    const prompt = [m.intro, ...m.cards.map((c) => c.lines.join("\n")), m.instruction].join("\n\n");
    expect(prompt).toBe(user!.content);
    expect(m.cards.map((c) => c.letter)).toEqual(["A", "B"]);
    expect(m.chosenSlot).toBe(rec.chosenSlot);
    expect(m.steps).toBe(rec.replies.length);
  });

  it("bargain: the dialogue in paper actions, and profits as the bargaining analysis scores them", () => {
    const deal = runs.bargain!.records.find((r) => r.outcome === "deal")!;
    const m = episodeModel(deal);
    if (m.kind !== "bargain") throw new Error(`got ${m.kind}`);
    expect(m.messages[0]).toMatchObject({ turn: 1, role: "buyer", action: "BUY" });
    expect(m.messages.some((x) => x.role === "seller" && x.action === "SELL")).toBe(true);
    expect(m.messages.at(-1)!.action).toBe("DEAL");
    const scored = scoreSession(deal as never);
    expect(m.profits).toEqual({
      buyer: scored.buyerProfit,
      seller: scored.sellerProfit,
      normalizedBuyer: scored.buyerNormalized,
      normalizedSeller: scored.sellerNormalized,
    });
    expect(m.profits!.normalizedBuyer + m.profits!.normalizedSeller).toBeCloseTo(1, 9);
  });

  it("bargain: a record that lost a field falls back to the generic view, naming the field", () => {
    const { transcript: _, ...broken } = longBargainRecord();
    const m = episodeModel(broken);
    expect(m.kind).toBe("generic");
    if (m.kind === "generic") expect(m.note).toContain("transcript");
  });

  it("cue: both cards, the cued one marked, the answer", () => {
    const rec = runs.cue!.records[0]!;
    const m = episodeModel(rec);
    if (m.kind !== "cue") throw new Error(`got ${m.kind}`);
    expect(m.cards).toHaveLength(2);
    expect(m.cards[0]!.lines[0]).toBe("Option A");
    expect(m.cards[0]!.lines.some((l) => l.startsWith("Price: $"))).toBe(true);
    expect(m.cards.filter((c) => c.cued).length).toBeLessThanOrEqual(2);
    expect(m.chosenSlot).toBe(rec.chosenSlot);
  });

  it("elicit: the question as the agent read it when the task is at hand, ids otherwise", () => {
    const rec = runs.elicit!.records[0]!;
    const withTask = episodeModel(rec, runs.elicit!.tasks(Number(rec.seq)));
    const bare = episodeModel(rec);
    if (withTask.kind !== "elicit" || bare.kind !== "elicit") throw new Error("not elicit");
    const source = rec.source as { price: number } | null;
    if (source) expect(withTask.question.join("\n")).toContain(formatDollars(source.price));
    expect(withTask.question.length).toBeGreaterThan(bare.question.length);
    expect(bare.question.join(" ")).toMatch(rec.queryType === "item" ? /item \S+/ : /offer A: item/);
    expect(withTask.value).toBe(rec.value);
  });

  it("an environment with no view gets its fields listed", () => {
    const m = episodeModel({ env: "auction", seq: 3, agent: "x", lot: 12, bid: { usd: 5 } });
    expect(m.kind).toBe("generic");
    if (m.kind === "generic")
      expect(m.fields).toEqual([
        { key: "lot", value: "12" },
        { key: "bid", value: '{"usd":5}' },
      ]);
  });
});

describe("summaries and running statistics", () => {
  it("summarise every environment's record in one line with its step count", () => {
    for (const env of ["choice", "bargain", "cue", "elicit"]) {
      for (const r of runs[env]!.records) {
        const s = episodeSummary(r);
        expect(s.seq).toBe(r.seq);
        expect(s.outcome.length).toBeGreaterThan(0);
        expect(s.steps).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("choice: first-slot rate and shares per task kind, counted by hand", () => {
    const a = adapterFor("choice");
    const s = a.stats.init();
    const recs = runs.choice!.records;
    for (const r of recs) a.stats.add(s, r);
    const binary = recs.filter((r) => r.kind === "binary" && r.chosenSlot !== null);
    const firstA = binary.filter((r) => r.chosenSlot === 0).length / binary.length;
    const view = a.stats.view(s, null);
    const first = view.lines.find((l) => l.label === "first-slot rate")!.value;
    expect(first).toContain(`binary ${(100 * firstA).toFixed(1)}%`);
    const copy = a.stats.clone(s);
    a.stats.add(copy, recs[0]!);
    expect(a.stats.view(s, null)).toEqual(view);
  });

  it("bargain: deal rates per MI/CI over valid sessions and SNP as the sum of normalized profits", () => {
    const a = adapterFor("bargain");
    const s = a.stats.init();
    const recs = runs.bargain!.records;
    for (const r of recs) a.stats.add(s, r);
    const scored = recs.map((r) => scoreSession(r as never));
    const snp = scored.reduce((x, r) => x + (r.buyerNormalized ?? 0), 0);
    const lines = Object.fromEntries(a.stats.view(s, null).lines.map((l) => [l.label, l.value]));
    expect(lines.SNP).toContain(`buyer ${snp.toFixed(2)}`);
    const mi = scored.filter((r) => r.valid && r.interest === "MI");
    expect(lines["deal rate"]).toContain(
      `MI ${((100 * mi.filter((r) => r.deal).length) / mi.length).toFixed(1)}%`,
    );
  });

  it("elicit: the running mean of the current query", () => {
    const a = adapterFor("elicit");
    const s = a.stats.init();
    const recs = runs.elicit!.records;
    for (const r of recs) a.stats.add(s, r);
    const q = recs[0]!;
    const same = recs.filter((r) => r.queryId === q.queryId && r.group === q.group && r.value !== null);
    const mean = same.reduce((x, r) => x + Number(r.value), 0) / same.length;
    const view = a.stats.view(s, q);
    expect(view.lines.find((l) => l.label.startsWith("this query"))!.value).toContain(
      `$${mean.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
  });
});
