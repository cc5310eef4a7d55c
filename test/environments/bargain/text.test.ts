import { describe, expect, it } from "vitest";
import { parseBargainReply, renderAction, renderMessage } from "../../../environments/bargain/text.ts";

const CODE = "electronics_7";
const reply = (action: string, extra = "") =>
  `Thought: thinking.${extra}\nTalk: Hello there.\nAction: ${action}`;

describe("the paper's Thought/Talk/Action protocol", () => {
  it("reads each side's actions, with commas stripped and money rounded to cents", () => {
    expect(parseBargainReply(reply(`[BUY] $1,234.567 (1x ${CODE})`), "buyer", CODE)).toMatchObject({
      ok: true,
      type: "offer",
      price: 1234.57,
      thought: "thinking.",
      talk: "Hello there.",
    });
    expect(parseBargainReply(reply(`[SELL] $15 (1 ${CODE})`), "seller", CODE)).toMatchObject({
      type: "offer",
      price: 15,
    });
    expect(parseBargainReply(reply(`[DEAL] $12.50 (1x ${CODE})`), "seller", CODE)).toMatchObject({
      type: "deal",
      price: 12.5,
    });
    expect(parseBargainReply(reply("[REJECT]"), "buyer", CODE)).toMatchObject({
      type: "reject",
      price: null,
    });
    expect(parseBargainReply(reply("[QUIT]"), "seller", CODE)).toMatchObject({ type: "quit", price: null });
  });

  it("takes the last action on the Action line, and only the first Action line", () => {
    const two = reply(`[BUY] $10 (1x ${CODE}) or maybe [BUY] $12 (1x ${CODE})`);
    expect(parseBargainReply(two, "buyer", CODE)).toMatchObject({ ok: true, price: 12 });
    const lines = `Talk: hi\nAction: [BUY] $10 (1x ${CODE})\nAction: [QUIT]`;
    expect(parseBargainReply(lines, "buyer", CODE)).toMatchObject({ ok: true, type: "offer", price: 10 });
  });

  it("rejects what the paper's parser rejects, and the other side's or another item's actions", () => {
    const bad: [string, string][] = [
      ["", "empty reply"],
      ["Talk: I'd pay $10.", "no Action line"],
      [reply("I offer ten dollars"), "no action in the Action line"],
      [reply(`[OFFER] $10 (1x ${CODE})`), "[OFFER] is not an action"],
      [reply(`[SELL] $10 (1x ${CODE})`), "[SELL] is not a buyer action"],
      [reply("[BUY] $10"), `[BUY] needs a price and the item, e.g. [BUY] $10 (1x ${CODE})`],
      [reply(`[BUY] $-10 (1x ${CODE})`), `[BUY] needs a price and the item, e.g. [BUY] $10 (1x ${CODE})`],
      [
        reply(`[BUY] about $10 (1x ${CODE})`),
        `[BUY] needs a price and the item, e.g. [BUY] $10 (1x ${CODE})`,
      ],
      [reply(`[BUY] $10 (2x ${CODE})`), `the action names "2x ${CODE}"; this session trades 1x ${CODE}`],
      [reply("[BUY] $10 (1x other_1)"), `the action names "1x other_1"; this session trades 1x ${CODE}`],
      [
        reply(`[BUY] $10 (1x ${CODE}, 1x other_1)`),
        `the action names "1x ${CODE}, 1x other_1"; this session trades 1x ${CODE}`,
      ],
    ];
    for (const [text, reason] of bad)
      expect(parseBargainReply(text, "buyer", CODE)).toMatchObject({ ok: false, reason });
    expect(parseBargainReply(reply(`[REJECT] $10 (1x ${CODE})`), "buyer", CODE)).toMatchObject({
      ok: false,
      reason: "[REJECT] takes no price",
    });
  });

  it("renders actions that parse back to the same move", () => {
    for (const [role, type, price] of [
      ["buyer", "offer", 10],
      ["seller", "offer", 1234.5],
      ["seller", "deal", 0.07],
      ["buyer", "quit", null],
    ] as const) {
      const text = renderMessage("Talk line.", renderAction(role, type, price, CODE));
      expect(parseBargainReply(text, role, CODE)).toMatchObject({
        ok: true,
        type,
        price,
        talk: "Talk line.",
      });
    }
    expect(renderAction("buyer", "offer", 12.5, CODE)).toBe(`[BUY] $12.50 (1x ${CODE})`);
    expect(renderAction("seller", "offer", 15, CODE)).toBe(`[SELL] $15 (1x ${CODE})`);
  });
});
