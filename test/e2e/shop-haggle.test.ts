/**
 * Haggling buyers through the compiled CLI, as a user runs them: the OG-Narrator and two simulated
 * hagglers against two rule sellers in a shop where every listing takes offers. One short run; the
 * policies themselves are checked in process (test/agents/sim/shop, test/agents/bargain/og-shop).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.ts";

interface Exported {
  agent: string;
  endReason: string;
  success: boolean;
  steps: number;
  rules: { maxSteps: number };
  request: { constraints: { maxPrice: number | null } };
  booked: { id: string } | null;
  admissible: { id: string }[];
  negotiations: { id: string; offers: { side: string; price: number | null }[] }[];
}

const AGENTS = ["og-narrator", "sim:one-seller-haggler", "sim:seller-playing-haggler"];

describe("bazaar run shop with haggling buyers", () => {
  it("runs the OG-Narrator and the simulated hagglers against rule sellers, every booking admissible and no offer above the cap", async () => {
    const cwd = tempDir();
    const args = ["--negotiable", "1", "--agent", AGENTS.join(","), "--tasks", "10", "--replicates", "1"];
    const run = await runCli(["run", "shop", ...args, "--seller-negotiator", "rule:boulware,rule:linear"], {
      cwd,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/30 of 30 trials stored/);
    for (const a of AGENTS) expect(run.stdout).toMatch(new RegExp(`^${a} +10 `, "m"));
    const runId = /run (shop-\w+):/.exec(run.stdout)![1]!;

    const out = path.join(cwd, "haggle.jsonl");
    const exported = await runCli(["export", runId, "--out", out], { cwd });
    expect(exported.code).toBe(0);
    const records = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Exported);
    expect(records).toHaveLength(30);
    let offers = 0;
    for (const r of records) {
      expect(r.steps).toBeLessThanOrEqual(r.rules.maxSteps);
      expect(r.endReason === "booked" || r.endReason === "gave-up").toBe(true);
      expect(r.success).toBe(true);
      if (r.booked) expect(r.admissible.map((a) => a.id)).toContain(r.booked.id);
      const cap = r.request.constraints.maxPrice!;
      for (const n of r.negotiations)
        for (const m of n.offers)
          if (m.side === "buyer") {
            offers++;
            expect(m.price!).toBeLessThanOrEqual(cap);
          }
    }
    expect(offers).toBeGreaterThan(20);

    // Without offers the OG-Narrator is refused before anything runs.
    const refused = await runCli(["run", "shop", "--agent", "og-narrator", "--tasks", "2"], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/only where listings take offers/);
  });
});
