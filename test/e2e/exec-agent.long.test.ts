/**
 * kill -9 of `bazaar run shop --agent exec:…` mid-run, then the same command: every trial is stored
 * exactly once, and the programs the killed runner had started do not outlive their endpoint (they
 * find it gone at their next call and exit).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { BIN, REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { storedTrials } from "../helpers/store.ts";

const CLIENT = path.join(REPO_ROOT, "test/fixtures/outside/client.mjs");

async function until<T>(what: string, f: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

it("kill -9 mid-run, then the same command: every trial exactly once", async () => {
  const cwd = tempDir("bazaar-exec-kill-");
  const store = path.join(cwd, "s.db");
  const log = path.join(cwd, "log.jsonl");
  const total = 40;
  const args = [
    "run",
    "shop",
    "--tasks",
    String(total),
    "--replicates",
    "1",
    "--agent",
    `exec:node ${CLIENT} --log=${log}`,
    "--concurrency",
    "4",
    "--store",
    store,
  ];
  const first = spawn(process.execPath, [BIN, ...args], { cwd, stdio: "ignore" });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => first.on("exit", (_c, s) => resolve(s)));
  await until("some trials stored", () => (storedTrials(store) >= 8 ? true : undefined), 120_000);
  first.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  const before = storedTrials(store);
  expect(before).toBeLessThan(total);

  const again = await runCli([...args, "--json"], { cwd });
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  const summary = JSON.parse(again.stdout) as {
    runId: string;
    stored: number;
    ranNow: number;
    failed: number;
  };
  expect(summary).toMatchObject({ stored: total, failed: 0 });
  expect(summary.ranNow).toBe(total - before);

  const out = path.join(cwd, "export.jsonl");
  const r = await runInProcess([
    "export",
    summary.runId,
    "--store",
    store,
    "--format",
    "jsonl",
    "--out",
    out,
  ]);
  expect(r.code).toBe(0);
  const seqs = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { seq: number }).seq);
  expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i));

  // Every program either run started is gone: the killed runner's found their endpoint gone.
  expect(existsSync(log)).toBe(true);
  const pids = new Set(
    readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { pid: number }).pid),
  );
  expect(pids.size).toBeGreaterThanOrEqual(total);
  await until("every program to exit", () => ([...pids].some(alive) ? undefined : true), 20_000);
});
