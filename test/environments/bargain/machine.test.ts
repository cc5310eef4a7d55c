import { describe, expect, it } from "vitest";
import { BUYER_SYSTEM_PROMPT, SELLER_SYSTEM_PROMPT } from "../../../environments/bargain/prompt.ts";
import { deal, offer, play, Scripted, task } from "./helpers.ts";

const code = "gadgets_1";
const quit = { type: "quit", talk: "bye" };

describe("the bargaining machine", () => {
  it("closes a deal only at a price the other side offered (within a cent)", async () => {
    const atAsk = await play(new Scripted("b", [offer(40), deal(70)]), new Scripted("s", [offer(70)]));
    expect(atAsk).toMatchObject({
      outcome: "deal",
      endedBy: "deal",
      endedBySide: "buyer",
      dealPrice: 70,
      turns: 2,
    });
    expect(atAsk.transcript.map((m) => [m.turn, m.role, m.action, m.price])).toEqual([
      [1, "buyer", "offer", 40],
      [1, "seller", "offer", 70],
      [2, "buyer", "deal", 70],
    ]);
    const atBid = await play(new Scripted("b", [offer(60)]), new Scripted("s", [deal(60)]));
    expect(atBid).toMatchObject({ outcome: "deal", endedBySide: "seller", dealPrice: 60, turns: 1 });
    const earlierAsk = await play(
      new Scripted("b", [offer(40), offer(45), deal(70.01)]),
      new Scripted("s", [offer(70), offer(75)]),
    );
    expect(earlierAsk).toMatchObject({ outcome: "deal", dealPrice: 70.01 });
  });

  it("makes any other DEAL a fake deal, attributed to its side", async () => {
    const cases = [
      { buyer: [offer(40), deal(65)], seller: [offer(70)], side: "buyer" },
      { buyer: [deal(70)], seller: [], side: "buyer" },
      { buyer: [offer(40), deal(40)], seller: [offer(70)], side: "buyer" },
      { buyer: [offer(40)], seller: [deal(41)], side: "seller" },
    ] as const;
    for (const c of cases) {
      const o = await play(new Scripted("b", [...c.buyer]), new Scripted("s", [...c.seller]));
      expect(o).toMatchObject({
        outcome: "invalid",
        endedBy: "fake-deal",
        invalidSide: c.side,
        dealPrice: null,
      });
      expect(o.transcript.at(-1)).toMatchObject({ role: c.side, action: "deal" });
      expect(o.invalidReason).toMatch(/no earlier (buyer|seller) offer at this price/);
    }
  });

  it("ends on a malformed action as that side's action error, keeping the raw action", async () => {
    const malformed: [unknown, string][] = [
      [{ type: "offer", price: -5, talk: "hi" }, "price: Too small"],
      [{ type: "offer", price: Number.NaN }, "price: Invalid input: expected number, received NaN"],
      [{ type: "offer", price: "ten" }, "price: Invalid input: expected number, received string"],
      [{ type: "offer" }, "price: Invalid input: expected number, received undefined"],
      [{ type: "haggle", price: 5 }, 'unknown action "haggle"'],
      [{ type: "several tool calls", calls: [] }, 'unknown action "several tool calls"'],
      [{ type: "reply", text: "Talk: how about 50?" }, "no Action line"],
      [null, "Invalid input"],
    ];
    for (const [action, reason] of malformed) {
      const o = await play(new Scripted("b", [offer(40)]), new Scripted("s", [action]));
      expect(o).toMatchObject({
        outcome: "invalid",
        endedBy: "action-error",
        invalidSide: "seller",
        endedBySide: "seller",
      });
      expect(o.invalidReason).toContain(reason);
      const last = o.transcript.at(-1)!;
      expect(last).toMatchObject({ role: "seller", action: "invalid", price: null });
      expect(last.raw).toBe(
        action !== null && typeof action === "object" && (action as { type?: string }).type === "reply"
          ? (action as { text: string }).text
          : JSON.stringify(action),
      );
    }
  });

  it("records an agent failure as that side's action error", async () => {
    const failing = {
      id: "f",
      act: () => {
        throw new Error("model down after 5 retries");
      },
    };
    const o = await play(new Scripted("b", [offer(40)]), failing);
    expect(o).toMatchObject({ outcome: "invalid", endedBy: "action-error", invalidSide: "seller" });
    expect(o.invalidReason).toBe("agent error: model down after 5 retries");
  });

  it("ends on QUIT by either side, and at the turn limit after maxTurns buyer messages and replies", async () => {
    const quitting = await play(
      new Scripted("b", [offer(40), offer(45)]),
      new Scripted("s", [offer(90), quit]),
    );
    expect(quitting).toMatchObject({
      outcome: "no-deal",
      endedBy: "quit",
      endedBySide: "seller",
      turns: 2,
      invalidSide: null,
    });
    const buyer = new Scripted("b", [offer(40), offer(41), offer(42), offer(43)]);
    const seller = new Scripted("s", [offer(90), offer(89), offer(88), offer(87)]);
    const limit = await play(buyer, seller, task({ maxTurns: 3 }));
    expect(limit).toMatchObject({ outcome: "no-deal", endedBy: "turn-limit", endedBySide: null, turns: 3 });
    expect(limit.transcript).toHaveLength(6);
    expect(buyer.seen).toHaveLength(3);
    expect(seller.seen).toHaveLength(3);
  });

  it("does not stop a buyer paying past its budget or a seller selling below its cost", async () => {
    const over = await play(new Scripted("b", [offer(95)]), new Scripted("s", [deal(95)]));
    expect(over).toMatchObject({ outcome: "deal", dealPrice: 95 });
    const under = await play(new Scripted("b", [offer(20), deal(30)]), new Scripted("s", [offer(30)]));
    expect(under).toMatchObject({ outcome: "deal", dealPrice: 30 });
  });

  it("shows each side its own private value only, and the conversation so far", async () => {
    const buyer = new Scripted("b", [offer(40, "Forty?"), offer(45)]);
    const seller = new Scripted("s", [offer(70, "Seventy."), quit]);
    await play(buyer, seller, task({ budget: 479.992, cost: 3.991, listedPrice: 599.99 }));
    const [b1, b2] = buyer.seen;
    const [s1, s2] = seller.seen;
    expect(b1!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(b1!.messages[0]!.content).toBe(BUYER_SYSTEM_PROMPT);
    expect(b1!.messages[1]!.content).toContain("budget: $479.99");
    expect(b1!.messages[1]!.content).not.toMatch(/Cost|\$4\b/);
    expect(s1!.messages[0]!.content).toBe(SELLER_SYSTEM_PROMPT);
    expect(s1!.messages[1]!.content).toContain("Cost: $4");
    expect(s1!.messages[1]!.content).not.toContain("479");
    expect(s1!.messages[2]).toEqual({
      role: "user",
      content: `Talk: Forty?\nAction: [BUY] $40 (1x ${code})`,
    });
    expect(b2!.messages.slice(2)).toEqual([
      { role: "assistant", content: `Talk: Forty?\nAction: [BUY] $40 (1x ${code})` },
      { role: "user", content: `Talk: Seventy.\nAction: [SELL] $70 (1x ${code})` },
    ]);
    expect(s2!.messages).toHaveLength(5);
    expect(b1!.view).toMatchObject({
      role: "buyer",
      limit: 479.99,
      listedPrice: 599.99,
      maxTurns: 6,
      codename: code,
    });
    expect(s1!.view).toMatchObject({
      role: "seller",
      limit: 3.99 + 0.01,
      history: [{ role: "buyer", type: "offer", price: 40 }],
    });
    expect(b2!.view.history).toHaveLength(2);
  });

  it("keeps thought, raw text, tokens and time in the transcript", async () => {
    const text = `Thought: start low.\nTalk: Would you take $40?\nAction: [BUY] $40 (1x ${code})`;
    const o = await play(
      new Scripted("b", [
        { type: "reply", text },
        { type: "quit", talk: "No.", meta: { ms: 12.5, tokens: { input: 300, output: 20 } } },
      ]),
      new Scripted("s", [offer(90)]),
    );
    expect(o.transcript[0]).toEqual({
      turn: 1,
      role: "buyer",
      action: "offer",
      price: 40,
      talk: "Would you take $40?",
      thought: "start low.",
      raw: text,
    });
    expect(o.transcript[2]).toEqual({
      turn: 2,
      role: "buyer",
      action: "quit",
      price: null,
      talk: "No.",
      ms: 12.5,
      tokens: { input: 300, output: 20 },
    });
  });
});
