import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { PLANTED } from "../../agents/sim/client/index.ts";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { runShopRecords } from "../helpers/shop-runs.ts";

/** Many episodes, some over HTTP: room for a loaded 2-core machine. */
const HEAVY = 300_000;

const booking = (r: ShopTrialRecord) => `${r.endReason}:${r.booked?.id ?? ""}`;

describe("bazaar run shop --client", () => {
  it(
    "the complete client is the control: the same bookings as the same run without a client",
    async () => {
      const cwd = tempDir();
      const common = [
        "--tasks",
        "24",
        "--replicates",
        "2",
        "--max-steps",
        "12",
        "--agent",
        "sim:careful,sim:lapsing,sim:ignores-constraint",
      ];
      const plain = await runShopRecords(cwd, common);
      const client = await runShopRecords(cwd, [...common, "--client", "sim:complete"]);
      expect(client).toHaveLength(plain.length);
      const byKey = new Map(plain.map((r) => [`${r.agent}|${r.taskId}|${r.replicate}`, r]));
      for (const r of client) {
        expect(r.agent).toBe(`${r.shopper} for sim:complete`);
        const p = byKey.get(`${r.shopper}|${r.taskId}|${r.replicate}`)!;
        expect(booking(r), `${r.agent} ${r.taskId}`).toBe(booking(p));
        expect(r.success).toBe(p.success);
        expect(r.burden).toEqual({ messages: 0, repeats: 0, patienceOut: false });
        expect(r.uncovered!.learned).toEqual(r.uncovered!.hidden);
      }
    },
    HEAVY,
  );

  it("checks its options before anything runs", async () => {
    const bad = async (args: string[], message: RegExp) => {
      const r = await runInProcess(["run", "shop", "--store", path.join(tempDir(), "x.db"), ...args]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
    };
    await bad(["--client", "sim:chatty"], /unknown client "sim:chatty".*sim:terse/s);
    await bad(["--client-persona", "terse"], /--client-persona needs --client/);
    await bad(
      ["--client", "sim:terse", "--client-persona", "terse"],
      /--client-persona applies to openai: clients/,
    );
    await bad(
      ["--client", "openai:x", "--client-persona", "shy"],
      /unknown persona "shy".*complete, partial, terse/s,
    );
    await bad(["--client", "sim:terse,sim:terse"], /named twice/);
  });
});

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
