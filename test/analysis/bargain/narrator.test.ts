import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { MeteredAgent } from "../../../agents/bargain/metered.ts";
import { LlmNarrator, TemplateNarrator } from "../../../agents/bargain/narrator.ts";
import { PAPER_SCHEDULE } from "../../../agents/bargain/offer-generator.ts";
import { OgNarratorBuyer } from "../../../agents/bargain/og-narrator.ts";
import { RULE_PRESETS } from "../../../agents/bargain/presets.ts";
import { LlmSettingsSchema } from "../../../agents/llm/index.ts";
import { analyzeBargain, narratorUse, type SessionInput } from "../../../analysis/bargain/index.ts";
import { bargainAnalyzer, bargainHeadline } from "../../../cli/analyzers/bargain.ts";
import { defaultPriceHistoryCatalog } from "../../../datasets/price-history/index.ts";
import { bargainEnvironment } from "../../../environments/bargain/environment.ts";
import { type BargainTrialRecord, bargainTrialRecord } from "../../../environments/bargain/record.ts";
import { buildBargainTasks } from "../../../environments/bargain/scenarios.ts";
import type { BargainOutcome, BargainView } from "../../../environments/bargain/types.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Agent } from "../../../environments/kernel/types.ts";

const SELLER = "rule:boulware";
const tasks = buildBargainTasks({ scenarios: 6 }, defaultPriceHistoryCatalog());

/** A chat model that answers `usable(call)` with a Sentences line and otherwise with off-format text. */
function chat(usable: (call: number) => boolean) {
  let calls = 0;
  return {
    invoke: async () =>
      new AIMessage(usable(calls++) ? 'Final Role: "BUYER"\nSentences: "Let me think about it."' : "Sure!"),
  };
}

/** Sessions of one OG buyer against the Boulware seller, recorded as the runner records them. */
async function sessions(
  buyer: string,
  narrator: TemplateNarrator | LlmNarrator,
): Promise<BargainTrialRecord[]> {
  const players = {
    buyer: new MeteredAgent(new OgNarratorBuyer(buyer, PAPER_SCHEDULE, narrator) as Agent<unknown, unknown>),
    seller: new MeteredAgent(RULE_PRESETS.boulware!.make(SELLER) as Agent<unknown, unknown>),
  } as Record<string, Agent<BargainView, unknown>>;
  const out: BargainTrialRecord[] = [];
  for (const [seq, task] of tasks.entries()) {
    const r = await runEpisode<BargainOutcome>(bargainEnvironment.machine, { task }, players, {
      rng: createRng(task.taskId),
      trialKey: task.taskId,
      replicate: 0,
    });
    out.push(
      bargainTrialRecord({
        run: "r",
        trialKey: `${buyer}|${task.taskId}`,
        seq,
        agent: `${buyer} vs ${SELLER}`,
        replicate: 0,
        task,
        outcome: r.output,
        usage: r.usage,
      }),
    );
  }
  return out;
}

const llm = (model: string, usable: (call: number) => boolean) =>
  new LlmNarrator(LlmSettingsSchema.parse({ model, temperature: 0.3, maxRetries: 0 }), {
    chat: chat(usable),
  });
const buyerTurns = (rs: BargainTrialRecord[]) =>
  rs.reduce((n, r) => n + r.transcript.filter((m) => m.role === "buyer").length, 0);

