import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveBargainPairs } from "../../agents/bargain/registry.ts";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { defaultPriceHistoryCatalog } from "../../datasets/price-history/index.ts";
import { bargainEnvironment } from "../../environments/bargain/environment.ts";
import type { BargainTrialRecord } from "../../environments/bargain/record.ts";
import { buildBargainTasks } from "../../environments/bargain/scenarios.ts";
import { parseBargainReply } from "../../environments/bargain/text.ts";
import type { BargainOutcome } from "../../environments/bargain/types.ts";
import { runEpisode } from "../../environments/kernel/episode.ts";
import { createRng } from "../../environments/kernel/rng.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

const SCENARIOS = 4;

async function exported(cwd: string, args: string[]): Promise<BargainTrialRecord[]> {
  const store = path.join(cwd, "bazaar.db");
  const run = await runCli(
    ["run", "bargain", ...args, "--scenarios", String(SCENARIOS), "--store", store, "--json"],
    { cwd },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const { runId } = JSON.parse(run.stdout) as { runId: string };
  const opened = Store.open(store, { create: false, readonly: true });
  try {
    return [...trialRecords(opened, runId)] as unknown as BargainTrialRecord[];
  } finally {
    opened.close();
  }
}

/** The same pairing played in this process, without HTTP: what the served models must reproduce. */
async function direct(buyer: string, seller: string): Promise<BargainOutcome[]> {
  const [pair] = resolveBargainPairs([buyer], [seller]);
  const tasks = buildBargainTasks({ scenarios: SCENARIOS }, defaultPriceHistoryCatalog());
  const out: BargainOutcome[] = [];
  for (const task of tasks) {
    const r = await runEpisode<BargainOutcome>(bargainEnvironment.machine, { task }, pair!.players, {
      rng: createRng(task.taskId),
      trialKey: task.taskId,
      replicate: 0,
    });
    out.push(r.output);
  }
  return out;
}

const moves = (transcript: { role: string; action: string; price: number | null; talk: string }[]) =>
  transcript.map((m) => [m.role, m.action, m.price, m.talk]);

describe("bargaining through serve-sim: the real ChatOpenAI client plays both sides over HTTP", () => {
  it("tools mode: both sides call the action tools; sessions match the same policies played directly", async () => {
    const cwd = tempDir();
    const url = server.url;
    const sessions = await exported(cwd, [
      "--buyer",
      "openai:sim-bargain-linear",
      "--seller",
      "openai:sim-bargain-boulware",
      "--base-url",
      url,
      "--answer-mode",
      "tools",
    ]);
    expect(sessions).toHaveLength(SCENARIOS);
    const reference = await direct("rule:linear", "rule:boulware");
    sessions.forEach((s, i) => {
      expect(s.outcome).not.toBe("invalid");
      expect([s.outcome, s.dealPrice, s.turns]).toEqual([
        reference[i]!.outcome,
        reference[i]!.dealPrice,
        reference[i]!.turns,
      ]);
      expect(moves(s.transcript)).toEqual(moves(reference[i]!.transcript));
      for (const m of s.transcript) {
        expect(m.tokens!.input).toBeGreaterThan(100);
        expect(m.tokens!.output).toBeGreaterThan(0);
        expect(m.ms).toBeGreaterThanOrEqual(0);
      }
      expect(s.usage.calls).toBe(s.transcript.length);
    });
    expect(sessions.some((s) => s.outcome === "deal")).toBe(true);
  });

  it("text mode: Thought/Talk/Action replies are parsed strictly, and the OG narrator falls back over HTTP", async () => {
    const cwd = tempDir();
    const sessions = await exported(cwd, [
      "--buyer",
      "openai:sim-bargain-savvy,og-narrator:openai:sim-bargain-llm",
      "--seller",
      "openai:sim-bargain-tit-for-tat",
      "--base-url",
      server.url,
      "--answer-mode",
      "text",
    ]);
    expect(sessions).toHaveLength(2 * SCENARIOS);
    for (const s of sessions) {
      expect(s.invalidSide).not.toBe("seller");
      for (const m of s.transcript) {
        if (m.role === "buyer" && !s.buyer.startsWith("openai:")) continue;
        if (m.action === "invalid") {
          // The simulated LLM-like buyer's deliberate unreadable replies arrive as text and are caught.
          expect(s).toMatchObject({ outcome: "invalid", endedBy: "action-error", invalidSide: "buyer" });
          expect(m.raw).toBeTruthy();
          continue;
        }
        expect(m.raw).toMatch(/^Thought: .+\nTalk: .+\nAction: \[/);
        expect(parseBargainReply(m.raw!, m.role, s.scenarioId)).toMatchObject({
          ok: true,
          type: m.action,
          price: m.price,
        });
        expect(m.thought).toBeTruthy();
      }
    }
    // serve-sim's bargaining models do not narrate: the narrator gets no usable sentence, uses its
    // template line and says so, while the generator's moves stand.
    const og = sessions.filter((s) => s.buyer.startsWith("og-narrator"));
    const reference = await direct("og-narrator", "rule:tit-for-tat");
    og.forEach((s, i) => {
      expect(s.transcript.map((m) => [m.role, m.action, m.price])).toEqual(
        reference[i]!.transcript.map((m) => [m.role, m.action, m.price]),
      );
      const buyerMoves = s.transcript.filter((m) => m.role === "buyer");
      expect(buyerMoves.every((m) => m.note?.includes("template line used") && m.tokens!.input > 0)).toBe(
        true,
      );
    });
  });
});
