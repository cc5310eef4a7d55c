import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import {
  type ChoiceOutcome,
  type ChoiceView,
  choiceMachine,
  SHOPPER,
} from "../../../environments/choice/machine.ts";
import { type Agent, type Observation, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const task = buildChoiceTasks(
  { pairs: 1, pairAppearances: 1, triples: 0, fives: 0, seed: 3 },
  DEFAULT_HOTEL_POOL,
)[0]!;

/** An agent that plays back a script of actions and records what it was shown. */
function scripted(actions: unknown[]): Agent<unknown, unknown> & { seen: Observation<ChoiceView>[] } {
  const seen: Observation<ChoiceView>[] = [];
  let i = 0;
  return {
    id: "scripted",
    seen,
    act(obs) {
      seen.push(structuredClone(obs) as Observation<ChoiceView>);
      const a = actions[i++];
      if (a instanceof Error) throw a;
      return { action: a };
    },
  };
}

async function play(actions: unknown[], maxReasks = 2) {
  const agent = scripted(actions);
  const { output } = await runEpisode<ChoiceOutcome>(
    choiceMachine,
    { task, maxReasks },
    { [SHOPPER]: agent },
    { rng: createRng(1), trialKey: "k", replicate: 0 },
  );
  return { output, seen: agent.seen };
}

describe("choice machine", () => {
  it("books the option a valid letter names", async () => {
    const { output, seen } = await play([{ type: "reply", text: "B" }]);
    expect(output).toMatchObject({ chosenSlot: 1, nonResponse: null, raw: "B", replies: ["B"] });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(seen[0]!.view.letters).toEqual(["A", "B"]);
  });

  it("re-asks after an unusable answer and takes the next valid one", async () => {
    const { output, seen } = await play([
      { type: "reply", text: "Both look good." },
      { type: "reply", text: "A" },
    ]);
    expect(output.chosenSlot).toBe(0);
    expect(output.replies).toEqual(["Both look good.", "A"]);
    expect(seen[1]!.view.attempt).toBe(1);
    expect(seen[1]!.messages.slice(-2).map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(seen[1]!.messages.at(-2)!.content).toBe("Both look good.");
  });

  it("records a non-response with the raw text after the re-asks run out", async () => {
    const replies = ["Hmm.", "Not sure.", "Based on the price, the second."].map((text) => ({
      type: "reply",
      text,
    }));
    const { output, seen } = await play(replies, 2);
    expect(seen).toHaveLength(3);
    expect(output.chosenSlot).toBeNull();
    expect(output.nonResponse?.raw).toBe("Based on the price, the second.");
    expect(output.nonResponse?.reason).toMatch(/\w/);
    expect(output.replies).toHaveLength(3);
  });

  it("does not re-ask when maxReasks is 0", async () => {
    const { output, seen } = await play([{ type: "reply", text: "?" }], 0);
    expect(seen).toHaveLength(1);
    expect(output.chosenSlot).toBeNull();
  });

  it("judges tool calls by the same rules", async () => {
    expect((await play([{ type: "choose", option: " b " }])).output.chosenSlot).toBe(1);
    const bad = await play([{ type: "choose", option: "C" }], 0);
    expect(bad.output.nonResponse?.reason).toMatch(/out of range/);
  });

  it("treats a malformed action as a non-response, not a crash", async () => {
    const { output } = await play([{ type: "dance" }], 0);
    expect(output.nonResponse).toEqual({ reason: "malformed action", raw: '{"type":"dance"}' });
  });

  it("records an agent failure as a non-response without re-asking", async () => {
    const { output, seen } = await play([new Error("HTTP 500 after 5 retries")], 2);
    expect(seen).toHaveLength(1);
    expect(output.nonResponse?.reason).toBe("agent error: HTTP 500 after 5 retries");
  });
});
