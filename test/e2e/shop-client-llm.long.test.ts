/**
 * The client's LLM path end to end (long: two players' every turn through the real client, in both
 * answer modes): serve-sim's sim shoppers and clients behind ChatOpenAI store what the native pair
 * stores. The wire of each turn is tested in test/agents/serve-sim/plugins/client.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { PLANTED } from "../../agents/sim/client/index.ts";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { tempDir } from "../helpers/cli.ts";
import { runShopRecords } from "../helpers/shop-runs.ts";

/** Many episodes, some over HTTP: room for a loaded 2-core machine. */
const HEAVY = 300_000;

describe("the client's LLM path through serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  /** What is deterministic of an episode: the conversation, the faults, the burden, the calls before the last. */
  const talk = (r: ShopTrialRecord) => ({
    conversation: r.conversation!.map((e) => [e.step, e.from, e.text]),
    faults: r.clientFaults,
    burden: r.burden,
    learned: r.uncovered!.learned,
    calls: r.trajectory.slice(0, -1).map((t) => [t.tool, t.args]),
  });
  const native = (spec: string) =>
    spec.replace("openai:sim-shop-", "sim:").replace("openai:sim-client-", "sim:");

  it(
    "an LLM shopper facing an LLM client, in tools and text mode, stores what the native pair stores; the faulty client's faults are counted, none fatal",
    async () => {
      const cwd = tempDir();
      const design = ["--tasks", "10", "--replicates", "1"];
      const ref = await runShopRecords(cwd, [
        ...design,
        "--agent",
        "sim:asks-first,sim:asks-price",
        "--client",
        "sim:terse,sim:faulty",
      ]);
      const byKey = new Map(ref.map((r) => [`${r.agent}|${r.taskId}`, r]));
      for (const mode of ["tools", "text"]) {
        const llm = await runShopRecords(cwd, [
          ...design,
          "--agent",
          "openai:sim-shop-asks-first,openai:sim-shop-asks-price",
          "--client",
          "openai:sim-client-terse,openai:sim-client-faulty",
          "--base-url",
          server.url,
          "--answer-mode",
          mode,
          "--no-cache",
        ]);
        expect(llm).toHaveLength(ref.length);
        for (const r of llm) {
          const n = byKey.get(`${native(r.shopper!)} for ${native(r.client!.spec)}|${r.taskId}`)!;
          expect(talk(r), `${mode} ${r.agent} ${r.taskId}`).toEqual(talk(n));
          expect(r.nonResponse).toBeNull();
          // Every model turn of both players went through the real client (identical requests in
          // flight — the same shopper's turns for two clients — are answered once: cache hits).
          expect(r.usage.calls + r.usage.cacheHits).toBe(
            r.turns + r.burden!.messages - (r.burden!.patienceOut ? 1 : 0),
          );
        }
        const messages = llm
          .filter((r) => r.shopper === "openai:sim-shop-asks-first")
          .flatMap((r) => r.conversation!);
        expect(messages.some((e) => e.from === "agent")).toBe(true);
        const faulty = llm.filter((r) => r.client!.spec === "openai:sim-client-faulty");
        const kinds = new Set(faulty.flatMap((r) => r.clientFaults!.map((f) => f.kind)));
        expect(faulty.every((r) => r.endReason !== "agent-error")).toBe(true);
        expect([...kinds].every((k) => (PLANTED as readonly string[]).includes(k))).toBe(true);
        expect(kinds.size).toBeGreaterThanOrEqual(3);
      }
    },
    HEAVY,
  );
});
