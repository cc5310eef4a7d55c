/**
 * Long-lived processes for the end-to-end tests that drive servers and agents (an example agent, a
 * `bazaar serve`, an assessor): started with their output collected, killed if they outlive a
 * deadline, and a poll for what the test waits on (a deadline, never a fixed sleep).
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { CliResult } from "./cli.ts";

export interface Started {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  done: Promise<CliResult>;
}

/** `node <args>` in `cwd` with exactly `env`, its output collected; SIGKILLed past `deadlineMs`. */
export function startNode(
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; deadlineMs: number },
): Started {
  const child = spawn(process.execPath, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (d: Buffer) => {
    out.stdout += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    out.stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), o.deadlineMs);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ...out });
    });
  });
  return { child, out, done };
}

/** Polls `f` until it returns a value, or fails after `ms` saying what it waited for. */
export async function pollUntil<T>(what: string, f: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
