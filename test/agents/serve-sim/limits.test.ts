import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRateLimit } from "../../../agents/llm/rate-headers.ts";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import { RateLimits } from "../../../agents/serve-sim/limits.ts";
import type { SimServer } from "../../../agents/serve-sim/types.ts";
import { serveSimOptions } from "../../../cli/actions/serve-sim.ts";
import { binaryTasks, messagesFor, post, SERVE_SIM_FLAGS } from "./helpers.ts";

const body = (model = "sim-steep") => ({
  model,
  messages: messagesFor(binaryTasks(1)[0]!),
  max_tokens: 50,
});

describe("serve-sim's rate limit as token buckets (a fake clock)", () => {
  it("admits a bucket's worth at once, then 429s saying when to come back, and refills at the limit", () => {
    let now = 0;
    const limits = new RateLimits({ rpm: 600 }, () => now);
    // 600 a minute, a second's worth at once: ten.
    for (let i = 0; i < 10; i++) expect(limits.admit(10, "m").ok).toBe(true);
    const refused = limits.admit(10, "m");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.kind).toBe("requests");
    expect(refused.message).toMatch(
      /^Rate limit reached for m on requests per min \(RPM\): Limit 600, Used 10/,
    );
    expect(refused.headers).toMatchObject({
      "x-ratelimit-limit-requests": "600",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
      "retry-after": "1",
      "retry-after-ms": "100",
    });
    // A tenth of a second refills one request; the answer says one remains until it is taken.
    now = 100;
    const again = limits.admit(10, "m");
    expect(again.ok).toBe(true);
    expect(again.headers["x-ratelimit-remaining-requests"]).toBe("0");
    expect(again.headers["x-ratelimit-reset-requests"]).toBe("1s");
    now = 600;
    expect(limits.admit(10, "m").headers["x-ratelimit-remaining-requests"]).toBe("4");
  });

  it("counts tokens against --limit-tpm, and says nothing with headers off", () => {
    let now = 0;
    const limits = new RateLimits({ tpm: 60_000 }, () => now); // 1,000 at once
    expect(limits.admit(700, "m").ok).toBe(true);
    const refused = limits.admit(700, "m");
    expect(refused).toMatchObject({ ok: false, kind: "tokens" });
    expect(refused.headers).toMatchObject({
      "x-ratelimit-limit-tokens": "60000",
      "x-ratelimit-remaining-tokens": "300",
      "x-ratelimit-reset-tokens": "700ms",
      "retry-after-ms": "400",
    });
    expect(refused.headers["x-ratelimit-limit-requests"]).toBeUndefined();
    limits.set({ headers: false });
    now = 10_000;
    expect(limits.admit(700, "m")).toEqual({ ok: true, headers: {} });
    expect(limits.admit(700, "m")).toMatchObject({ ok: false, headers: {} });
  });

  it("a changed limit keeps the share of the bucket left; null removes one; bad values change nothing", () => {
    let now = 0;
    const limits = new RateLimits({ rpm: 600 }, () => now);
    for (let i = 0; i < 5; i++) limits.admit(1, "m");
    limits.set({ rpm: 300 }); // half full: 2.5 of 5
    expect(limits.admit(1, "m").headers["x-ratelimit-remaining-requests"]).toBe("1");
    expect(() => limits.set({ rpm: -1 })).toThrow(/rpm must be > 0/);
    expect(() => limits.set({ tpm: 100, burstSeconds: 0 })).toThrow(/burstSeconds must be > 0/);
    expect(limits.get()).toEqual({ rpm: 300, tpm: null, burstSeconds: 1, headers: true });
    limits.set({ rpm: null });
    expect(limits.active).toBe(false);
    now = 1;
    expect(limits.get().rpm).toBeNull();
  });
});

