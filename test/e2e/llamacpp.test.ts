/**
 * What llama.cpp's `llama-server` showed, reproduced by `serve-sim --dialect llamacpp` and checked
 * through the CLI: a model list open to any key (the key proven by a completion), tool calls with
 * empty ids, answers stopped at the output cap, tool calls left optional under "auto", an endpoint
 * that stops answering. Runs are in process (the CLI's own `main`), quicker than a spawned one.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const savedKey = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
});

interface RunJson {
  runId: string;
  stored: number;
  failed: number;
  nonResponsesNow: number;
  cutAtCapNow: number;
}

/** A run's trials as `bazaar export` writes them. */
async function exportRun(store: string, runId: string): Promise<Record<string, unknown>[]> {
  const file = `${store}.jsonl`;
  const r = await runInProcess(["export", runId, "--store", store, "--out", file]);
  expect(r.code, r.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("serve-sim --dialect llamacpp through the CLI", () => {
  it("a wrong key is caught before the run although the model list answers any key; nothing is stored", async () => {
    const server = await startSimServer({ dialect: "llamacpp", apiKey: "sk-right" });
    try {
      const store = path.join(tempDir(), "s.db");
      // The list itself is open: what a key-less GET shows.
      expect((await fetch(`${server.url}/models`)).status).toBe(200);
      process.env.OPENAI_API_KEY = "sk-wrong";
      const args = [
        "run",
        "choice",
        "--agent",
        "openai:sim-steep",
        "--base-url",
        server.url,
        "--store",
        store,
      ];
      const r = await runInProcess([...args, "--limit", "20"]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/rejected the API key \(HTTP 401/);
      expect(existsSync(store)).toBe(false);
      // The preflight's probe was refused; no trial's call was made.
      expect(server.stats().byOutcome.unauthorized).toBe(1);
      expect(server.stats().requests).toBe(0);
      process.env.OPENAI_API_KEY = "sk-right";
      expect((await runInProcess([...args, "--limit", "20"])).code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("tool calls with empty ids: their results go back as tool messages under made-up ids", async () => {
    const server = await startSimServer({ dialect: "llamacpp" });
    try {
      const store = path.join(tempDir(), "s.db");
      const r = await runInProcess([
        "run",
        "shop",
        "--agent",
        "openai:sim-shop-careful",
        "--answer-mode",
        "tools",
        // Every answer a tool call (under "auto" the server may let the model write text instead).
        "--tool-choice",
        "required",
        "--tasks",
        "6",
        "--replicates",
        "1",
        "--base-url",
        server.url,
        "--store",
        store,
        "--json",
      ]);
      expect(r.code, r.err).toBe(0);
      const run = JSON.parse(r.out) as RunJson;
      expect(run.stored).toBe(6);
      // Every request after the first of an episode answers the calls before it with tool messages.
      const s = server.stats();
      expect(s.sent.tool_results).toBeGreaterThan(0);
      expect(s.sent.tool_results).toBe(s.requests - 6);
    } finally {
      await server.close();
    }
  });

  it("an answer stopped at the output cap: a non-response that says so, counted in the summary and by analyze", async () => {
    const server = await startSimServer({ dialect: "llamacpp" });
    try {
      const store = path.join(tempDir(), "s.db");
      const base = [
        "run",
        "choice",
        "--agent",
        "openai:sim-steep",
        "--base-url",
        server.url,
        "--store",
        store,
      ];
      // The chain-of-thought variant answers in a sentence and an "Answer: X" line: 3 tokens cut it.
      const r = await runInProcess([
        ...base,
        "--variant",
        "cot",
        "--max-tokens",
        "3",
        "--limit",
        "12",
        "--max-reasks",
        "0",
      ]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(
        /non-responses this time: 12 \(100\.0%\), 12 of them answers cut at the output cap/,
      );
      const runId = /run (choice-[0-9a-f]+)/.exec(r.out)![1]!;
      const trials = await exportRun(store, runId);
      for (const t of trials) {
        expect((t.nonResponse as { reason: string }).reason).toMatch(
          /^cut at the output cap \(3 tokens; --max-tokens raises it\): /,
        );
        expect((t.usage as { cutAtCap: number }).cutAtCap).toBe(1);
      }
      const a = await runInProcess(["analyze", runId, "--store", store, "--json"]);
      expect(JSON.parse(a.out)).toMatchObject({ nonResponsesCutAtCap: 12 });
      expect(a.err).toMatch(/12 of the non-responses are answers cut at the output cap/);
    } finally {
      await server.close();
    }
  });

  it("a cap on every call by default, none with --max-tokens 0, and the default in the run's identity", async () => {
    const server = await startSimServer({});
    try {
      const dir = tempDir();
      const args = (store: string) => [
        "run",
        "choice",
        "--agent",
        "openai:sim-steep",
        "--base-url",
        server.url,
        "--store",
        path.join(dir, store),
        "--limit",
        "10",
      ];
      expect((await runInProcess(args("a.db"))).code).toBe(0);
      expect(server.stats().sent.max_tokens).toBe(10);
      expect((await runInProcess([...args("b.db"), "--max-tokens", "0"])).code).toBe(0);
      expect(server.stats().sent.max_tokens).toBe(10); // none sent this time
      const runs = JSON.parse(
        (await runInProcess(["runs", "--store", path.join(dir, "a.db"), "--json"])).out,
      ) as {
        config: { agents: { identity: { maxTokens: number } }[] };
      }[];
      expect(JSON.stringify(runs[0]!.config)).toContain('"maxTokens":512');
    } finally {
      await server.close();
    }
  });

  it("tools mode: the tool required where the task is one call (a lazy grammar answers in text under auto)", async () => {
    const server = await startSimServer({ dialect: "llamacpp" });
    try {
      const dir = tempDir();
      const replies = async (store: string, extra: string[]) => {
        const r = await runInProcess([
          "run",
          "choice",
          "--agent",
          "openai:sim-steep",
          "--answer-mode",
          "tools",
          "--base-url",
          server.url,
          "--store",
          path.join(dir, store),
          "--limit",
          "40",
          "--json",
          ...extra,
        ]);
        expect(r.code, r.err).toBe(0);
        const trials = await exportRun(path.join(dir, store), (JSON.parse(r.out) as RunJson).runId);
        return trials.map((t) => (t.replies as string[])[0]!);
      };
      const required = await replies("r.db", []);
      expect(required.every((x) => /^choose\([A-E]\)$/.test(x))).toBe(true);
      const auto = await replies("a.db", ["--tool-choice", "auto"]);
      const text = auto.filter((x) => !x.startsWith("choose("));
      expect(text.length).toBeGreaterThan(5);
      expect(text.length).toBeLessThan(35);
    } finally {
      await server.close();
    }
  });

  it("an endpoint that answers nothing: the run stops after three breaker pauses, exit 3, and the same command finishes it", async () => {
    const down = await startSimServer({ faults: { rate500: 1 } });
    const store = path.join(tempDir(), "s.db");
    const args = (url: string) => [
      "run",
      "choice",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      url,
      "--store",
      store,
      "--limit",
      "200",
      "--max-retries",
      "1",
      "--breaker-cooldown-ms",
      "50",
      "--json",
    ];
    let runId = "";
    try {
      const r = await runInProcess(args(down.url));
      expect(r.code).toBe(3);
      expect(r.err).toMatch(
        /stopped: model sim-steep answered nothing through 3 pauses of its circuit breaker/,
      );
      const result = JSON.parse(r.out) as RunJson;
      runId = result.runId;
      expect(result.stored).toBe(0);
      expect(result.failed).toBeGreaterThan(0);
      // Stopped, not ground through: far fewer calls than 200 trials × 2 attempts.
      expect(down.stats().requests).toBeLessThan(200);
    } finally {
      await down.close();
    }
    // The endpoint answers again, at the same address: the same command runs what failed and the rest.
    const up = await startSimServer({ port: down.port });
    try {
      const again = await runInProcess(args(up.url));
      expect(again.code, again.err).toBe(0);
      expect(JSON.parse(again.out) as RunJson).toMatchObject({ runId, stored: 200, failed: 0 });
    } finally {
      await up.close();
    }
  });
});
