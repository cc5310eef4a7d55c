import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { tempDir } from "../helpers/cli.ts";
import { runShopRecords } from "../helpers/shop-runs.ts";

const FIX = path.resolve(import.meta.dirname, "../fixtures/outside-modules");
const HEAVY = 300_000;

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
      const viaModule = await runShopRecords(cwd, [
        ...design,
        "--agent",
        `module:${path.join(FIX, "talker-graph.ts")},module:${path.join(FIX, "talker-graph.ts")}#asksPrice`,
      ]);
      const native = await runShopRecords(cwd, [...design, "--agent", "sim:asks-first,sim:asks-price"]);
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
