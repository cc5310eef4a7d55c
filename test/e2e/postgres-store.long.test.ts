/**
 * A PostgreSQL store that goes away mid-run (the server restarted, the connection terminated): the
 * run stops with one line saying so — no stack trace, no partial trial — and the same command, once
 * the server answers again, runs exactly the trials that were not stored.
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, REPO_ROOT, runCli } from "../helpers/cli.ts";
import { freshDatabase, hasPostgres, storedTrialsPg } from "../helpers/postgres.ts";

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(drops.map((d) => d()));
});

const LIMIT = 300;

describe.runIf(hasPostgres())("a PostgreSQL store that goes away mid-run", () => {
  it("stops the run with one line, and the same command finishes it", async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const server = await startSimServer({ latencyMs: 200 });
    const args = [
      "run",
      "choice",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--store",
      db.url,
      "--limit",
      String(LIMIT),
      "--concurrency",
      "8",
      // The terminated runner's leases run out soon, as a dead runner's do (a minute by default).
      "--lease-ms",
      "1500",
    ];
    try {
      const first = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: REPO_ROOT,
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stderr }));
        const name = new URL(db.url).pathname.slice(1);
        const deadline = Date.now() + 300_000;
        const poll = async () => {
          if ((await storedTrialsPg(db.url)) >= 64 || Date.now() > deadline) {
            // The server ends the run's connections, as a restart would.
            const c = new pg.Client({ connectionString: db.url });
            await c.connect();
            await c.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
              [name],
            );
            await c.end();
          } else setTimeout(poll, 20);
        };
        void poll();
      });
      expect(first.code).toBe(2);
      expect(first.stderr).toMatch(/the store at postgres:\/\/[^ ]*:\*\*\*@[^ ]+ stopped answering/);
      expect(first.stderr).toMatch(/run the same command again once the server is back/);
      expect(first.stderr).not.toMatch(/\n\s+at /); // no stack trace
      const before = await storedTrialsPg(db.url);
      expect(before).toBeGreaterThanOrEqual(64);
      expect(before).toBeLessThan(LIMIT);

      const again = await runCli(args);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(
        new RegExp(`: ${LIMIT} of [\\d,]+ trials stored \\(${LIMIT - before} this time, ${before} before\\)`),
      );
      expect(await storedTrialsPg(db.url)).toBe(LIMIT);
    } finally {
      await server.close();
    }
  });
});
