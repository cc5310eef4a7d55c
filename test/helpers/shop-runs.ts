/** A shop run in this process and its records as `bazaar export` writes them: for the client e2e tests. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess } from "./cli.ts";

/** `bazaar run shop <args> --store <cwd>/bazaar.db`, every trial stored, then its export (JSONL), read back. */
export async function runShopRecords(cwd: string, args: string[]): Promise<ShopTrialRecord[]> {
  const store = path.join(cwd, "bazaar.db");
  const r = await runInProcess(["run", "shop", ...args, "--store", store, "--json"]);
  expect(r.code, r.err).toBe(0);
  const { runId, stored, total } = JSON.parse(r.out) as { runId: string; stored: number; total: number };
  expect(stored).toBe(total);
  const file = path.join(cwd, `${runId}.jsonl`);
  const e = await runInProcess(["export", runId, "--store", store, "--out", file]);
  expect(e.code, e.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ShopTrialRecord);
}
