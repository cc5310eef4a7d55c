import { describe, expect, it } from "vitest";
import {
  errorResponse,
  lineBytes,
  lineRecord,
  readResultLine,
  requestLine,
  responseFor,
  splitIntoBatches,
} from "../../../agents/llm/batch/lines.ts";

describe("batch JSONL", () => {
  it("writes a request line around the body text as it came", () => {
    const body = '{"model":"m","messages":[{"role":"user","content":"é \\"q\\""}],"seed":3}';
    const line = requestLine("k1", body);
    expect(JSON.parse(line)).toEqual({
      custom_id: "k1",
      method: "POST",
      url: "/v1/chat/completions",
      body: JSON.parse(body),
    });
    expect(line.endsWith(`"body":${body}}`)).toBe(true);
    // UTF-8 bytes with the newline: "é" is two bytes.
    expect(lineBytes("aé")).toBe(4);
  });

  it("splits into batches within the request count and the bytes, keeping the order", () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i, bytes: 10 }));
    const byCount = splitIntoBatches(items, { requests: 4, bytes: 1_000 });
    expect(byCount.batches.map((b) => b.map((x) => x.i))).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    const byBytes = splitIntoBatches(items, { requests: 100, bytes: 35 });
    expect(byBytes.batches.map((b) => b.length)).toEqual([3, 3, 3, 1]);
    for (const b of byBytes.batches) expect(b.reduce((a, x) => a + x.bytes, 0)).toBeLessThanOrEqual(35);
    // Exactly at the limit fits.
    expect(splitIntoBatches(items.slice(0, 4), { requests: 4, bytes: 40 }).batches).toHaveLength(1);
    const mixed = splitIntoBatches(
      [
        { i: 0, bytes: 5 },
        { i: 1, bytes: 50 },
        { i: 2, bytes: 5 },
      ],
      { requests: 9, bytes: 20 },
    );
    expect(mixed.oversized.map((x) => x.i)).toEqual([1]);
    expect(mixed.batches.map((b) => b.map((x) => x.i))).toEqual([[0, 2]]);
    expect(splitIntoBatches([], { requests: 1, bytes: 1 })).toEqual({ batches: [], oversized: [] });
  });

  it("reads output lines, error lines and lines that never ran", () => {
    const ok = readResultLine(
      JSON.stringify({
        id: "batch_req_1",
        custom_id: "a",
        response: {
          status_code: 200,
          request_id: "r",
          body: {
            choices: [],
            usage: {
              prompt_tokens: 12,
              completion_tokens: 4,
              completion_tokens_details: { reasoning_tokens: 3 },
            },
          },
        },
        error: null,
      }),
    );
    expect(ok).toMatchObject({ customId: "a", status: 200, code: null });
    expect(lineRecord(ok as never)).toEqual({
      customId: "a",
      state: "answered",
      status: 200,
      error: null,
      inputTokens: 12,
      cachedInputTokens: 0,
      outputTokens: 4,
      reasoningTokens: 3,
    });
    // A batch answer's prompt-cache hits (OpenAI's batch output reports them as a live answer does)
    // are kept apart for the price; a server that miscounts them above the prompt gets the prompt.
    const withHits = (cached: number) =>
      readResultLine(
        JSON.stringify({
          custom_id: "h",
          response: {
            status_code: 200,
            body: {
              choices: [],
              usage: {
                prompt_tokens: 1200,
                completion_tokens: 9,
                prompt_tokens_details: { cached_tokens: cached },
              },
            },
          },
          error: null,
        }),
      );
    expect(lineRecord(withHits(1024) as never)).toMatchObject({ inputTokens: 1200, cachedInputTokens: 1024 });
    expect(lineRecord(withHits(5000) as never)).toMatchObject({ cachedInputTokens: 1200 });
    // A negative count (a malformed line) counts nothing rather than cancel other lines' hits in a sum.
    expect(lineRecord(withHits(-100) as never)).toMatchObject({ inputTokens: 1200, cachedInputTokens: 0 });
    const failed = readResultLine(
      JSON.stringify({
        custom_id: "b",
        response: { status_code: 500, body: { error: { message: "boom", type: "server_error" } } },
        error: null,
      }),
    );
    expect(lineRecord(failed as never)).toMatchObject({
      state: "failed",
      status: 500,
      error: "HTTP 500: boom",
      inputTokens: 0,
    });
    const expired = readResultLine(
      JSON.stringify({
        custom_id: "c",
        response: null,
        error: { code: "batch_expired", message: "too late" },
      }),
    );
    expect(expired).toEqual({
      customId: "c",
      status: null,
      body: null,
      code: "batch_expired",
      message: "too late",
    });
    expect(lineRecord(expired as never)).toMatchObject({
      state: "failed",
      status: null,
      error: "batch_expired: too late",
    });
    expect(readResultLine("{nope")).toMatch(/not JSON/);
    expect(readResultLine('{"response": {}}')).toMatch(/no custom_id/);
  });

  it("answers a line with the HTTP the live request would have had", async () => {
    const ok = responseFor(
      { customId: "a", status: 200, body: { x: 1 }, code: null, message: null },
      "batch_1",
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/json");
    expect(await ok.json()).toEqual({ x: 1 });
    const refused = responseFor(
      { customId: "a", status: 401, body: { error: { message: "key" } }, code: null, message: null },
      "b",
    );
    expect(refused.status).toBe(401);
    const expired = responseFor(
      { customId: "a", status: null, body: null, code: "batch_expired", message: "late" },
      "batch_7",
    );
    expect(expired.status).toBe(408);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toBe(
      "batch_expired: late (batch batch_7)",
    );
    const cancelled = responseFor(
      { customId: "a", status: null, body: null, code: "batch_cancelled", message: "x" },
      "b",
    );
    expect(cancelled.status).toBe(503);
    const e = errorResponse(429, "slow down", "rate");
    expect([e.status, ((await e.json()) as { error: { code: string } }).error.code]).toEqual([429, "rate"]);
  });
});
