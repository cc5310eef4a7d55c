/**
 * Real providers, offline: `bazaar run` against serve-sim set up as a provider that goes wrong.
 * A wrong key, an unknown model or a closed port stops the run before any model call, with exit 2
 * and one line; a key revoked mid-run stops it cleanly and the same command resumes; requests that
 * fail through every retry are failed trials — out of the analysis, counted, re-run by the same
 * command — and a bargaining session cut by one is failed, not invalid.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { analyzeChoice, choiceTrialsFromRecords, DEFAULT_CONVENTION } from "../../analysis/choice/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const savedKey = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function choiceArgs(baseUrl: string, store: string, extra: string[] = []): string[] {
  return ["run", "choice", "--agent", "openai:sim-steep", "--base-url", baseUrl, "--store", store, ...extra];
}

describe("a wrong configuration stops the run before it spends anything", () => {
  it("a rejected key: exit 2, one line on what to fix, no store, no model call", async () => {
    const server = await startSimServer({ apiKey: "sk-right" });
    try {
      process.env.OPENAI_API_KEY = "sk-wrong";
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess(choiceArgs(server.url, store, ["--limit", "50"]));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /^bazaar: http:\/\/127\.0\.0\.1:\d+\/v1 rejected the API key \(HTTP 401: Incorrect API key/m,
      );
      expect(r.err).toMatch(/set OPENAI_API_KEY \(or --env-file\)/);
      expect(r.err).not.toContain("sk-wrong");
      expect(existsSync(store)).toBe(false);
      expect(server.stats().requests).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("an unknown model: exit 2, the models the server does serve, no store, no model call", async () => {
    const server = await startSimServer();
    try {
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess([
        "run",
        "bargain",
        "--buyer",
        "openai:sim-llm",
        "--seller",
        "rule:boulware",
        "--base-url",
        server.url,
        "--store",
        store,
      ]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /model sim-llm is not served at http:\/\/127\.0\.0\.1:\d+\/v1\n {2}it serves: sim-steep, /,
      );
      expect(existsSync(store)).toBe(false);
      expect(server.stats().requests).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("a closed port: exit 2, the endpoint does not answer, no store", async () => {
    const port = await closedPort();
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess(choiceArgs(`http://127.0.0.1:${port}/v1`, store));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`the endpoint http://127\\.0\\.0\\.1:${port}/v1 does not answer \\(ECONNREFUSED\\)`),
    );
    expect(r.err).toMatch(/check --base-url, or start the server first/);
    expect(existsSync(store)).toBe(false);
  });

  it("a key revoked mid-run stops it cleanly; the same command resumes once the key is good", async () => {
    const server = await startSimServer({ apiKey: "sk-good" });
    try {
      const store = path.join(tempDir(), "s.db");
      const design = ["--pairs", "40", "--pair-appearances", "1", "--triples", "0", "--fives", "0"];
      process.env.OPENAI_API_KEY = "sk-good";
      const first = await runInProcess(choiceArgs(server.url, store, [...design, "--limit", "30", "--json"]));
      expect(JSON.parse(first.out)).toMatchObject({ stored: 30, ranNow: 30, failed: 0 });
      // Revoked: preflight skipped, so the calls themselves meet the 401.
      process.env.OPENAI_API_KEY = "sk-revoked";
      const stopped = await runInProcess(choiceArgs(server.url, store, [...design, "--no-preflight"]));
      expect(stopped.code).toBe(2);
      expect(stopped.err).toMatch(/rejected the API key for sim-steep \(HTTP 401/);
      expect(stopped.err).toMatch(
        /the run stopped with 30 of 80 trials stored — run the same command again once it is fixed/,
      );
      process.env.OPENAI_API_KEY = "sk-good";
      const resumed = await runInProcess(choiceArgs(server.url, store, [...design, "--json"]));
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.out)).toMatchObject({ stored: 80, ranNow: 50, failed: 0 });
    } finally {
      await server.close();
    }
  });
});

describe("model-family parameters", () => {
  it("sends what the model takes, says once what it left out, and records it in the run", async () => {
    const dir = tempDir();
    const rules = path.join(dir, "rules.json");
    writeFileSync(
      rules,
      JSON.stringify([
        {
          name: "sim-as-reasoner",
          match: "^sim-steep$",
          drop: ["temperature"],
          maxTokensField: "max_completion_tokens",
          why: "a test reasoner",
        },
      ]),
    );
    const args = [
      "--pairs",
      "5",
      "--pair-appearances",
      "1",
      "--triples",
      "0",
      "--fives",
      "0",
      "--temperature",
      "0.7",
      "--max-tokens",
      "5",
    ];
    const server = await startSimServer();
    try {
      const plain = await runInProcess(choiceArgs(server.url, path.join(dir, "a.db"), args));
      expect(plain.code).toBe(0);
      expect(plain.err).not.toMatch(/not sent/);
      expect(server.stats().sent).toMatchObject({ temperature: 10, max_tokens: 10, seed: 10 });
      const ruled = await runInProcess(
        choiceArgs(server.url, path.join(dir, "b.db"), [...args, "--model-rules", rules, "--json"]),
      );
      expect(ruled.code).toBe(0);
      expect(ruled.err.match(/not sent/g)).toHaveLength(1);
      expect(ruled.err).toMatch(
        /openai:sim-steep: temperature not sent to sim-steep — a test reasoner \(rule sim-as-reasoner/,
      );
      const sent = server.stats().sent;
      expect(sent.temperature).toBe(10); // only the first run's
      expect(sent.max_tokens).toBe(10);
      expect(sent.max_completion_tokens).toBe(10);
      const runId = (JSON.parse(ruled.out) as { runId: string }).runId;
      const runs = JSON.parse(
        (await runInProcess(["runs", "--store", path.join(dir, "b.db"), "--json"])).out,
      ) as {
        id: string;
        config: { agentIdentities: Record<string, unknown>[] };
      }[];
      expect(runs.find((r) => r.id === runId)!.config.agentIdentities[0]).toMatchObject({
        temperature: 0.7,
        notSent: ["temperature"],
        rule: "sim-as-reasoner",
      });
    } finally {
      await server.close();
    }
  });
});

interface RunJson {
  runId: string;
  stored: number;
  ranNow: number;
  failedNow: number;
  failed: number;
}

describe("requests that fail through every retry", () => {
  it("are failed trials: the analysis equals that of the same trials without them; the same command completes the run", async () => {
    const design = ["--pairs", "100", "--pair-appearances", "2", "--triples", "0", "--fives", "0"];
    // The breaker's pause after a run of failures (30 s) shortened: what is tested is the trials.
    const extra = [
      ...design,
      "--max-retries",
      "2",
      "--concurrency",
      "16",
      "--breaker-cooldown-ms",
      "200",
      "--json",
    ];
    // 5% of distinct requests fail on their first three arrivals: every attempt of a run with two
    // retries. (The same server then answers them: the second store below sees no failure.)
    const flaky = await startSimServer({ drop: { rate: 0.05, attempts: 3 }, seed: 11 });
    try {
      const dirA = tempDir();
      const storeA = path.join(dirA, "a.db");
      const a = JSON.parse((await runInProcess(choiceArgs(flaky.url, storeA, extra))).out) as RunJson;
      expect(a.failedNow).toBeGreaterThan(5);
      expect(a.failed).toBe(a.failedNow);
      expect(a.stored + a.failedNow).toBe(400);
      expect(flaky.stats().byOutcome.dropped).toBe(3 * a.failedNow);

      const storeB = path.join(tempDir(), "b.db");
      const b = JSON.parse((await runInProcess(choiceArgs(flaky.url, storeB, extra))).out) as RunJson;
      expect(b).toMatchObject({ runId: a.runId, stored: 400, failed: 0 });

      const analysis = async (store: string) => {
        const r = await runInProcess(["analyze", a.runId, "--store", store, "--bootstrap", "0", "--json"]);
        expect(r.code).toBe(0);
        return JSON.parse(r.out) as { analyses: { default: unknown }; failedTrials: number };
      };
      const exported = async (store: string) => {
        const file = `${store}.jsonl`;
        await runInProcess(["export", a.runId, "--store", store, "--format", "jsonl", "--out", file]);
        return readFileSync(file, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown> & { seq: number });
      };
      // The same trials without the failed ones, analysed as the CLI does.
      const storedSeqs = new Set((await exported(storeA)).map((t) => t.seq));
      expect(storedSeqs.size).toBe(a.stored);
      const subset = (await exported(storeB)).filter((t) => storedSeqs.has(t.seq));
      const expected = analyzeChoice(choiceTrialsFromRecords(subset), {
        convention: DEFAULT_CONVENTION,
        bootstrapDraws: 0,
        seed: "bazaar-choice",
        providers: {},
      });
      const withFailures = await analysis(storeA);
      expect(withFailures.failedTrials).toBe(a.failedNow);
      expect(withFailures.analyses.default).toEqual(JSON.parse(JSON.stringify(expected)));

      // The same command again: exactly the failed trials run, and the run is whole.
      // (B's run answered the dropped requests already; the same requests now succeed for A too.)
      const again = JSON.parse((await runInProcess(choiceArgs(flaky.url, storeA, extra))).out) as RunJson;
      expect(again).toMatchObject({ ranNow: a.failedNow, failedNow: 0, failed: 0, stored: 400 });
      expect((await analysis(storeA)).analyses.default).toEqual((await analysis(storeB)).analyses.default);
    } finally {
      await flaky.close();
    }
  });

  it("a bargaining session cut by one is failed, not an invalid session", async () => {
    const server = await startSimServer({ drop: { rate: 0.15, attempts: 2 }, seed: 4 });
    try {
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess([
        "run",
        "bargain",
        "--buyer",
        "openai:sim-bargain-llm",
        "--seller",
        "rule:boulware",
        "--scenarios",
        "30",
        "--base-url",
        server.url,
        "--max-retries",
        "1",
        "--store",
        store,
        "--json",
      ]);
      // Not whole: exit code 3 (failed trials, which the same command runs again).
      expect(r.code).toBe(3);
      const run = JSON.parse(r.out) as RunJson;
      expect(run.failedNow).toBeGreaterThan(0);
      expect(run.stored + run.failedNow).toBe(30);
      const analyzed = JSON.parse(
        (await runInProcess(["analyze", run.runId, "--store", store, "--json", "--paired-resamples", "10"]))
          .out,
      ) as {
        sessions: number;
        byBuyer: { summary: { ALL: { invalid: number; invalidByCause: Record<string, number> } } }[];
      };
      expect(analyzed.sessions).toBe(run.stored);
      expect(analyzed.byBuyer[0]!.summary.ALL.invalid).toBe(0);
    } finally {
      await server.close();
    }
  });
});
