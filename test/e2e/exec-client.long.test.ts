/**
 * An `exec:` shopper working for a client: a program in its own process, reaching the shop over its
 * private MCP endpoint, is given the client's opening as its task (never the hidden request) and
 * `message_client` among its tools, asks its client as the native asking shopper does, and stores
 * the same conversation, uncovered requirements and burden.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.ts";
import { runShopRecords } from "../helpers/shop-runs.ts";

const CLIENT = path.resolve(import.meta.dirname, "../fixtures/outside/client.mjs");
const HEAVY = 300_000;

describe("an exec: shopper and its client", () => {
  it(
    "is told only the client's opening, asks through message_client, and stores what sim:asks-first stores of the talk",
    async () => {
      const cwd = tempDir();
      const log = path.join(cwd, "client.log");
      const design = ["--tasks", "6", "--replicates", "1", "--client", "sim:terse,sim:partial"];
      const viaExec = await runShopRecords(cwd, [...design, "--agent", `exec:node ${CLIENT} --log=${log}`]);
      const native = await runShopRecords(cwd, [...design, "--agent", "sim:asks-first"]);
      const byKey = new Map(native.map((r) => [`${r.client!.spec}|${r.taskId}`, r]));
      expect(viaExec).toHaveLength(12);
      for (const r of viaExec) {
        const n = byKey.get(`${r.client!.spec}|${r.taskId}`)!;
        expect(r.conversation!.map((e) => [e.step, e.from, e.text])).toEqual(
          n.conversation!.map((e) => [e.step, e.from, e.text]),
        );
        expect(r.uncovered!.learned).toEqual(n.uncovered!.learned);
        expect(r.burden).toEqual(n.burden);
        expect(r.nonResponse).toBeNull();
      }
      const tasks = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { event: string; request?: string; tools?: string[] })
        .filter((e) => e.event === "task");
      expect(tasks).toHaveLength(12);
      const openings = new Set(viaExec.map((r) => r.client!.opening));
      for (const t of tasks) {
        expect(openings.has(t.request!), t.request).toBe(true);
        expect(t.tools).toEqual(["search", "view", "message_client", "book", "give_up"]);
      }
    },
    HEAVY,
  );
});
