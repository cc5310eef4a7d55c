import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../../agents/serve-sim/index.ts";
import type { SimServer } from "../../../agents/serve-sim/types.ts";
import { runInProcess, tempDir } from "../../helpers/cli.ts";

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ promptCache: true });
});
afterAll(() => server.close());

describe("a run against serve-sim, in this process", () => {
  it("watches and sums up its endpoint's limiter and the tokens it spent, prompt-cache hits among them", async () => {
    const store = path.join(tempDir("bazaar-endpoints-"), "t.db");
    const args = ["run", "choice", "--agent", "openai:sim-steep", "--base-url", server.url, "--store", store];
    // A small design: a run stores its whole design's tasks first.
    const small = ["--pairs", "10", "--triples", "0", "--fives", "0"];
    const r = await runInProcess([...args, ...small, "--limit", "24", "--watch"]);
    expect(r.code, r.err).toBe(0);
    const at = `sim-steep at ${server.url}`;
    // The plain live view (no terminal here) prints the endpoint beside the progress lines…
    expect(r.err).toMatch(
      new RegExp(`^endpoint ${at} · \\d+ in flight of \\d+ \\(adaptive, ceiling \\d+\\)`, "m"),
    );
    // …and the summary says where its window ended and what it found.
    expect(r.out).toMatch(
      new RegExp(
        `^endpoint ${at}: concurrency \\d+ at the end \\(adaptive, ceiling \\d+\\); .*; 24 requests, 0 answered 429`,
        "m",
      ),
    );
    expect(r.out).toMatch(
      /^spent by openai:sim-steep over the run: [\d,]+ prompt tokens \([1-9][\d,]* of them prompt-cache hits\), [\d,]+ completion tokens in 24 calls · cost: --prices/m,
    );
  });
});