describe("serve-sim's rate limit at the wire", () => {
  let server: SimServer;
  let root: string;
  beforeAll(async () => {
    server = await startSimServer({ limits: { rpm: 120 }, promptCache: true }); // two at once
    root = server.url.replace(/\/v1$/, "");
  });
  afterAll(() => server.close());

  it("answers within the limit with OpenAI's headers and beyond it 429 rate_limit_exceeded", async () => {
    server.setLimits({ rpm: 120 });
    // Two at once, then one every 500 ms: five in a row outrun the refill however slow the machine.
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(server.url, body()));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(readRateLimit((n) => ok[0]!.headers.get(n))).toMatchObject({ limitRequests: 120 });
    expect(limited.length).toBeGreaterThanOrEqual(1);
    const l = limited[0]!;
    expect(l.json.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    expect(l.json.error.message).toMatch(
      /Rate limit reached for sim-steep on requests per min \(RPM\): Limit 120/,
    );
    const info = readRateLimit((n) => l.headers.get(n))!;
    expect(info.remainingRequests).toBe(0);
    expect(info.retryAfterMs).toBeGreaterThan(0);
    expect(Number(l.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(server.stats().byOutcome.limited).toBeGreaterThanOrEqual(1);
  });

  it("GET /_sim/limits says the limit; POST changes it at once; bad bodies are 400s saying what is wrong", async () => {
    expect(await (await fetch(`${root}/_sim/limits`)).json()).toMatchObject({ rpm: 120, tpm: null });
    const change = async (b: string) => {
      const r = await fetch(`${root}/_sim/limits`, { method: "POST", body: b });
      // biome-ignore lint/suspicious/noExplicitAny: wire bodies are checked field by field
      return { status: r.status, json: (await r.json()) as any };
    };
    expect(await change(JSON.stringify({ rpm: 6, headers: false }))).toEqual({
      status: 200,
      json: { rpm: 6, tpm: null, burstSeconds: 1, headers: false },
    });
    // 6 a minute holds less than one: the bucket holds one, taken by now or soon.
    let limited = await post(server.url, body());
    if (limited.status === 200) limited = await post(server.url, body());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-limit-requests")).toBeNull();
    expect(limited.headers.get("retry-after")).toBeNull();
    const bad = async (b: string, message: RegExp) => {
      const r = await change(b);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(message);
    };
    await bad("rpm=5", /expected JSON like \{"rpm": 300/);
    await bad("[1]", /expected a JSON object/);
    await bad(
      JSON.stringify({ rpm: 5, pad: "x".repeat(20_000) }),
      /the body is longer than 10,000 characters/,
    );
    await bad(JSON.stringify({ rps: 5 }), /unknown field rps \(rpm, tpm, burstSeconds, headers\)/);
    await bad(JSON.stringify({ rpm: "fast" }), /rpm must be a number or null/);
    await bad(JSON.stringify({ rpm: 0 }), /rpm must be > 0, got 0/);
    await bad(JSON.stringify({ headers: "yes" }), /headers must be true or false/);
    expect((await change(JSON.stringify({ rpm: null, headers: true }))).json).toMatchObject({ rpm: null });
    expect((await post(server.url, body())).status).toBe(200);
  });

  it("reports a repeated prefix as the provider's prompt-cache hits (cached_tokens)", async () => {
    server.setLimits({ rpm: null });
    await post(server.url, body()); // the prefix, seen once
    const first = await post(server.url, {
      ...body(),
      messages: [...body().messages, { role: "user", content: "a" }],
    });
    const second = await post(server.url, {
      ...body(),
      messages: [...body().messages, { role: "user", content: "b" }],
    });
    expect(first.json.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(0); // the prefix sent just before
    const details = second.json.usage.prompt_tokens_details;
    expect(details.cached_tokens).toBeGreaterThan(0);
    expect(details.cached_tokens).toBeLessThan(second.json.usage.prompt_tokens);
  });
});

describe("serve-sim's limit flags", () => {
  const flags = SERVE_SIM_FLAGS;

  it("reads --limit-rpm, --limit-tpm, --limit-burst-seconds, --no-rate-headers, --latency-knee, --prompt-cache", () => {
    const o = serveSimOptions({
      ...flags,
      limitRpm: "600",
      limitTpm: "1e5",
      limitBurstSeconds: "2",
      rateHeaders: false,
      latencyKnee: "8",
      promptCache: true,
    });
    expect(o.limits).toEqual({ rpm: 600, tpm: 100_000, burstSeconds: 2, headers: false });
    expect(o.latencyKnee).toBe(8);
    expect(o.promptCache).toBe(true);
    expect(serveSimOptions(flags).limits).toEqual({ burstSeconds: 1, headers: true });
  });

  it("names a bad flag", () => {
    expect(() => serveSimOptions({ ...flags, limitRpm: "0" })).toThrow(/--limit-rpm/);
    expect(() => serveSimOptions({ ...flags, limitTpm: "lots" })).toThrow(/--limit-tpm/);
    expect(() => serveSimOptions({ ...flags, limitBurstSeconds: "-1" })).toThrow(/--limit-burst-seconds/);
    expect(() => serveSimOptions({ ...flags, latencyKnee: "0.5" })).toThrow(/--latency-knee/);
  });
});
