import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const BIN = path.join(REPO_ROOT, "bin/bazaar.js");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A fresh temporary folder for one test's stores and exports. */
export function tempDir(prefix = "bazaar-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Runs the real `bazaar` command as a user would, in `cwd`, and collects its output (`nodeArgs`: flags
 * for node itself, before the command).
 */
export function runCli(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * The CLI in this process, capturing what it prints: quicker than spawning the binary, for checks of
 * bad input and of analyses (the real binary is what e2e runs use).
 */
export async function runInProcess(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import("../../cli/main.ts");
  let out = "";
  let err = "";
  const code = await main(args, {
    log: (l) => {
      out += `${l}\n`;
    },
    error: (l) => {
      err += `${l}\n`;
    },
  });
  process.exitCode = undefined;
  return { code, out, err };
}
