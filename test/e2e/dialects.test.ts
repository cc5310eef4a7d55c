/**
 * Every common server's dialect, through the real client: catalog choice (tools and text modes) and
 * a bargaining session run by `bazaar run` against serve-sim speaking vLLM's, Ollama's, DeepSeek's,
 * LM Studio's and llama.cpp's documented quirks give the same stored outcomes as against OpenAI's own
 * shape.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DIALECTS, type Dialect } from "../../agents/serve-sim/dialects.ts";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

interface Outcome {
  seq: number;
  chosenSlot?: number | null;
  nonResponse?: unknown;
  outcome?: string;
  dealPrice?: number | null;
  transcript?: { action: string; price: number | null }[];
}

async function outcomes(
  dialect: Dialect,
  args: string[],
): Promise<{ records: Outcome[]; inputTokens: number }> {
  const server = await startSimServer({ dialect, seed: 5 });
  try {
    const dir = tempDir();
    const store = path.join(dir, "s.db");
    const r = await runInProcess([...args, "--base-url", server.url, "--store", store, "--json"]);
    expect(r.code, `${dialect}: ${r.err}`).toBe(0);
    const { runId, failed } = JSON.parse(r.out) as { runId: string; failed: number };
    expect(failed, dialect).toBe(0);
    const file = path.join(dir, "t.jsonl");
    await runInProcess(["export", runId, "--store", store, "--out", file]);
    const records = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Outcome & { usage: { inputTokens: number } });
    return {
      records: records.map(({ seq, chosenSlot, nonResponse, outcome, dealPrice, transcript }) => ({
        seq,
        chosenSlot,
        nonResponse,
        outcome,
        dealPrice,
        transcript: transcript?.map((t) => ({ action: t.action, price: t.price })),
      })),
      inputTokens: records.reduce((a, t) => a + t.usage.inputTokens, 0),
    };
  } finally {
    await server.close();
  }
}

const choice = [
  "run",
  "choice",
  "--agent",
  "openai:sim-steep",
  "--pairs",
  "12",
  "--pair-appearances",
  "1",
  "--triples",
  "4",
  "--triple-appearances",
  "3",
  "--fives",
  "0",
];
// A rule negotiator behind the model: its moves depend on the dialogue only, not on how a dialect
// spelled earlier tool calls (the LLM-like sim draws from a seed that hashes the whole request).
const bargain = [
  "run",
  "bargain",
  "--buyer",
  "openai:sim-bargain-conceder",
  "--seller",
  "rule:boulware",
  "--scenarios",
  "2",
  "--answer-mode",
  "tools",
  // Every move a tool call: under "auto", llama.cpp's server lets a model write text instead
  // (test/e2e/llamacpp.test.ts), which is another conversation, not another spelling of this one.
  "--tool-choice",
  "required",
];

describe("server dialects", () => {
  for (const [name, args] of [
    ["catalog choice, tools mode", [...choice, "--answer-mode", "tools"]],
    ["catalog choice, text mode", [...choice, "--answer-mode", "text"]],
    ["a bargaining session, tools mode", bargain],
  ] as const) {
    it(`${name}: the same outcomes in every dialect`, async () => {
      const reference = await outcomes("openai", [...args]);
      expect(reference.records.every((r) => r.nonResponse === null || r.nonResponse === undefined)).toBe(
        true,
      );
      for (const dialect of DIALECTS.filter((d) => d !== "openai")) {
        const got = await outcomes(dialect, [...args]);
        expect(got.records, dialect).toEqual(reference.records);
        // LM Studio's answers carry no usage: zero tokens recorded, not a failure.
        if (dialect === "lmstudio") expect(got.inputTokens).toBe(0);
        else expect(got.inputTokens, dialect).toBe(reference.inputTokens);
      }
    });
  }
});
