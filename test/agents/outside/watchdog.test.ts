/**
 * The watchdog between bazaar and an `exec:` agent (agents/outside/watchdog.ts), started here as
 * exec.ts starts it, this test's process standing for bazaar: closing the pipe to it is what
 * bazaar's death does (the kernel closes a killed process's pipes), so the agent's whole group must
 * then go; while bazaar lives, the watchdog must be invisible — the agent's exit reported and
 * mirrored, a missing program reported as such, NODE_OPTIONS the agent's alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { REPORT_FD, underWatchdog, type WatchdogReport } from "../../../agents/outside/watchdog.ts";
import { tempDir } from "../../helpers/cli.ts";

interface Watched {
  child: ChildProcess;
  stdout(): string;
  reports(): WatchdogReport[];
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `words` under the watchdog, as exec.ts starts them. */
function watch(words: string[], env: Record<string, string> = {}): Watched {
  const w = underWatchdog(words, { PATH: process.env.PATH ?? "", ...env });
  const child = spawn(w.program, w.args, {
    env: w.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe"],
  });
  let out = "";
  let reported = "";
  child.stdout!.setEncoding("utf8").on("data", (s: string) => {
    out += s;
  });
  (child.stdio[REPORT_FD] as Readable).setEncoding("utf8").on("data", (s: string) => {
    reported += s;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    reports: () =>
      reported
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as WatchdogReport),
    done,
  };
}

/** A node agent running `source`. */
const agent = (source: string) => [process.execPath, "-e", source];

/** A process that exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function until<T>(what: string, f: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// An agent with a child of its own, both ignoring SIGTERM: only SIGKILL of the group ends them.
const STUBBORN = `
const { spawn } = require("node:child_process");
process.on("SIGTERM", () => {});
const c = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
console.log(JSON.stringify({ agent: process.pid, grandchild: c.pid }));
setInterval(() => {}, 1000);
`;

describe("the exec: watchdog", () => {
  it("ends the agent's whole group, grandchildren and SIGTERM-ignoring ones included, once the pipe from bazaar closes; removes the episode's folder", async () => {
    // The episode's folder as exec.ts makes it (bazaar-exec-*), and one that is not bazaar's.
    const folder = (name: string) => {
      const dir = path.join(tempDir(), name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "task.json"), "{}");
      return dir;
    };
    const episodeDir = folder("bazaar-exec-test");
    const otherDir = folder("someone-elses");
    const w = watch(agent(STUBBORN), { BAZAAR_TASK_FILE: path.join(episodeDir, "task.json") });
    const plain = watch(agent("setInterval(() => {}, 1000); console.log('up')"), {
      BAZAAR_TASK_FILE: path.join(otherDir, "task.json"),
    });
    const pids = await until("the agent's pids", () => {
      const line = w.stdout().split("\n")[0];
      return line ? (JSON.parse(line) as { agent: number; grandchild: number }) : undefined;
    });
    await until("the other agent to start", () => (plain.stdout().includes("up") ? true : undefined));
    expect(alive(pids.agent) && alive(pids.grandchild)).toBe(true);
    // While bazaar lives, nothing happens to them.
    expect(w.child.exitCode).toBeNull();
    w.child.stdin!.destroy();
    plain.child.stdin!.destroy();
    await until("the group to be gone", () =>
      alive(pids.agent) || alive(pids.grandchild) || alive(w.child.pid!) ? undefined : true,
    );
    await Promise.all([w.done, plain.done]);
    expect(existsSync(episodeDir)).toBe(false);
    // Only a folder of bazaar's own making is removed.
    expect(existsSync(otherDir)).toBe(true);
  });

  it("reports the agent's exit and exits as it did: a code, or a signal", async () => {
    const three = watch(agent("process.exit(3)"));
    expect(await three.done).toEqual({ code: 3, signal: null });
    expect(three.reports()).toEqual([{ exit: { code: 3, signal: null } }]);

    const killed = watch(agent("process.kill(process.pid, 'SIGTERM')"));
    expect(await killed.done).toEqual({ code: null, signal: "SIGTERM" });
    expect(killed.reports()).toEqual([{ exit: { code: null, signal: "SIGTERM" } }]);

    // bazaar's own stop, SIGTERM to the group: the agent ends, the watchdog outlives it to report.
    const stopped = watch(agent("setInterval(() => {}, 1000); console.log('up')"));
    await until("the agent to start", () => (stopped.stdout().includes("up") ? true : undefined));
    process.kill(-stopped.child.pid!, "SIGTERM");
    expect(await stopped.done).toEqual({ code: null, signal: "SIGTERM" });
    expect(stopped.reports()).toEqual([{ exit: { code: null, signal: "SIGTERM" } }]);
  });

  it("removes the episode's folder once the agent has exited, before it exits itself (a bazaar killed just then leaves nothing)", async () => {
    const dir = path.join(tempDir(), "bazaar-exec-ended");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "task.json"), "{}");
    const w = watch(agent("setInterval(() => {}, 1000); console.log('up')"), {
      BAZAAR_TASK_FILE: path.join(dir, "task.json"),
    });
    await until("the agent to start", () => (w.stdout().includes("up") ? true : undefined));
    expect(existsSync(dir)).toBe(true); // while the agent runs, its folder stays
    process.kill(-w.child.pid!, "SIGTERM"); // bazaar's first Ctrl-C stops the agent
    expect(await w.done).toEqual({ code: null, signal: "SIGTERM" });
    expect(existsSync(dir)).toBe(false);
  });

  it("reports a program that cannot start, and keeps NODE_OPTIONS for the agent alone", async () => {
    const missing = watch(["no-such-program-for-bazaar", "--flag"]);
    expect((await missing.done).code).toBe(127);
    expect(missing.reports()).toEqual([
      { spawnError: { code: "ENOENT", message: "spawn no-such-program-for-bazaar ENOENT" } },
    ]);

    // A --require of a missing file would stop the watchdog's own node before it started anything.
    const options = "--require /no/such/preload-for-bazaar.cjs";
    const echo = watch(["sh", "-c", 'printf %s "$NODE_OPTIONS"'], { NODE_OPTIONS: options });
    expect(await echo.done).toEqual({ code: 0, signal: null });
    expect(echo.stdout()).toBe(options);
  });
});
