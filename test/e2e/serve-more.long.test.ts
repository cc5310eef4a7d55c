import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.ts";
import { playBothWays, playThroughMcp, startServe, storedRecords } from "../helpers/serve.ts";

describe("bazaar serve: the same policy through MCP stores the same outcomes as natively (every environment and role)", () => {
  const cases = [
    {
      env: "shop",
      role: "shopper",
      spec: "sim:careful",
      design: ["--limit", "8"],
      fields: ["endReason", "booked", "success"],
    },
    {
      env: "bargain",
      role: "buyer",
      spec: "sim:llm",
      design: ["--limit", "6", "--seller", "rule:boulware"],
      fields: ["outcome", "dealPrice", "endedBy", "turns"],
    },
    {
      env: "bargain",
      role: "seller",
      spec: "rule:boulware",
      design: ["--limit", "6", "--buyer", "rule:conceder"],
      fields: ["outcome", "dealPrice", "endedBy", "turns"],
    },
    {
      env: "choice",
      role: "shopper",
      spec: "sim:steep",
      design: ["--limit", "12"],
      fields: ["chosenSlot", "chosen", "nonResponse"],
    },
  ];
  for (const c of cases)
    it(`${c.env} (${c.role}: ${c.spec})`, async () => {
      const r = await playBothWays(c);
      expect(r.client.stderr).toBe("");
      expect(r.result.code, r.result.stderr).toBe(0);
      expect(r.result.stdout).toMatch(/trials stored/);
      expect(r.count.mcp).toBe(r.count.native);
      expect(r.count.mcp).toBeGreaterThan(0);
      expect(r.mcp).toEqual(r.native);
    });
});

describe("bazaar serve: racing", () => {
  it("two servers on one store and several clients at once: every trial exactly once", async () => {
    const dir = tempDir();
    const args = ["shop", "--agent-name", "racer", "--limit", "70", "--store", "race.db"];
    const [a, b] = await Promise.all([startServe(args, dir), startServe(args, dir)]);
    const clients = await Promise.all([
      playThroughMcp(a.url, "shop", "shopper", "sim:first-result"),
      playThroughMcp(a.url, "shop", "shopper", "sim:first-result"),
      playThroughMcp(b.url, "shop", "shopper", "sim:first-result"),
    ]);
    for (const c of clients) expect(c.stderr).toBe("");
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const seqs = (await storedRecords(dir, "race.db")).map((r) => r.seq as number).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 70 }, (_, i) => i));
  });
});
