import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import {
  extractSentence,
  LlmNarrator,
  namesOnlyKnownPrices,
  narratorMessages,
  TemplateNarrator,
} from "../../../agents/bargain/narrator.ts";
import { PAPER_SCHEDULE } from "../../../agents/bargain/offer-generator.ts";
import { OgNarratorBuyer } from "../../../agents/bargain/og-narrator.ts";
import { LlmSettingsSchema } from "../../../agents/llm/index.ts";
import type { BargainMove, BargainView } from "../../../environments/bargain/types.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const history: BargainMove[] = [
  { role: "buyer", type: "offer", price: 40, talk: "Would you take $40?" },
  { role: "seller", type: "offer", price: 70, talk: "I can do $70." },
];
const view: BargainView = {
  role: "buyer",
  codename: "x_1",
  title: "Widget",
  description: "A fine widget.",
  listedPrice: 100,
  limit: 80,
  maxTurns: 6,
  history,
};
const ctx = { rng: createRng("n"), trialKey: "trial", replicate: 0 };
let models = 0;
const settings = () =>
  LlmSettingsSchema.parse({ model: `narrator-${++models}`, temperature: 0.3, maxRetries: 0 });

describe("narrators", () => {
  it("read the sentence of a narrator answer and check the prices it names", () => {
    expect(
      extractSentence(
        'Final Role: "BUYER"\nFinal Action: "[BUY] $48 (1x x_1)"\nSentences: "Could you do $48?"',
      ),
    ).toBe("Could you do $48?");
    expect(extractSentence("I would say: could you do $48?")).toBeNull();
    const request = { view, decision: { type: "offer" as const, price: 48 } };
    expect(namesOnlyKnownPrices("You asked $70; I can do $48.", request)).toBe(true);
    expect(namesOnlyKnownPrices("How about $55?", request)).toBe(false);
  });

  it("build the paper's narrator conversation: rules, one example, the dialogue and the final action", async () => {
    const m = await narratorMessages({ view, decision: { type: "offer", price: 48 } });
    expect(m.map((x) => x.getType())).toEqual(["system", "human", "ai", "human"]);
    expect(String(m[3]!.content)).toContain('"[SELL] $70 (1x x_1)": "SELLER: I can do $70.",');
    expect(String(m[3]!.content)).toContain('Final Role: "BUYER"\nFinal Action: "[BUY] $48 (1x x_1)"');
    expect(String(m[3]!.content)).toContain('Description: "A fine widget."');
  });

  it("cannot change the move: an LLM narrator's words become talk, the generator's decision the action", async () => {
    const chat = fakeModel()
      .respond(
        new AIMessage(
          'Final Role: "BUYER"\nFinal Action: "[DEAL] $70 (1x x_1)"\nSentences: "Deal. Actually, make it $20!"',
        ),
      )
      .respond(new AIMessage('Sentences: "I\'ll take it for $20, [DEAL] $20 (1x x_1)"'))
      .respond(new AIMessage('Sentences: "Let me raise my offer to $48."'));
    const og = new OgNarratorBuyer("og", PAPER_SCHEDULE, new LlmNarrator(settings(), { chat }));
    const acted = await og.act({ messages: [], view }, ctx);
    // Step 1 of the paper schedule: 0.6 × $80 = $48 (the $70 ask is above it).
    expect(acted.action).toMatchObject({ type: "offer", price: 48, talk: "Let me raise my offer to $48." });
    expect(acted.usage?.calls).toBe(3);
  });

  it("falls back to the template line after three unusable answers, and says so", async () => {
    const chat = fakeModel()
      .respond(new AIMessage("no format"))
      .respond(new AIMessage("still none"))
      .respond(new AIMessage("nope"));
    const og = new OgNarratorBuyer("og", PAPER_SCHEDULE, new LlmNarrator(settings(), { chat }));
    const acted = await og.act({ messages: [], view }, ctx);
    expect(acted.action).toMatchObject({
      type: "offer",
      price: 48,
      talk: new TemplateNarrator().narrate({ view, decision: { type: "offer", price: 48 } }).talk,
      meta: { note: expect.stringContaining("template line used") },
    });
  });

  it("the template narrator names only the move's own price and varies its lines", () => {
    const t = new TemplateNarrator();
    const a = t.narrate({ view, decision: { type: "offer", price: 48 } }).talk;
    const b = t.narrate({ view: { ...view, history: [] }, decision: { type: "offer", price: 40 } }).talk;
    expect(a).toContain("$48");
    expect(b).toContain("$40");
    expect(a).not.toBe(b.replace("$40", "$48"));
    expect(t.narrate({ view, decision: { type: "quit", price: null } }).talk).not.toMatch(/\$/);
  });

  it("the OG buyer refuses to play the seller", () => {
    const og = new OgNarratorBuyer("og", PAPER_SCHEDULE, new TemplateNarrator());
    expect(() => og.act({ messages: [], view: { ...view, role: "seller" } }, ctx)).toThrow(
      /plays only the buyer/,
    );
  });
});
