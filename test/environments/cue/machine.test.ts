import { describe, expect, it } from "vitest";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../datasets/products/index.ts";
import {
  buildCueTasks,
  CUE_SHOPPER,
  type CueOutcome,
  type CueTask,
  type CueView,
  cueEnvironment,
  cueTrialRecord,
} from "../../../environments/cue/index.ts";
import { type Agent, emptyUsage, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const tasks = buildCueTasks(
  { conditions: ["scarcity"], blocks: ["main"], categories: ["headphones"], grid: [0, 0.1] },
  DEFAULT_PRODUCT_PAIRS,
  DEFAULT_CUE_LIBRARY,
);
const cuedSecond = tasks.find((t) => !t.cuedFirst) as CueTask;

/** An agent that says the given things in turn and records what it saw. */
function scripted(answers: unknown[]) {
  const seen: CueView[] = [];
  const messages: number[] = [];
  const agent: Agent<CueView, unknown> = {
    id: "script",
    act(observation) {
      seen.push(observation.view);
      messages.push(observation.messages.length);
      const next = answers[seen.length - 1];
      if (next instanceof Error) throw next;
      return { action: next };
    },
  };
  return { agent, seen, messages };
}

async function play(task: CueTask, answers: unknown[], maxReasks = 2) {
  const s = scripted(answers);
  const r = await runEpisode<CueOutcome>(
    cueEnvironment.machine,
    cueEnvironment.input(task, { maxReasks }),
    { [CUE_SHOPPER]: s.agent as Agent<unknown, unknown> },
    { rng: createRng(1), trialKey: "k", replicate: 0 },
  );
  return { ...r, ...s };
}

describe("the cue episode", () => {
  it("takes a strictly parsed letter and records whether the cued product was chosen", async () => {
    const r = await play(cuedSecond, [{ type: "reply", text: "**Option B**" }]);
    expect(r.output).toMatchObject({ chosenSlot: 1, nonResponse: null, raw: "**Option B**" });
    const rec = cueTrialRecord({
      run: "r",
      trialKey: "k",
      seq: 0,
      agent: "a",
      replicate: 0,
      task: cuedSecond,
      outcome: r.output,
      usage: emptyUsage(),
    });
    expect(rec).toMatchObject({
      env: "cue",
      condition: "scarcity",
      pairId: cuedSecond.pairId,
      premium: cuedSecond.premium,
      cueTarget: cuedSecond.cueTarget,
      cuedFirst: false,
      chosenSlot: 1,
      choseCued: true,
      chosenProduct: cuedSecond.options[1].product,
      nonResponse: null,
    });
    expect(rec.options).toHaveLength(2);
  });

  it("shows the shopper the cards but not which one is cued", async () => {
    const r = await play(cuedSecond, [{ type: "choose", option: "a" }]);
    expect(r.output.chosenSlot).toBe(0);
    expect(r.output.raw).toBe("choose(a)");
    const card = r.seen[0]?.cards[1] as unknown as Record<string, unknown>;
    expect(card.cued).toBeUndefined();
    expect(card.product).toBeUndefined();
    expect(r.seen[0]).toMatchObject({
      category: "headphones",
      item: "a pair of headphones",
      attempt: 0,
      letters: ["A", "B"],
    });
  });

  it("re-asks an unusable answer, then accepts a good one", async () => {
    const r = await play(cuedSecond, [
      { type: "reply", text: "Both are identical." },
      { type: "reply", text: "A" },
    ]);
    expect(r.output).toMatchObject({ chosenSlot: 0, replies: ["Both are identical.", "A"] });
    expect(r.seen.map((v) => v.attempt)).toEqual([0, 1]);
    expect(r.messages).toEqual([2, 4]);
  });

  it("records a non-response with the reason after the re-asks run out", async () => {
    const r = await play(cuedSecond, [
      { type: "reply", text: "I would pick B" },
      { type: "reply", text: "A or B" },
      { type: "reply", text: "C" },
    ]);
    expect(r.output).toMatchObject({
      chosenSlot: null,
      nonResponse: { reason: "out of range: C", raw: "C" },
    });
    expect(r.output.replies).toHaveLength(3);
    const zero = await play(cuedSecond, [{ type: "reply", text: "I would pick B" }], 0);
    expect(zero.output.nonResponse?.reason).toBe("uncued letter: B");
    expect(cueEnvironment.isNonResponse(zero.output)).toBe(true);
  });

  it("turns an agent failure and a malformed action into non-responses", async () => {
    const failed = await play(cuedSecond, [new Error("HTTP 500")]);
    expect(failed.output.nonResponse?.reason).toBe("agent error: HTTP 500");
    expect(failed.agentErrors).toBe(1);
    const malformed = await play(cuedSecond, [{ type: "wave" }], 0);
    expect(malformed.output.nonResponse?.reason).toBe("malformed action");
  });
});
