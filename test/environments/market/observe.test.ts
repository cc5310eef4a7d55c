/**
 * A seller's conversation reads back into exactly the view the machine gives (serve-sim's sellers see
 * only the messages): the opening of tasks with history, competitors and positions, of a first
 * round, and after refused messages in tools and text mode; anything else is unreadable, never
 * half-read.
 */
import { describe, expect, it } from "vitest";
import { sellerConversation, sellerView } from "../../../environments/market/machine.ts";
import { observeSeller, readSellerReport } from "../../../environments/market/observe.ts";
import { sellerReportText } from "../../../environments/market/prompt.ts";
import { applySellerMessage, initialTurnState } from "../../../environments/market/rules.ts";
import { sellerTaskFixtures } from "./fixtures.ts";

describe("observeSeller reads back what the seller is shown", () => {
  it("every seller's opening, with and without earlier rounds", () => {
    for (const rounds of [1, 4]) {
      for (const task of sellerTaskFixtures(rounds)) {
        const seen = observeSeller(sellerConversation(task, []));
        expect(seen?.view, task.taskId).toEqual(sellerView(task));
      }
    }
  });

  it("after refused messages, in tools and text mode", () => {
    const task = sellerTaskFixtures()[0]!;
    let state = initialTurnState(task);
    state = applySellerMessage(
      state,
      {
        type: "several tool calls",
        calls: [
          { name: "set_price", args: { amount: 1 } },
          { name: "set_description", args: { text: "" } },
        ],
      },
      task,
    );
    const tools = sellerConversation(task, state.messages);
    const refused = state.messages.map((m) => m.calls.map((c) => c.result.text));
    expect(refused[0]).toHaveLength(2);
    expect(observeSeller(tools)?.view).toEqual(sellerView(task, refused));
    const text = applySellerMessage(
      initialTurnState(task),
      { type: "reply", text: "Hmm.\nAction: set_price(9)" },
      task,
    );
    const refusedText = text.messages.map((m) => m.calls.map((c) => c.result.text));
    expect(observeSeller(sellerConversation(task, text.messages))?.view).toEqual(
      sellerView(task, refusedText),
    );
  });

  it("a conversation that is not a seller's turn, or a changed line, is unreadable", () => {
    const task = sellerTaskFixtures()[1]!;
    const messages = sellerConversation(task, []);
    expect(
      observeSeller([{ role: "system", content: "You are a helpful assistant." }, messages[1]!]),
    ).toBeNull();
    const report = messages[1]!.content;
    expect(readSellerReport(report)).not.toBeNull();
    expect(readSellerReport(report.replace("Opened: ", "Views: "))).toBeNull();
    expect(readSellerReport(report.replace(/ a night\./, " per night."))).toBeNull();
    expect(readSellerReport(`${report}\nP.S.`)).toBeNull();
    expect(sellerReportText(sellerView(task))).toBe(report);
  });
});
