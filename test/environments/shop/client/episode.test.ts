/**
 * The client in the shop's rules: it opens first, a message to it (the tool, a reply without any
 * call, or the text grammar's Action line) is one step answered by its reply, its patience ends the
 * conversation, and the shopper sees of the request only what the client has said.
 */
import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../../../environments/kernel/types.ts";
import { PERSONAS } from "../../../../environments/shop/client/personas.ts";
import { SHOP_CLIENT } from "../../../../environments/shop/client/types.ts";
import { JUST_BOOK, NO_REPLY } from "../../../../environments/shop/client/wording.ts";
import { shopTrialRecord } from "../../../../environments/shop/record.ts";
import { clientTask, playClient } from "./helpers.ts";

const ask = (text: string) => ({ type: "message_client", text });

describe("the client in a shop episode", () => {
  const task = clientTask("open", (t) => t.request.constraints.minStars !== null);

  it("opens first; the shopper is told only what it said, and learns the rest by asking", async () => {
    const { output, seen } = await playClient(task, [
      ask("What is your budget per night?"),
      { type: "reply", text: "And how many stars at least?" },
      { type: "reply", text: 'Thanks.\nAction: message_client({"text": "Do you need breakfast?"})' },
      { type: "give_up", reason: "testing" },
    ]);
    const first = seen[0]!;
    expect(first.view.request.constraints).toEqual({
      maxPrice: null,
      minStars: null,
      areas: null,
      amenities: [],
    });
    expect(first.view.client?.stated.known).toEqual([]);
    expect(first.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(first.messages[0]!.content).toMatch(/- message_client: send your client a message/);
    expect(first.messages[1]!.content).toBe(output.client!.opening);
    const c = task.request.constraints;
    expect(seen[1]!.view.request.constraints.maxPrice).toBe(c.maxPrice);
    expect(seen[1]!.messages.at(-1)!.content).toMatch(
      /^Client: My budget is at most \$[\d,]+ a night\.\n\[1 of 15 tool calls used\]$/,
    );
    // A reply without any call is a message: answered in one message, the client's words.
    expect(seen[2]!.view.turns.at(-1)!.mode).toBe("message");
    expect(seen[2]!.view.request.constraints.minStars).toBe(c.minStars);
    // The text grammar's line works too (a text-mode turn: its result in a numbered block).
    expect(seen[3]!.messages.at(-1)!.content).toMatch(/^Result of call 1 \(message_client\):\nClient: /);
    expect(seen[3]!.view.client!.stated.known).toEqual(["price", "stars", "breakfast"]);
    expect(output.steps).toBe(4);
    expect(output.client!.conversation.map((e) => [e.step, e.from])).toEqual([
      [0, "client"],
      [1, "agent"],
      [1, "client"],
      [2, "agent"],
      [2, "client"],
      [3, "agent"],
      [3, "client"],
    ]);
  });

  it("asks to just book once its patience is spent, and a further message ends the episode", async () => {
    const patience = PERSONAS.terse.patience;
    const steps = Array.from({ length: patience + 2 }, (_, i) => ask(`Question ${i + 1}: your budget?`));
    const { output, seen } = await playClient(task, steps);
    expect(seen[patience + 1]!.messages.at(-1)!.content).toBe(
      `Client: ${JUST_BOOK}\n[${patience + 1} of 15 tool calls used]`,
    );
    expect(seen[patience + 1]!.view.client!.patienceOut).toBe(true);
    expect(output.endReason).toBe("client-ended");
    expect(output.steps).toBe(patience + 2);
    const r = shopTrialRecord({
      run: "r",
      trialKey: "k",
      seq: 0,
      agent: "a for sim:terse",
      replicate: 0,
      task,
      outcome: output,
      usage: emptyUsage(),
    });
    expect(r.success).toBe(false);
    expect(r.regret).toBe(r.bestAdmissible!.surplus);
    expect(r.burden).toEqual({ messages: patience + 2, repeats: patience + 1, patienceOut: true });
    expect(r.shopper).toBe("a");
  });

  it("takes a client that failed to reply as its silence (a fault), not the shopper's non-answer", async () => {
    const failing = {
      id: "failing",
      act(obs: { view: { message: string | null } }) {
        if (obs.view.message === null)
          return {
            action: {
              type: "open",
              persona: { name: "terse", patience: 6 },
              by: "x",
              text: "I need a room.",
            },
          };
        throw new Error("boom");
      },
    };
    const { output, seen } = await playClient(
      task,
      [ask("Budget?"), { type: "give_up", reason: "ok" }],
      failing as never,
    );
    expect(seen[1]!.messages.at(-1)!.content).toBe(`Client: ${NO_REPLY}\n[1 of 15 tool calls used]`);
    expect(output.endReason).toBe("gave-up");
    expect(output.client!.conversation.at(-1)!.faults).toEqual([
      { kind: "silent", detail: "the client failed: boom" },
    ]);
  });

  it("counts a message against the step budget like any call, and refuses an empty one", async () => {
    const { output, seen } = await playClient(task, [
      ask(""),
      { type: "reply", text: "" },
      { type: "search" },
      { type: "give_up", reason: "x" },
    ]);
    expect(seen[1]!.messages.at(-1)!.content).toMatch(/^Error: invalid arguments for message_client: text: /);
    expect(output.invalidCalls).toBe(2);
    expect(output.steps).toBe(4);
  });

  it("names message_client among the tools only where there is a client", async () => {
    const { seen } = await playClient(task, [{ type: "purchase" }, { type: "give_up", reason: "x" }]);
    expect(seen[1]!.messages.at(-1)!.content).toMatch(
      /the tools are search, view, message_client, book and give_up/,
    );
    expect(SHOP_CLIENT).toBe("client");
  });
});
