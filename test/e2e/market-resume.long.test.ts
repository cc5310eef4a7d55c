/**
 * A market killed mid-round (SIGKILL) and run again by the same command, twice — once while a
 * round's buyer episodes are being stored, once between its buyers and its sellers' turns — ends
 * with every trial stored exactly once and the same market as a run never interrupted: every
 * round's runs hold the same trials with the same outcomes. Buyers and sellers are LLM agents
 * against serve-sim (with latency), so the kills land mid-run. A long run: `npm run test:long`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, runCli, tempDir } from "../helpers/cli.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

interface RunCount {
  run_id: string;
  n: number;
  keys: number;
}

/** Trials per run (and distinct trial keys) in a store another process may be writing. */
function counts(dbFile: string): Map<string, RunCount> {
  if (!existsSync(dbFile)) return new Map();
  try {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const rows = db
        .prepare(
          "SELECT run_id, COUNT(*) AS n, COUNT(DISTINCT trial_key) AS keys FROM trials GROUP BY run_id",
        )
        .all() as RunCount[];
      return new Map(rows.map((r) => [r.run_id, r]));
    } finally {
      db.close();
    }
  } catch {
    return new Map();
  }
}

function outcomes(dbFile: string): Record<string, [number, string, string][]> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare("SELECT run_id, seq, trial_key, result FROM trials ORDER BY run_id, seq")
      .all() as {
      run_id: string;
      seq: number;
      trial_key: string;
      result: string;
    }[];
    const out: Record<string, [number, string, string][]> = {};
    for (const r of rows) {
      const runKey = r.run_id.replace(/^market-\w+-/, "");
      const list = out[runKey] ?? [];
      out[runKey] = list;
      list.push([r.seq, r.trial_key, JSON.stringify((JSON.parse(r.result) as { outcome: unknown }).outcome)]);
    }
    return out;
  } finally {
    db.close();
  }
}

describe("kill a market mid-round and resume it", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0, latencyMs: 15 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("SIGKILL twice mid-round, the same command each time: every trial once, the uninterrupted market's outcomes", async () => {
    const args = [
      "run",
      "market",
      "--sellers",
      "5",
      "--rounds",
      "3",
      "--buyers-per-round",
      "60",
      "--adopters",
      "3",
      "--buyer",
      "openai:sim-shop-careful",
      "--seller",
      "openai:sim-market-cue-bandit",
      "--base-url",
      server.url,
      "--no-cache",
      "--concurrency",
      "4",
      "--seed",
      "9",
    ];
    const killedDir = tempDir();
    const db = path.join(killedDir, "bazaar.db");
    /** Starts the command and kills it (SIGKILL) once `when` holds of the store. */
    const killWhen = async (when: (c: Map<string, RunCount>) => boolean) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: killedDir, stdio: "ignore" });
      const closed = new Promise((resolve) => child.on("close", resolve));
      const deadline = Date.now() + 240_000;
      await new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          if (when(counts(db))) {
            clearInterval(poll);
            child.kill("SIGKILL");
            resolve();
          } else if (Date.now() > deadline) {
            clearInterval(poll);
            child.kill("SIGKILL");
            reject(new Error("the moment to kill never came"));
          }
        }, 10);
      });
      await closed;
    };
    const part = (c: Map<string, RunCount>, suffix: string) =>
      [...c.values()].find((r) => r.run_id.endsWith(suffix))?.n ?? 0;
    // While round 2's buyer episodes are being stored.
    await killWhen((c) => part(c, "-r02-buyers") >= 10);
    const first = counts(db);
    expect(part(first, "-r02-buyers")).toBeLessThan(60 * 1);
    expect(part(first, "-r02-sellers")).toBe(0);
    // Between round 2's buyers and its adopters' turns (or while they are being stored).
    await killWhen((c) => part(c, "-r02-buyers") === 60 && part(c, "-r02-sellers") < 5);
    expect(part(counts(db), "-r03-buyers")).toBe(0);

    const resumed = await runCli([...args, "--json"], { cwd: killedDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const r = JSON.parse(resumed.stdout) as {
      stored: number;
      total: number;
      ranNow: number;
      roundsDone: number;
    };
    // 3 rounds × (60 buyers + 5 sellers)
    expect(r).toMatchObject({ stored: 195, total: 195, roundsDone: 3 });
    expect(r.ranNow).toBeLessThan(195);
    for (const c of counts(db).values()) expect(c.keys, c.run_id).toBe(c.n);

    const cleanDir = tempDir();
    const clean = await runCli([...args, "--json"], { cwd: cleanDir });
    expect(clean.code, clean.stderr).toBe(0);
    expect(outcomes(db)).toEqual(outcomes(path.join(cleanDir, "bazaar.db")));
  });
});
