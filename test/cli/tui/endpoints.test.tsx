import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { Dashboard } from "../../../cli/tui/components/Dashboard.tsx";
import { type EndpointRow, endpointLines, endpointSummaryLine } from "../../../cli/tui/endpoints.ts";
import { liveLayout } from "../../../cli/tui/live/LiveApp.tsx";
import { plainAgentLine, plainEndpointLine } from "../../../cli/tui/plain.ts";
import { DashboardState } from "../../../cli/tui/state/dashboard.ts";
import { lines, longBargainRecord, widest } from "./fixtures.ts";

afterEach(() => cleanup());

/** An adaptive limiter that found a server's limit in its headers (a fake snapshot). */
const FOUND: EndpointRow = {
  model: "sim-steep",
  url: "http://127.0.0.1:8787/v1",
  adaptive: true,
  inFlight: 12,
  window: 16,
  ceiling: 64,
  pacedPerMinute: 582,
  found: { requestsPerMinute: 600, tokensPerMinute: 150_000, source: "headers" },
  requests: 1234,
  throttled: 3,
  latencyMs: 210,
};
const LONG: EndpointRow = {
  ...FOUND,
  model: "accounts/fireworks/models/llama-v3p1-405b-instruct-long-name",
  url: "https://a-very-long-host-name.inference.example.com:8443/openai/deployments/eu-west/v1",
  found: { requestsPerMinute: 540, source: "429s" },
  pacedPerMinute: null,
};

function view(endpoints: EndpointRow[]) {
  const s = new DashboardState({
    runId: "choice-abc",
    env: "choice",
    target: 80,
    agents: [{ agent: "openai:sim-steep", total: 80, storedBefore: 0 }],
    startedAt: 0,
    endpoints: () => endpoints,
  });
  s.progress({ stored: 10, elapsedMs: 1000 });
  return s.snapshot(1000);
}

describe("endpoints in the live view and the summary", () => {
  it("the dashboard shows each endpoint's concurrency and the limit it found", () => {
    const f = render(<Dashboard view={view([FOUND])} width={119} episodeHeight={6} />).lastFrame()!;
    // Parts carried whole to the next line where they do not fit.
    expect(lines(f)).toContain(
      "endpoint sim-steep at http://127.0.0.1:8787/v1 · 12 in flight of 16 (adaptive, ceiling 64) · paced 582/min",
    );
    expect(lines(f)).toContain("limit 600 req/min, 150.0k tok/min (the server's headers) · 429s 3 of 1,234");
  });

  it("wraps a long model name or URL over lines rather than cutting it, and counts those rows in the layout", () => {
    for (const width of [40, 79]) {
      const ls = endpointLines(LONG, width);
      expect(Math.max(...ls.map((l) => l.length))).toBeLessThanOrEqual(width);
      const joined = ls.join("");
      expect(joined).toContain(LONG.model);
      expect(joined.replace(/ /g, "")).toContain(LONG.url);
    }
    const v = view([LONG, FOUND]);
    const f = render(<Dashboard view={v} width={79} episodeHeight={4} />).lastFrame()!;
    expect(widest(f)).toBeLessThanOrEqual(79);
    expect(f).toContain(LONG.model);
    expect(f).toContain("limit 540 req/min (from its 429s)");
    // The live area stays shorter than the terminal with the endpoints' rows counted.
    const layout = liveLayout(v, { rows: 24, help: false, width: 79 });
    const drawn = render(<Dashboard view={v} width={79} {...layout} />).lastFrame()!;
    expect(lines(drawn).length).toBeLessThan(24);
  });

  it("a fixed limiter, one not yet throttled, and no endpoints for a simulated run", () => {
    const fixed = { ...FOUND, adaptive: false, window: 64, pacedPerMinute: null, found: null };
    expect(plainEndpointLine(fixed)).toBe(
      "endpoint sim-steep at http://127.0.0.1:8787/v1 · 12 in flight of 64 (fixed) · 429s 3 of 1,234",
    );
    expect(plainEndpointLine({ ...FOUND, found: null, pacedPerMinute: null })).toContain(
      "no rate limit met yet",
    );
    const f = render(<Dashboard view={view([])} width={99} episodeHeight={4} />).lastFrame()!;
    expect(f).not.toContain("endpoint");
  });

  it("the run summary's line: the window at the end, the limit found, the share answered 429", () => {
    expect(endpointSummaryLine(FOUND)).toBe(
      "endpoint sim-steep at http://127.0.0.1:8787/v1: concurrency 16 at the end (adaptive, ceiling 64); limit 600 req/min, 150.0k tok/min (the server's headers); 1,234 requests, 3 answered 429 (0.2%)",
    );
  });

  it("sums an agent's prompt-cache hits from its trials (none counted before the field: no brackets)", () => {
    const s = new DashboardState({
      runId: "b",
      env: "bargain",
      target: 3,
      agents: [{ agent: "og-narrator:openai:m vs rule:boulware", total: 3, storedBefore: 0 }],
      startedAt: 0,
      costOf: (_a, u) => (u.inputTokens - (u.cachedInputTokens ?? 0)) * 1e-6,
    });
    const r = longBargainRecord(4, 0);
    const usage = r.usage as { inputTokens: number };
    s.trial(0, r);
    expect(plainAgentLine(s.snapshot(10).agents[0]!)).toContain("tokens 12.0k in / 800 out · cost $0.0120");
    s.trial(0, { ...r, seq: 1, usage: { ...usage, cachedInputTokens: 2_000 } });
    s.trial(0, { ...r, seq: 2, usage: { ...usage, cachedInputTokens: 1_000 } });
    const a = s.snapshot(20).agents[0]!;
    expect(a.usage).toMatchObject({ inputTokens: 36_000, cachedInputTokens: 3_000 });
    expect(plainAgentLine(a)).toContain("tokens 36.0k in (3.0k cached) / 2.4k out · cost $0.0330");
  });
});
