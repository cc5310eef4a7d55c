/**
 * Failures are not answers (DESIGN.md): what the LLM agent's model calls end as when they do not
 * succeed. A rejected key or an unknown model is a configuration failure (the run stops); a 5xx,
 * 429 or timeout that outlives every retry is an infrastructure failure (the trial is failed, not a
 * non-response); a request the server refuses on its merits (a 400) is the model's answer to it.
 */
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { encodeError, LocalGate, settledError } from "../../../agents/llm/gate.ts";
import { type ChatInvoker, LlmAgent, LlmSettingsSchema, registerSecret } from "../../../agents/llm/index.ts";
import { isRequestRefused } from "../../../agents/llm/resilience.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { ChoiceActionSchema } from "../../../environments/choice/actions.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { type ChoiceOutcome, choiceMachine, SHOPPER } from "../../../environments/choice/machine.ts";
import { isUserError, UserError } from "../../../environments/kernel/errors.ts";
import { AgentFailure, failureOf } from "../../../environments/kernel/failures.ts";
import { EpisodeFailed, isBazaarBug, runEpisode } from "../../../environments/kernel/index.ts";
import type { ResponseCache } from "../../../environments/kernel/response-cache.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const [task] = buildChoiceTasks(
  { pairs: 1, pairAppearances: 1, triples: 0, fives: 0, seed: 4 },
  DEFAULT_HOTEL_POOL,
);
let modelCounter = 0;

function agentWith(chat: ChatInvoker, settings: Record<string, unknown> = {}) {
  const s = LlmSettingsSchema.parse({ model: `fail-${++modelCounter}`, maxRetries: 3, ...settings });
  return new LlmAgent("openai:fake", s, ChoiceActionSchema, { chat, role: SHOPPER });
}

function play(agent: LlmAgent) {
  return runEpisode<ChoiceOutcome>(
    choiceMachine,
    { task, maxReasks: 2 },
    { [SHOPPER]: agent as never },
    { rng: createRng(1), trialKey: "t", replicate: 0 },
  );
}

function httpError(status: number, message: string, retryAfter?: string): Error {
  return Object.assign(new Error(message), {
    status,
    headers: new Headers(retryAfter ? { "retry-after": retryAfter } : {}),
  });
}

async function failure(agent: LlmAgent): Promise<EpisodeFailed> {
  try {
    await play(agent);
  } catch (err) {
    if (err instanceof EpisodeFailed) return err;
    throw err;
  }
  throw new Error("the episode did not fail");
}