describe("narrator fallbacks, counted from the trial records", () => {
  it("counts every turn of a narrator that never gives a usable sentence, and says the results are the template's", async () => {
    const mute = await sessions(
      "og-narrator:openai:mute",
      llm("mute", () => false),
    );
    const template = await sessions("og-narrator", new TemplateNarrator());
    const turns = buyerTurns(mute);
    expect(turns).toBeGreaterThan(tasks.length);
    for (const r of mute) {
      const n = r.transcript.filter((m) => m.role === "buyer").length;
      expect(narratorUse(r)).toEqual({ turns: n, fallbacks: n });
    }
    // The template narrator has nothing to fall back from.
    for (const r of template) expect(narratorUse(r)).toBeNull();

    const a = analyzeBargain([...mute, ...template] as SessionInput[], { resamples: 50, seed: "s" });
    const byBuyer = Object.fromEntries(a.byBuyer.map((b) => [b.buyer, b]));
    expect(byBuyer["og-narrator:openai:mute"]).toMatchObject({
      narratorTurns: turns,
      narratorFallbacks: turns,
    });
    expect(byBuyer["og-narrator:openai:mute"]!.summary.ALL.narrator).toEqual({ turns, fallbacks: turns });
    expect(byBuyer["og-narrator"]).toMatchObject({ narratorTurns: null, narratorFallbacks: null });
    // Same generator, same moves: the "LLM" buyer's deal rate is the template buyer's.
    expect(byBuyer["og-narrator:openai:mute"]!.summary.ALL.dealRateValid).toBe(
      byBuyer["og-narrator"]!.summary.ALL.dealRateValid,
    );
    expect(a.notes).toEqual([
      `og-narrator:openai:mute: all ${turns} narrator turns fell back to the template line (openai:mute gave no usable sentence), so these results are the template narrator's, not openai:mute's.`,
    ]);

    const h = bargainHeadline(a);
    const row = h.lines.find((l) => l.startsWith("og-narrator:openai:mute "))!;
    expect(
      h.lines.some((l) => /buyer +sessions +deal rate \(valid\) +buyer SNP +narrator fallbacks/.test(l)),
    ).toBe(true);
    expect(row).toMatch(new RegExp(`\\d+\\.\\d% .* ${turns} of ${turns} turns \\(100\\.0%\\)$`));
    expect(h.lines.find((l) => l.startsWith("og-narrator "))).not.toMatch(/turns/);
    expect(h.lines.at(-1)).toBe(a.notes[0]);
    expect(h.json).toMatchObject({
      buyers: [
        { buyer: "og-narrator:openai:mute", narratorTurns: turns, narratorFallbacks: turns },
        { buyer: "og-narrator", narratorTurns: null, narratorFallbacks: null },
      ],
    });
  });

  it("counts a narrator that falls back on some turns, without calling the results the template's", async () => {
    // Unusable for the first three calls only: the very first turn falls back, the rest are narrated.
    const some = await sessions(
      "og-narrator:openai:some",
      llm("some", (call) => call >= 3),
    );
    const turns = buyerTurns(some);
    const a = analyzeBargain(some as SessionInput[], { resamples: 50, seed: "s" });
    expect(a.byBuyer[0]).toMatchObject({ narratorTurns: turns, narratorFallbacks: 1 });
    expect(a.notes).toEqual([]);
    expect(bargainHeadline(a).lines.join("\n")).toContain(
      `1 of ${turns} turns (${((100 * 1) / turns).toFixed(1)}%)`,
    );
  });

  it("analyze shows the count beside the per-buyer deal rates and the sentence at the top; a run without an LLM narrator shows neither", async () => {
    const mute = await sessions(
      "og-narrator:openai:mute",
      llm("mute", () => false),
    );
    const template = await sessions("og-narrator", new TemplateNarrator());
    const analyze = (records: BargainTrialRecord[]) =>
      bargainAnalyzer.analyze({
        run: { id: "r" } as never,
        store: null as never,
        records: () => records as unknown as Record<string, unknown>[],
        options: { pairedResamples: "50" },
      }) as Awaited<ReturnType<typeof bargainAnalyzer.analyze>>;
    const text = (await analyze([...mute, ...template])).text;
    const turns = buyerTurns(mute);
    expect(text.split("\n")[2]).toContain("these results are the template narrator's, not openai:mute's.");
    const perBuyer = text.slice(text.indexOf("Per buyer, all sellers pooled"));
    expect(perBuyer).toMatch(/narrator fallbacks/);
    expect(perBuyer).toMatch(
      new RegExp(`og-narrator:openai:mute +ALL .* ${turns} of ${turns} turns \\(100\\.0%\\)`),
    );
    expect(perBuyer).toMatch(/og-narrator +ALL .* –\n/);
    const plain = (await analyze(template)).text;
    expect(plain).not.toMatch(/narrator fallbacks|template narrator's/);
  });
});
