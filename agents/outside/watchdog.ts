/**
 * The watchdog between bazaar and an `exec:` agent: an agent must never outlive the bazaar that
 * started it, whatever ends bazaar (kill -9, a second Ctrl-C, a crash). Node has no parent-death
 * signal and a SIGKILLed process runs no exit hook, so something else must notice: a small node
 * process that leads the agent's process group, holds the read end of a pipe from bazaar on its
 * stdin, and ends the whole group when that pipe closes — which the kernel does when bazaar dies, by
 * whatever means. Otherwise it stays out of the way:
 * - the agent is its child in its group, with its stdout and stderr (bazaar's pipes) as they are
 *   and no stdin, so bazaar's signals to the group reach the agent as before;
 * - it ignores the polite signals (SIGTERM, SIGINT, SIGHUP) sent to the group, so that it outlives
 *   the agent to report how it ended: one JSON line on fd 3, `{"exit": {"code", "signal"}}`, and then
 *   it exits as the agent did (the same code, or the same signal raised on itself);
 * - once the agent has exited, or bazaar is gone, it removes the episode's folder (the task file and
 *   the MCP config, `bazaar-exec-*` in the temp folder), which only the agent reads: bazaar removes
 *   it too, but a bazaar killed just after its agent exited could not;
 * - a command that cannot start (no such program) is reported there as
 *   `{"spawnError": {"code", "message"}}`, so bazaar tells a missing program (the run's
 *   configuration) from an agent that failed.
 *
 * It is plain JavaScript run with `node -e` (CommonJS: `require` is there), so it needs no file of
 * its own beside the compiled CLI and loads nothing but Node's own modules (~40 ms of start-up per
 * episode, next to an agent that starts a process of its own anyway).
 */

/** How long the group has between SIGTERM and SIGKILL once bazaar is gone (bazaar's own stop's grace). */
export const ORPHAN_GRACE_MS = 2_000;

/** The fd on which the watchdog reports a command that could not start. */
export const REPORT_FD = 3;

/**
 * `NODE_OPTIONS` would apply to the watchdog's own node: the agent's value travels under this name
 * and is put back for the agent alone.
 */
export const AGENT_NODE_OPTIONS = "BAZAAR_AGENT_NODE_OPTIONS";

/** What the watchdog says on fd 3 (one JSON line). */
export type WatchdogReport =
  | { spawnError: { code?: string; message: string } }
  | { exit: { code: number | null; signal: NodeJS.Signals | null } };

const SOURCE = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const { rmSync, writeSync } = require("node:fs");
const path = require("node:path");
const [program, ...args] = process.argv.slice(1);
const env = { ...process.env };
delete env.NODE_OPTIONS;
if (env.${AGENT_NODE_OPTIONS} !== undefined) {
  env.NODE_OPTIONS = env.${AGENT_NODE_OPTIONS};
  delete env.${AGENT_NODE_OPTIONS};
}
const polite = ["SIGTERM", "SIGINT", "SIGHUP"];
const ignore = () => {};
for (const s of polite) process.on(s, ignore);
let orphaned = false;
const report = (message) => {
  try {
    writeSync(${REPORT_FD}, JSON.stringify(message) + "\n");
  } catch {}
};
const killGroup = (signal) => {
  try {
    process.kill(-process.pid, signal);
  } catch {}
};
const child = spawn(program, args, { env, stdio: ["ignore", "inherit", "inherit"] });
child.on("error", (err) => {
  if (child.pid !== undefined) return;
  report({ spawnError: { code: err.code, message: err.message } });
  process.exit(127);
});
// The episode's folder, which only bazaar's exit hook would otherwise remove (never anything else).
const leftovers = () => {
  const dir = env.BAZAAR_TASK_FILE ? path.dirname(env.BAZAAR_TASK_FILE) : "";
  if (path.basename(dir).startsWith("bazaar-exec-"))
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {}
};
const finish = () => {
  leftovers();
  killGroup("SIGKILL");
};
child.on("exit", (code, signal) => {
  // bazaar is gone: nothing reads how the agent ended; what it left in the group goes with it.
  if (orphaned) return finish();
  // The folder was the agent's alone: removed now, so that a bazaar killed at this moment (a second
  // Ctrl-C just after the first stopped the agent) leaves nothing behind either.
  leftovers();
  report({ exit: { code, signal } });
  if (signal !== null) {
    for (const s of polite) process.off(s, ignore);
    process.kill(process.pid, signal);
    // A signal whose default is not to end a process (node ignores SIGPIPE) lands here.
    setTimeout(() => process.exit(1), 1000);
    return;
  }
  process.exit(code === null ? 1 : code);
});
// The pipe from bazaar ends only when bazaar does (it never writes to it).
const gone = () => {
  if (orphaned) return;
  orphaned = true;
  killGroup("SIGTERM");
  setTimeout(finish, ${ORPHAN_GRACE_MS});
};
process.stdin.on("data", ignore);
process.stdin.on("end", gone);
process.stdin.on("close", gone);
process.stdin.on("error", gone);
`;

/**
 * The program and arguments that start `words` (the agent's command) under the watchdog, with the
 * environment the watchdog gets for it.
 */
export function underWatchdog(
  words: readonly string[],
  env: Record<string, string>,
): { program: string; args: string[]; env: Record<string, string> } {
  const { NODE_OPTIONS, ...rest } = env;
  return {
    program: process.execPath,
    args: ["-e", SOURCE, "--", ...words],
    env: NODE_OPTIONS === undefined ? rest : { ...rest, [AGENT_NODE_OPTIONS]: NODE_OPTIONS },
  };
}