describe("a model call that does not succeed", () => {
  it("a rejected key is a configuration failure, said without the key, after one attempt", async () => {
    registerSecret("sk-planted-secret-0123456789");
    const chat = fakeModel().alwaysThrow(
      httpError(401, "Incorrect API key provided: sk-planted-secret-0123456789"),
    );
    const f = await failure(agentWith(chat));
    expect(f.failure.kind).toBe("configuration");
    expect(f.failure.message).toMatch(
      /rejected the API key for fail-\d+ \(HTTP 401: Incorrect API key provided: \[redacted\]\)/,
    );
    expect(f.failure.hint).toMatch(/OPENAI_API_KEY/);
    expect(JSON.stringify(f.failure)).not.toContain("sk-planted");
    expect(chat.callCount).toBe(1);
  });

  it("an unknown model is a configuration failure", async () => {
    const f = await failure(
      agentWith(fakeModel().alwaysThrow(httpError(404, "The model `nope` does not exist"))),
    );
    expect(f.failure.kind).toBe("configuration");
    expect(f.failure.message).toMatch(
      /model fail-\d+ is not served at https:\/\/api\.openai\.com\/v1 \(HTTP 404/,
    );
  });

  it("a 5xx after every retry is an infrastructure failure that says how many attempts it made", async () => {
    const chat = fakeModel().alwaysThrow(httpError(503, "overloaded", "0"));
    const f = await failure(agentWith(chat, { maxRetries: 2 }));
    expect(f.failure.kind).toBe("infrastructure");
    expect(f.failure.message).toMatch(/HTTP 503: overloaded \(after 3 attempts\)/);
    expect(f.turns).toBe(0);
    expect(chat.callCount).toBe(3);
  });

  it("a timeout after every retry is an infrastructure failure too", async () => {
    const timeout = Object.assign(new Error("Request timed out."), { name: "APIConnectionTimeoutError" });
    const f = await failure(agentWith(fakeModel().alwaysThrow(timeout), { maxRetries: 1 }));
    expect(f.failure).toMatchObject({
      kind: "infrastructure",
      message: expect.stringMatching(/timed out.*after 2 attempts/),
    });
  });

  it("a 400 for this request is the model's answer: a non-response with the error, not a failure", async () => {
    const chat = fakeModel().alwaysThrow(
      httpError(400, "This model's maximum context length is 8192 tokens"),
    );
    const { output, agentErrors } = await play(agentWith(chat));
    expect(agentErrors).toBe(1);
    expect(output.chosenSlot).toBeNull();
    expect(output.nonResponse?.reason).toMatch(
      /^agent error: fail-\d+: HTTP 400: This model's maximum context length/,
    );
    expect(chat.callCount).toBe(1);
  });
});

/** The error an episode ends with when it neither finishes nor fails as a trial. */
async function thrown(agent: LlmAgent): Promise<Error> {
  try {
    await play(agent);
  } catch (err) {
    if (err instanceof EpisodeFailed) throw new Error(`a failed trial, not a bug: ${err.message}`);
    return err as Error;
  }
  throw new Error("the episode did not throw");
}

describe("bazaar's own error is nobody's answer", () => {
  it("a TypeError in the model call stops the episode as bazaar's bug, said so, with no retry and no non-response", async () => {
    const chat = fakeModel().alwaysThrow(
      new TypeError("Cannot read properties of undefined (reading 'message')"),
    );
    const err = await thrown(agentWith(chat));
    expect(isBazaarBug(err)).toBe(true);
    expect(err.message).toMatch(
      /^a bug in bazaar, not fail-\d+'s answer: TypeError: Cannot read properties of undefined \(reading 'message'\)/,
    );
    expect(err.message).toMatch(/the run stopped with this trial unplayed; please report it/);
    expect(chat.callCount).toBe(1);
  });

  it("an error of bazaar's own handling of an answer (after the call) is a bug too", async () => {
    // A chat model whose answer is no message at all: reading it fails in bazaar's code, not the model's.
    const chat: ChatInvoker = { invoke: async () => null as never };
    const err = await thrown(agentWith(chat));
    expect(isBazaarBug(err)).toBe(true);
    expect(err.message).toMatch(/^a bug in bazaar, not fail-\d+'s answer: TypeError: /);
  });

  it("a store that stops answering while the response cache is read is the user's to fix, said as it is (exit 2), not a bug", async () => {
    const down = new UserError(
      "the store at postgres://u:***@db/x stopped answering (connection terminated)",
    );
    const cache: ResponseCache = {
      get: () => {
        throw down;
      },
      put: () => {},
      clear: () => 0,
      stats: () => ({ entries: 0, byModel: [] }),
    };
    let sent = 0;
    const chat: ChatInvoker = {
      invoke: async () => {
        sent++;
        return null as never;
      },
    };
    const s = LlmSettingsSchema.parse({ model: `fail-${++modelCounter}`, maxRetries: 3 });
    const err = await thrown(
      new LlmAgent("openai:fake", s, ChoiceActionSchema, { chat, role: SHOPPER, cache }),
    );
    expect(err).toBe(down);
    expect(isBazaarBug(err)).toBe(false);
    expect(sent).toBe(0); // nothing was sent while the store was down
  });

  it("what an error means survives the hand-over to identical requests and to other threads", async () => {
    const gate = new LocalGate(LlmSettingsSchema.parse({ model: `fail-${++modelCounter}` }), undefined, {});
    const meanings = [
      { settled: { error: "a bug", bug: true as const }, is: isBazaarBug },
      { settled: { error: "HTTP 400: too long", refused: true as const }, is: isRequestRefused },
      { settled: { error: "the store stopped answering", user: { hint: "start it" } }, is: isUserError },
    ];
    for (const [i, m] of meanings.entries()) {
      expect(await gate.claim(`k${i}`)).toBeNull(); // the owner of the request
      const waiter = gate.claim(`k${i}`); // an identical request, waiting for it
      gate.settle(`k${i}`, m.settled);
      const err = await waiter.then(
        () => null,
        (e: unknown) => e,
      );
      expect(m.is(err)).toBe(true);
      expect(m.is(settledError(encodeError(err)))).toBe(true);
    }
    const failure = settledError(
      encodeError(
        new AgentFailure("infrastructure", "m: the server answered 200 with an empty body", undefined, "x"),
      ),
    );
    expect(failureOf(failure)).toMatchObject({ kind: "infrastructure", label: "x" });
  });
});
