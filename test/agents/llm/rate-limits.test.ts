/**
 * What the caller reads of a server's rate limit through the real client: the headers of each
 * attempt (and that the private attempt header never leaves), a quota that is spent (the run's
 * configuration, not a rate limit), 429s that do not pause the model, and the provider's
 * prompt-cache hits.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { HumanMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCaller } from "../../../agents/llm/caller.ts";
import { endpointLimits } from "../../../agents/llm/gate.ts";
import { formatDuration, parseDuration, readRateLimit } from "../../../agents/llm/rate-headers.ts";
import { classifyError } from "../../../agents/llm/resilience.ts";
import { LlmSettingsSchema } from "../../../agents/llm/settings.ts";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import type { SimServer } from "../../../agents/serve-sim/types.ts";
import { AgentFailure } from "../../../environments/kernel/failures.ts";

let modelNo = 0;
const settings = (baseURL: string, extra: Record<string, unknown> = {}) =>
  LlmSettingsSchema.parse({ model: "sim-steep", baseURL, maxRetries: 3, useCache: false, ...extra });

describe("OpenAI's rate-limit headers", () => {
  it("reads durations as OpenAI writes them, and nothing else", () => {
    expect(parseDuration("12ms")).toBe(12);
    expect(parseDuration("1s")).toBe(1000);
    expect(parseDuration("6m0s")).toBe(360_000);
    expect(parseDuration("1h2m3.5s")).toBe(3_723_500);
    expect(parseDuration("20")).toBe(20_000);
    expect(parseDuration("soon")).toBeUndefined();
    expect(parseDuration("5 s")).toBeUndefined();
    for (const ms of [12, 1000, 1500, 360_000, 61_250]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });

  it("reads the request and token triples and retry-after (seconds, ms or a date); none is undefined", () => {
    const h: Record<string, string> = {
      "x-ratelimit-limit-requests": "5000",
      "x-ratelimit-remaining-requests": "4999",
      "x-ratelimit-reset-requests": "12ms",
      "x-ratelimit-limit-tokens": "160000",
      "x-ratelimit-remaining-tokens": "159000",
      "x-ratelimit-reset-tokens": "6m0s",
      "retry-after": "2",
    };
    expect(readRateLimit((n) => h[n])).toEqual({
      limitRequests: 5000,
      remainingRequests: 4999,
      resetRequestsMs: 12,
      limitTokens: 160_000,
      remainingTokens: 159_000,
      resetTokensMs: 360_000,
      retryAfterMs: 2000,
    });
    expect(readRateLimit((n) => ({ "retry-after-ms": "20", "retry-after": "2" })[n])).toEqual({
      retryAfterMs: 20,
    });
    const date = new Date(10_000).toUTCString();
    expect(readRateLimit((n) => ({ "retry-after": date })[n], 4_000)).toEqual({ retryAfterMs: 6000 });
    expect(readRateLimit(() => null)).toBeUndefined();
  });
});

describe("a spent quota (429 insufficient_quota)", () => {
  let server: http.Server;
  let url: string;
  let requests = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(429, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: {
            message: "You exceeded your current quota, please check your plan and billing details.",
            type: "insufficient_quota",
            param: null,
            code: "insufficient_quota",
          },
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("stops the run as configuration after one attempt, not as a rate limit to wait out", async () => {
    const caller = new ModelCaller(settings(url, { model: `quota-${++modelNo}` }), undefined, undefined);
    const err = await caller.call([new HumanMessage("hi")], undefined, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentFailure);
    expect((err as AgentFailure).kind).toBe("configuration");
    expect((err as AgentFailure).message).toMatch(
      /no quota left for quota-\d+ at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect((err as AgentFailure).hint).toMatch(/add credit/);
    expect(requests).toBe(1);
  });

  it("classifies by the error's code; an ordinary 429 stays retryable", () => {
    const e = (code?: string) => Object.assign(new Error("429"), { status: 429, headers: {}, code });
    expect(classifyError(e("insufficient_quota"))).toMatchObject({ retryable: false, noQuota: true });
    expect(classifyError(e("rate_limit_exceeded"))).toMatchObject({ retryable: true, status: 429 });
    expect(classifyError(e()).noQuota).toBeUndefined();
  });
});

describe("the caller against serve-sim's rate limit", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ limits: { rpm: 60 }, retryAfterSeconds: 0, promptCache: true });
  });
  afterAll(() => server.close());

  it("reads each attempt's headers into the endpoint's limiter; 429s neither fail the call nor pause the model", async () => {
    server.setLimits({ rpm: 60 }); // one at once, one a second
    const opened: string[] = [];
    const model = "sim-steep";
    const caller = new ModelCaller(
      settings(server.url, { model, maxRetries: 6, breakerThreshold: 1 }),
      undefined,
      undefined,
      { onBreakerOpen: ({ reason }) => opened.push(reason) },
    );
    // Three at once: the limiter paces them to the server's bucket (one a second); a 429 on the
    // way is retried after its retry-after.
    const answers = await Promise.all(
      ["a", "b", "c"].map((t) => caller.call([new HumanMessage(`Which hotel? ${t}`)], undefined, 0)),
    );
    expect(answers).toHaveLength(3);
    expect(opened).toEqual([]);
    const limits = endpointLimits().find((e) => e.url === server.url && e.model === model)!;
    expect(limits.found).toEqual({ requestsPerMinute: 60, source: "headers" });
    expect(limits.adaptive).toBe(true);
    expect(limits.requests).toBe(3 + limits.throttled);
    expect(server.stats().byOutcome.limited).toBe(limits.throttled);
  });

  it("never sends its private attempt header to the server", async () => {
    server.setLimits({ rpm: null });
    const seen: string[] = [];
    const spy = http.createServer((req, res) => {
      seen.push(...Object.keys(req.headers));
      const forward = http.request(
        `${server.url}/chat/completions`,
        { method: "POST", headers: { "content-type": "application/json" } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((r) => spy.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(spy.address() as AddressInfo).port}/v1`;
      await new ModelCaller(settings(url), undefined, undefined).call([new HumanMessage("hi")], undefined, 0);
    } finally {
      await new Promise<void>((r) => spy.close(() => r()));
    }
    expect(seen).toContain("authorization");
    expect(seen.filter((h) => h.startsWith("x-bazaar"))).toEqual([]);
  });

  it("stores the provider's prompt-cache hits as usage.cachedInputTokens", async () => {
    server.setLimits({ rpm: null });
    const caller = new ModelCaller(settings(server.url, { model: "sim-quality" }), undefined, undefined);
    const system = "You book hotels. ".repeat(40);
    const ask = (q: string) =>
      caller.call([new HumanMessage(system), new HumanMessage(q)], undefined, 0).then((r) => r.usage);
    const first = await ask("Option A or B? first");
    const second = await ask("Option A or B? second");
    expect(first.cachedInputTokens).toBeUndefined();
    expect(second.cachedInputTokens).toBeGreaterThanOrEqual(Math.floor(system.length / 4) - 1);
    expect(second.cachedInputTokens).toBeLessThan(second.inputTokens);
  });
});
