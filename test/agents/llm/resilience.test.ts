import { describe, expect, it } from "vitest";
import { NotAChatCompletion } from "../../../agents/llm/completion-check.ts";
import { backoffMs, CircuitBreaker, classifyError, RateLimiter } from "../../../agents/llm/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

describe("RateLimiter", () => {
  it("lets a full bucket through, then asks to wait in proportion to the deficit", () => {
    const rl = new RateLimiter(60, Number.POSITIVE_INFINITY); // one request per second
    for (let i = 0; i < 60; i++) {
      expect(rl.delayFor(1)).toBe(0);
      void rl.take(1);
    }
    const wait = rl.delayFor(1);
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThanOrEqual(1000);
    const tokens = new RateLimiter(Number.POSITIVE_INFINITY, 6000); // 100 tokens per second
    void tokens.take(6000);
    expect(tokens.delayFor(500)).toBeGreaterThan(4900);
  });
});

describe("retry policy", () => {
  it("honours retry-after and otherwise backs off exponentially with jitter within caps", () => {
    const rng = createRng(1);
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 2000 };
    expect(backoffMs(0, policy, rng, 3)).toBe(2000); // capped retry-after
    expect(backoffMs(0, policy, rng, 1)).toBe(1000);
    for (let attempt = 0; attempt < 8; attempt++) {
      const cap = Math.min(2000, 100 * 2 ** attempt);
      const d = backoffMs(attempt, policy, rng);
      expect(d).toBeGreaterThanOrEqual(cap / 2);
      expect(d).toBeLessThanOrEqual(cap);
    }
  });

  it("classifies rate limits, server errors, timeouts and broken JSON as retryable, 4xx as final", () => {
    const headers = new Headers({ "retry-after": "7" });
    expect(classifyError({ status: 429, headers, message: "slow down" })).toEqual({
      retryable: true,
      status: 429,
      retryAfterSeconds: 7,
      summary: "HTTP 429: slow down",
      origin: "server",
    });
    // retry-after-ms first (OpenAI's), and retry-after as an HTTP date: what the limiter reads too.
    const ms = new Headers({ "retry-after-ms": "250", "retry-after": "1" });
    expect(classifyError({ status: 429, headers: ms, message: "x" }).retryAfterSeconds).toBe(0.25);
    const inFive = new Date(Date.now() + 5_000).toUTCString();
    const dated = classifyError({
      status: 429,
      headers: new Headers({ "retry-after": inFive }),
      message: "x",
    });
    expect(dated.retryAfterSeconds).toBeGreaterThan(3); // the date has whole seconds: 4–5 s from now
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(5);
    expect(classifyError({ status: 503, message: "x" }).retryable).toBe(true);
    expect(classifyError({ status: 400, message: "bad" }).retryable).toBe(false);
    expect(classifyError({ status: 401, message: "no key" }).retryable).toBe(false);
    expect(
      classifyError(Object.assign(new Error("Request timed out."), { name: "APIConnectionTimeoutError" }))
        .retryable,
    ).toBe(true);
    expect(classifyError(new SyntaxError("Unexpected token } in JSON at position 3")).retryable).toBe(true);
    expect(classifyError(new TypeError("cannot read x of undefined"))).toMatchObject({
      retryable: false,
      origin: "client",
    });
  });

  it("reads a status under a wrapper (LangChain's context overflow keeps the 400 as its cause)", () => {
    const overflow = Object.assign(new Error("maximum context length exceeded"), {
      name: "ContextOverflowError",
      cause: { status: 400, message: "400 This model's maximum context length is 8192 tokens" },
    });
    expect(classifyError(overflow)).toMatchObject({ retryable: false, status: 400, origin: "server" });
  });

  it("a 200 that is not a chat completion, wrapped by the SDK as a connection error, is the server's and retryable", () => {
    const wrapped = Object.assign(new Error("Connection error."), {
      name: "APIConnectionError",
      cause: new NotAChatCompletion(200, "empty"),
    });
    expect(classifyError(wrapped)).toEqual({
      retryable: true,
      summary: "the server answered 200 with an empty body",
      origin: "server",
      label: "the server answered 200 with an empty body",
    });
  });
});

describe("CircuitBreaker", () => {
  it("opens after the threshold of consecutive failures, says why, and closes after the cooldown", async () => {
    const opened: string[] = [];
    const b = new CircuitBreaker(3, 50, (reason) => opened.push(reason));
    b.failure("HTTP 500");
    b.failure("HTTP 500");
    b.success(); // resets the count
    b.failure("HTTP 500");
    b.failure("HTTP 500");
    expect(b.isOpen).toBe(false);
    // Measured from before the failure that opens it: the cooldown runs from that moment, however
    // long a loaded machine takes to reach the wait.
    const t0 = Date.now();
    b.failure("HTTP 503: down");
    expect(b.isOpen).toBe(true);
    expect(opened).toEqual(["3 consecutive failures, last: HTTP 503: down"]);
    await b.waitUntilClosed();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(50);
    expect(b.isOpen).toBe(false);
  });

  it("counts the times it opened with no success between: a model that answers nothing says so", async () => {
    const inARow: number[] = [];
    const b = new CircuitBreaker(2, 5, (_reason, _until, n) => inARow.push(n));
    b.failure("x");
    b.failure("x"); // opens (1)
    await b.waitUntilClosed();
    b.failure("x"); // the probe after the cooldown fails: opens again (2)
    await b.waitUntilClosed();
    b.success(); // something answered: the next opening counts from one
    b.failure("x");
    b.failure("x");
    expect(inARow).toEqual([1, 2, 1]);
  });
});
