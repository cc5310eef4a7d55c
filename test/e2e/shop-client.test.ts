import path from "node:path";
import { describe, expect, it } from "vitest";
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
