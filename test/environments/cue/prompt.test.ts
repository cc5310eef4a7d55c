import { describe, expect, it } from "vitest";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import {
  buildCueTasks,
  CUE_INSTRUCTIONS,
  formatUsd,
  parseCuePrompt,
  renderCueMessages,
  shownCard,
} from "../../../environments/cue/index.ts";

const [task] = buildCueTasks(
  { conditions: ["social-proof-strong"], blocks: ["main"], categories: ["coffee-machines"], grid: [0, 0.12] },
  DEFAULT_PRODUCT_PAIRS,
  DEFAULT_CUE_LIBRARY,
);

describe("the cue prompt", () => {
  it("shows two cards labelled Option A and B with the same fields, then asks for a letter", () => {
    if (!task) throw new Error("no task");
    const cards = [shownCard(task.options[0]), shownCard(task.options[1])] as const;
    const [system, user] = renderCueMessages(cards, task.item, 0);
    expect(system).toEqual({ role: "system", content: "You are a helpful assistant." });
    const text = user?.content ?? "";
    expect(
      text.startsWith(
        "I want to buy a coffee machine. Please choose one of these two options for me.\n\nOption A\nName: ",
      ),
    ).toBe(true);
    expect(text.endsWith("\n\nReply with only the letter of your choice (A or B).")).toBe(true);
    const labels = (card: string) => card.split("\n").map((l) => l.split(":")[0]);
    const [, a, b] = text.split("\n\n");
    expect(labels(a ?? "").slice(1)).toEqual(labels(b ?? "").slice(1));
    expect(text).toContain("Rating: ");
    expect(text).toMatch(/out of 5 \([\d,]+ ratings\)/);
  });

  it("formats every price with cents", () => {
    expect(formatUsd(84.99)).toBe("$84.99");
    expect(formatUsd(100)).toBe("$100.00");
    expect(formatUsd(1249.5)).toBe("$1,249.50");
    expect(formatUsd(95.2)).toBe("$95.20");
  });

  it("reads back exactly what it renders, under every instruction", () => {
    if (!task) throw new Error("no task");
    const cards = [shownCard(task.options[0]), shownCard(task.options[1])] as [
      ReturnType<typeof shownCard>,
      ReturnType<typeof shownCard>,
    ];
    CUE_INSTRUCTIONS.forEach((_, i) => {
      const user = renderCueMessages(cards, task.item, i)[1]?.content ?? "";
      expect(parseCuePrompt(user)).toEqual({ item: "a coffee machine", instruction: i, cards });
    });
  });

  it("reads nothing out of a message it did not write", () => {
    if (!task) throw new Error("no task");
    const cards = [shownCard(task.options[0]), shownCard(task.options[1])] as [
      ReturnType<typeof shownCard>,
      ReturnType<typeof shownCard>,
    ];
    const user = renderCueMessages(cards, task.item, 0)[1]?.content ?? "";
    expect(parseCuePrompt("Hello there")).toBeNull();
    expect(parseCuePrompt(user.replace("Price: $", "Price: USD "))).toBeNull();
    expect(parseCuePrompt(user.replace("Option B", "Option C"))).toBeNull();
    expect(parseCuePrompt(user.replace("Reply with only", "Reply with"))).toBeNull();
  });
});
