/**
 * examples/scripted-shopper: the scripted shopper, started by `bazaar run shop --agent exec:…` (the
 * compiled CLI) once per trial, plays every episode to its end — it books an admissible listing
 * where there is one and gives up where there is none — and nothing is left a non-response or failed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const SHOPPER = path.join(REPO_ROOT, "examples/scripted-shopper/shopper.mjs");

it("the scripted shopper example plays shop episodes through exec:", async () => {
  const cwd = tempDir("bazaar-exec-example-");
  const store = path.join(cwd, "s.db");
  const r = await runCli(
    [
      "run",
      "shop",
      "--agent",
      `exec:node ${SHOPPER}`,
      "--families",
      "open,needle,infeasible",
      "--replicates",
      "1",
      "--limit",
      "6",
      "--concurrency",
      "3",
      "--store",
      store,
      "--json",
    ],
    { cwd },
  );
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const summary = JSON.parse(r.stdout) as { runId: string; stored: number; nonResponsesNow: number };
  expect(summary).toMatchObject({ stored: 6, nonResponsesNow: 0 });

  const out = path.join(cwd, "export.jsonl");
  const e = await runInProcess([
    "export",
    summary.runId,
    "--store",
    store,
    "--format",
    "jsonl",
    "--out",
    out,
  ]);
  expect(e.code).toBe(0);
  const records = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { family: string; endReason: string; success: boolean });
  expect(records).toHaveLength(6);
  expect(new Set(records.map((rec) => rec.family))).toEqual(new Set(["open", "needle", "infeasible"]));
  for (const rec of records) {
    expect(rec.success, JSON.stringify(rec).slice(0, 300)).toBe(true);
    expect(rec.endReason).toBe(rec.family === "infeasible" ? "gave-up" : "booked");
  }
});
