/**
 * `--store` and `BAZAAR_STORE`: the variable is every command's default store, the suggested next
 * commands leave `--store` out when it came from there, and a PostgreSQL URL's password is never
 * printed.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shownStore, storeFlag } from "../../cli/store-option.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

const saved = process.env.BAZAAR_STORE;
afterEach(() => {
  if (saved === undefined) delete process.env.BAZAAR_STORE;
  else process.env.BAZAAR_STORE = saved;
});

describe("the store option", () => {
  it("BAZAAR_STORE is the default store of run and runs, and the next commands need no --store", async () => {
    const file = path.join(tempDir(), "env.db");
    process.env.BAZAAR_STORE = file;
    const run = await runInProcess(["run", "choice", "--agent", "sim:noisy", "--limit", "20"]);
    expect(run.code, run.err).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(run.out).toContain(`store: ${file}`);
    expect(run.out).toMatch(/bazaar analyze choice-[0-9a-f]+ +every estimate/);
    expect(run.out).not.toContain("--store");
    const runs = await runInProcess(["runs"]);
    expect(runs.out).toMatch(/choice-[0-9a-f]+ +choice +sim:noisy +20\/8,700/);
  });

  it("shows a PostgreSQL URL without its password, in messages and in suggested commands", () => {
    delete process.env.BAZAAR_STORE;
    const url = "postgres://alice:s3cret@db.example:5432/bazaar";
    expect(shownStore(url)).toBe("postgres://alice:***@db.example:5432/bazaar");
    expect(storeFlag(url)).toBe(" --store 'postgres://alice:***@db.example:5432/bazaar'");
    expect(storeFlag("bazaar.db")).toBe("");
    process.env.BAZAAR_STORE = url;
    expect(storeFlag(url)).toBe("");
  });

  it("a server that cannot be reached stops the command with exit code 2, naming it without the password", async () => {
    const r = await runInProcess(["runs", "--store", "postgres://alice:s3cret@127.0.0.1:1/bazaar"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot connect to the store at postgres:\/\/alice:\*\*\*@127\.0\.0\.1:1\/bazaar/);
    expect(r.err).not.toContain("s3cret");
  });
});
