/** A seller turn in the terminal views: what the seller did in the feed line, counts in the panel. */
import { describe, expect, it } from "vitest";
import { adapterFor, episodeSummary } from "../../../cli/tui/records/index.ts";

const turn = (over: Record<string, unknown>) => ({
  env: "market",
  seq: 3,
  agent: "sim:cue-bandit + sim:static",
  player: "sim:cue-bandit",
  instance: "k1-m2",
  round: 4,
  seller: 5,
  name: "The Slate Wren",
  before: { price: 200 },
  price: 200,
  arm: "neutral",
  priceChanged: false,
  descriptionChanged: false,
  endReason: "kept",
  invalidCalls: 0,
  nonResponse: null,
  ...over,
});

describe("market seller turns in the terminal", () => {
  it("a feed line says what the seller did, played by whom", () => {
    const s = episodeSummary(
      turn({ priceChanged: true, price: 185, descriptionChanged: true, arm: "urgency", invalidCalls: 1 }),
    );
    expect(s).toMatchObject({
      seq: 3,
      agent: "sim:cue-bandit",
      outcome: "$200 → $185 · writes urgency",
      nonResponse: false,
    });
    expect(s.detail).toBe("k1-m2 r4 seller 5 · The Slate Wren · 1 refused");
    expect(episodeSummary(turn({})).outcome).toBe("kept");
    expect(
      episodeSummary(
        turn({ endReason: "invalid", nonResponse: { reason: "2 messages without a valid call", raw: "" } }),
      ),
    ).toMatchObject({
      outcome: "no valid call",
      nonResponse: true,
    });
  });

  it("the running panel counts changes, refusals and the arms written", () => {
    const a = adapterFor("market");
    const s = a.stats.init();
    a.stats.add(s, turn({ endReason: "changed", descriptionChanged: true, arm: "social-proof" }));
    a.stats.add(s, turn({ endReason: "changed", priceChanged: true, invalidCalls: 2 }));
    a.stats.add(s, turn({}));
    expect(a.stats.view(s, null).lines).toEqual([
      { label: "turns", value: "3 (2 changed the listing, 1 the price)" },
      { label: "calls refused", value: "2" },
      { label: "descriptions written", value: "social-proof 1" },
    ]);
  });
});
