/**
 * Agents from outside shop for a client: `message_client` is among their tools (and the task they are
 * given is the client's opening, not the hidden request); a `module:` graph that plays the asking
 * shoppers through the tools asks exactly what the native policy asks and stores the same
 * conversation, uncovered requirements and burden. (The `exec:` shopper is in the long tests:
 * exec-client.long.test.ts.)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const FIX = path.resolve(import.meta.dirname, "../fixtures/outside-modules");
const HEAVY = 300_000;

async function runShop(cwd: string, args: string[]): Promise<ShopTrialRecord[]> {
  const store = path.join(cwd, "bazaar.db");
  const r = await runInProcess(["run", "shop", ...args, "--store", store, "--json"]);
  expect(r.code, r.err).toBe(0);
  const { runId } = JSON.parse(r.out) as { runId: string };
  const file = path.join(cwd, `${runId}.jsonl`);
  expect((await runInProcess(["export", runId, "--store", store, "--out", file])).code).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ShopTrialRecord);
}

const talk = (r: ShopTrialRecord) => ({
  conversation: r.conversation!.map((e) => [e.step, e.from, e.text]),
  learned: r.uncovered!.learned,
  burden: r.burden,
  asked: r.trajectory.filter((t) => t.tool === "message_client").map((t) => [t.step, t.args]),
});

describe("outside shoppers and their client", () => {
  it(
    "a module: graph asks its client through message_client and stores what the native asking shopper stores",
    async () => {
      const cwd = tempDir();
      const design = ["--tasks", "8", "--replicates", "1", "--client", "sim:terse,sim:partial"];
      const viaModule = await runShop(cwd, [
        ...design,
        "--agent",
        `module:${path.join(FIX, "talker-graph.ts")},module:${path.join(FIX, "talker-graph.ts")}#asksPrice`,
      ]);
      const native = await runShop(cwd, [...design, "--agent", "sim:asks-first,sim:asks-price"]);
      const byKey = new Map(native.map((r) => [`${r.shopper}|${r.client!.spec}|${r.taskId}`, r]));
      const nativeOf = (shopper: string) =>
        shopper.endsWith("#asksPrice") ? "sim:asks-price" : "sim:asks-first";
      expect(viaModule).toHaveLength(native.length);
      for (const r of viaModule) {
        const n = byKey.get(`${nativeOf(r.shopper!)}|${r.client!.spec}|${r.taskId}`)!;
        expect(talk(r), `${r.agent} ${r.taskId}`).toEqual(talk(n));
        expect(r.nonResponse).toBeNull();
        expect(["booked", "gave-up"]).toContain(r.endReason);
      }
      expect(viaModule.some((r) => r.burden!.messages >= 4)).toBe(true);
    },
    HEAVY,
  );
});
