/**
 * No orphans: an `exec:` agent never outlives the bazaar that started it, whatever ends bazaar. The
 * compiled CLI runs shop episodes whose programs (test/fixtures/outside/client.mjs, fault
 * `grandchild`) wait forever with a child process of their own; bazaar is then killed mid-episode —
 * by SIGKILL, which no exit hook survives, and by two quick SIGINTs — and the test polls, with a
 * deadline, until no agent, no agent's child and no watchdog is left, nor the episodes' folders.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, REPO_ROOT, tempDir } from "../helpers/cli.ts";

const CLIENT = path.join(REPO_ROOT, "test/fixtures/outside/client.mjs");

interface LogLine {
  pid: number;
  event: string;
  grandchild?: number;
  taskFile?: string;
}

function logLines(file: string): LogLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

/** A process that exists and is not a zombie waiting for a reaper. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** A process's parent (from /proc), or null once it is gone. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

async function until<T>(what: string, f: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `bazaar run shop` with two hanging `exec:` episodes at once; resolves once both programs and their
 * children are up, with their pids and their watchdogs'.
 */
async function twoHangingEpisodes(): Promise<{ bazaar: ChildProcess; pids: number[]; folders: string[] }> {
  const cwd = tempDir("bazaar-orphans-");
  const log = path.join(cwd, "log.jsonl");
  const bazaar = spawn(
    process.execPath,
    [
      BIN,
      "run",
      "shop",
      "--tasks",
      "4",
      "--limit",
      "2",
      "--concurrency",
      "2",
      "--store",
      path.join(cwd, "s.db"),
      "--agent",
      `exec:node ${CLIENT} --fault=grandchild --log=${log}`,
    ],
    { cwd, stdio: "ignore" },
  );
  const up = await until("two programs with a child each", () => {
    if (bazaar.exitCode !== null) throw new Error(`bazaar exited ${bazaar.exitCode} before the episodes`);
    const lines = logLines(log).filter((l) => l.event === "grandchild");
    return lines.length >= 2 ? lines : undefined;
  });
  const agents = up.map((l) => l.pid);
  // Each program's parent is its watchdog, bazaar's child.
  const watchdogs = agents.map((p) => parentOf(p)!);
  for (const w of watchdogs) expect(parentOf(w)).toBe(bazaar.pid);
  const pids = [...agents, ...up.map((l) => l.grandchild!), ...watchdogs];
  expect(pids.every(alive)).toBe(true);
  const folders = logLines(log)
    .filter((l) => l.event === "task")
    .map((l) => path.dirname(l.taskFile!));
  expect(folders.every((f) => existsSync(f))).toBe(true);
  return { bazaar, pids, folders };
}

describe("exec: agents never outlive bazaar", () => {
  it("SIGKILL of bazaar run --agent exec:… mid-episode leaves no agent process", async () => {
    const { bazaar, pids, folders } = await twoHangingEpisodes();
    const killed = new Promise((resolve) => bazaar.once("exit", resolve));
    bazaar.kill("SIGKILL");
    await killed;
    await until("every agent process to be gone", () => (pids.some(alive) ? undefined : true));
    // The watchdogs removed what bazaar's exit hook would have: the task files, the MCP configs.
    expect(folders.filter((f) => existsSync(f))).toEqual([]);
  });

  it("two quick SIGINTs leave no agent process either", async () => {
    const { bazaar, pids, folders } = await twoHangingEpisodes();
    const ended = new Promise((resolve) => bazaar.once("exit", resolve));
    bazaar.kill("SIGINT");
    bazaar.kill("SIGINT");
    await ended;
    await until("every agent process to be gone", () => (pids.some(alive) ? undefined : true));
    await until("the episodes' folders to be gone", () =>
      folders.some((f) => existsSync(f)) ? undefined : true,
    );
  });
});
