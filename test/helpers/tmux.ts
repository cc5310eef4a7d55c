/**
 * Terminals for the e2e tests of the terminal UI: a private tmux server runs the command in a real
 * pseudo-terminal, `send-keys` types, `capture-pane` reads the screen. Every check waits for what it
 * looks for (a deadline, never a fixed sleep), so the tests hold on a loaded machine.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BIN } from "./cli.ts";

export const TMUX = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].find((p) =>
  existsSync(p),
);

// A private tmux server per test process, so the tests never touch a user's sessions.
const SOCKET = `bazaar-test-${process.pid}`;
// A terminal, not a CI log: ink draws frames live only when CI is unset (even set to "").
const { CI: _ci, CONTINUOUS_INTEGRATION: _cint, ...ENV } = process.env;
const tmux = (...args: string[]) =>
  execFileSync(TMUX!, ["-L", SOCKET, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: ENV,
  });
let sessions = 0;

export interface Terminal {
  screen(): string;
  /** The whole scrollback too, not only what is on the screen now. */
  history(): string;
  keys(...keys: string[]): void;
  /** Waits until the screen matches, and returns it. */
  until(pattern: string | RegExp, ms?: number): Promise<string>;
  close(): void;
}

/**
 * Starts `bazaar <args>` (or any command, with `command`) in a fresh terminal of `width` × `height`;
 * its exit code is printed as EXIT=<code> at the end.
 */
export function terminal(
  cwd: string,
  args: string[],
  o: { width?: number; height?: number; command?: string[] } = {},
): Terminal {
  const name = `t${++sessions}`;
  const argv = o.command ?? [process.execPath, BIN, ...args];
  const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const start = () =>
    tmux(
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      String(o.width ?? 100),
      "-y",
      String(o.height ?? 40),
      "-c",
      cwd,
      `${quoted}; echo EXIT=$?; sleep 600`,
    );
  // The private server exits once its last session is killed; a session started while it is still
  // going down is refused ("server exited unexpectedly"), so try again on a fresh server.
  for (let attempt = 1; ; attempt++) {
    try {
      start();
      break;
    } catch (err) {
      const said = String((err as { stderr?: unknown }).stderr ?? err);
      if (attempt >= 10 || !/server exited unexpectedly|no server running|lost server/.test(said)) throw err;
    }
  }
  const screen = () => tmux("capture-pane", "-p", "-t", name);
  return {
    screen,
    history: () => tmux("capture-pane", "-p", "-S", "-", "-t", name),
    keys: (...keys: string[]) => {
      tmux("send-keys", "-t", name, ...keys);
    },
    async until(pattern: string | RegExp, ms = 120_000): Promise<string> {
      const t0 = Date.now();
      for (;;) {
        const s = screen();
        if (typeof pattern === "string" ? s.includes(pattern) : pattern.test(s)) return s;
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${pattern}; the screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => {
      tmux("kill-session", "-t", name);
    },
  };
}

/** Ends the private tmux server (after the tests of a file). */
export function closeTerminals(): void {
  if (TMUX && sessions > 0) {
    try {
      tmux("kill-server");
    } catch {
      // already gone
    }
  }
}
