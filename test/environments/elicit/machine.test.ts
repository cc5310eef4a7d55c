import { describe, expect, it } from "vitest";
import {
  buildElicitTasks,
  type ElicitOutcome,
  type ElicitTask,
  elicitEnvironment,
  type ItemQueryTask,
  type OfferPairTask,
  RESPONDENT,
  renderElicitMessages,
} from "../../../environments/elicit/index.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Agent } from "../../../environments/kernel/types.ts";

const tasks = buildElicitTasks({ seed: 1, domains: ["hotels"], collections: ["main"] });
const pair = tasks.find((t) => t.queryType === "offer-pair") as OfferPairTask;
const item = tasks.find((t) => t.queryType === "item") as ItemQueryTask;

function agent(action: unknown, fail = false): Agent<unknown, unknown> {
  return {
    id: "fixed",
    act: () => {
      if (fail) throw new Error("HTTP 500 after 5 retries");
      return { action };
    },
  };
}

async function episode(
  task: ElicitTask = pair,
  action: unknown = { type: "reply", text: "-$40" },
  fail = false,
) {
  const seen: unknown[] = [];
  const a = agent(action, fail);
  const spy: Agent<unknown, unknown> = {
    id: "spy",
    act: (obs, ctx) => {
      seen.push(obs);
      return a.act(obs, ctx);
    },
  };
  const r = await runEpisode<ElicitOutcome>(
    elicitEnvironment.machine,
    elicitEnvironment.input(task, {}),
    { [RESPONDENT]: spy },
    {
      rng: createRng(1),
      trialKey: "k",
      replicate: 0,
    },
  );
  return { ...r, seen };
}

describe("the one-question elicitation episode", () => {
  it("asks once with the rendered messages and the structured query", async () => {
    const r = await episode();
    expect(r.seen).toHaveLength(1);
    expect((r.seen[0] as { messages: unknown }).messages).toEqual(renderElicitMessages(pair));
    expect(r.output).toEqual({ value: -40, nonFinite: null, raw: "-$40" });
  });

  it("takes a tool call's amount, and reads a text amount in a tool call strictly", async () => {
    expect((await episode(item, { type: "answer", amount: 310 })).output).toEqual({
      value: 310,
      nonFinite: null,
      raw: "answer(310)",
    });
    expect((await episode(item, { type: "answer", amount: "$1,250" })).output.value).toBe(1250);
    expect((await episode(item, { type: "answer", amount: "300-400" })).output.nonFinite?.reason).toMatch(
      /^range/,
    );
  });

  it("marks unusable answers as non-finite with the raw text, never guessing and never re-asking", async () => {
    const range = await episode(pair, { type: "reply", text: "between $20 and $30" });
    expect(range.seen).toHaveLength(1);
    expect(range.output).toEqual({
      value: null,
      nonFinite: { reason: "range: $20 to $30", raw: "between $20 and $30" },
      raw: "between $20 and $30",
    });
    expect(elicitEnvironment.isNonResponse(range.output)).toBe(true);
    expect((await episode(pair, { type: "reply", text: "$40 cheaper" })).output.nonFinite?.reason).toMatch(
      /^sign in words/,
    );
    expect((await episode(item, { type: "several tool calls", calls: [] })).output.nonFinite?.reason).toBe(
      "malformed action",
    );
    const failed = await episode(item, null, true);
    expect(failed.agentErrors).toBe(1);
    expect(failed.output.nonFinite?.reason).toBe("agent error: HTTP 500 after 5 retries");
  });

  it("records one completion per trial with the export contract's fields", async () => {
    const r = await episode();
    const rec = elicitEnvironment.record({
      run: "elicit-x",
      trialKey: "k",
      seq: 3,
      agent: "sim:consistent",
      replicate: 7,
      task: pair,
      outcome: r.output,
      usage: r.usage,
    });
    expect(rec).toMatchObject({
      run: "elicit-x",
      trialKey: "k",
      env: "elicit",
      agent: "sim:consistent",
      group: pair.group,
      domain: "hotels",
      utterance: pair.utterance.id,
      queryId: pair.queryId,
      queryType: "offer-pair",
      item: null,
      source: { item: pair.source.item.id, price: pair.source.price },
      target: { item: pair.target.item.id, price: pair.target.price },
      completion: 7,
      value: -40,
      raw: "-$40",
    });
    expect(rec.uses).toEqual(pair.uses);
    const itemRec = elicitEnvironment.record({
      ...{ run: "r", trialKey: "k", seq: 0, agent: "a", replicate: 0 },
      task: item,
      outcome: r.output,
      usage: r.usage,
    });
    expect(itemRec).toMatchObject({
      queryType: "item",
      item: item.item.id,
      source: null,
      target: null,
      uses: [],
    });
  });
});
