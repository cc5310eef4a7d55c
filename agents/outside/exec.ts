/**
 * `exec:<command>` (DESIGN.md § Agents from outside): a program bazaar starts once per episode, which
 * plays the episode through a private MCP endpoint (Streamable HTTP on 127.0.0.1).
 *
 * Per trial: the episode gets a route `/episode/<secret>` on one HTTP host shared by the process
 * (started at the first episode, closed when no episode uses it) — the URL is the only credential,
 * valid for that episode only — and the command starts, without a shell, in its own process group,
 * with `BAZAAR_MCP_URL`, `BAZAAR_TASK`, `BAZAAR_TASK_FILE` and `BAZAAR_MCP_CONFIG` in an environment
 * that holds nothing of bazaar's beyond a minimal set and the variables named by `--pass-env`.
 *
 * How an episode's program ends decides what the trial is:
 * - it exits 0 before the episode is over: its own non-answer (`link.quit`: a non-response, with the
 *   tail of what it printed);
 * - it exits non-zero, crashes or is killed by a signal: a failed trial (`link.gone`: infrastructure,
 *   with its stderr's tail), played again by the same command;
 * - it goes without a tool call longer than `--episode-timeout`: the link fails the trial and the
 *   process group is stopped;
 * - the command cannot be started (no such program, not executable): a configuration failure, which
 *   stops the run.
 * When the episode is over the program has a few seconds to exit by itself, then its group gets
 * SIGTERM and then SIGKILL; an episode cut short (the run stopped, the trial failed) stops it at once.
 * The program runs under a watchdog (`watchdog.ts`) that ends its group when bazaar dies, however it
 * dies: no `exec:` agent outlives the bazaar that started it.
 *
 * `serve --max-abandons` (a session that leaves its trial without acting, again and again, is that
 * agent's non-answer) has no `exec:` counterpart, on purpose: a program that exits 0 without acting
 * has given its non-answer at once, and one that exits non-zero has crashed — a failed trial whose
 * stderr the summary quotes, which the user fixes and runs again. `run` never replays a failed trial
 * within one command, so nothing loops; counting crashes as answers would hide a broken agent in the
 * data.
 *
 * The MCP SDK and the HTTP host load at the first episode (a run without `exec:` agents loads none).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { UserError } from "../../environments/kernel/errors.ts";
import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { CallResult, ToolSurface } from "../../environments/kernel/surface.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { splitCommand } from "./exec-words.ts";
import type { McpHttpHost } from "./http.ts";
import type { OutsideOptions, OutsidePlayer } from "./types.ts";
import { type EpisodeLink, WaitingAgent } from "./waiting.ts";
import { REPORT_FD, underWatchdog, type WatchdogReport } from "./watchdog.ts";

/** Variables of bazaar's environment every program gets (those that are set); the rest by `--pass-env`. */
export const MINIMAL_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM", "USER", "SHELL"] as const;

/** How long a program may take to exit by itself once its episode is over. */
export const EXIT_GRACE_MS = 5_000;
/** How long after SIGTERM its group gets SIGKILL. */
export const KILL_AFTER_MS = 2_000;
/** How long after the program exited its output may take to arrive (a grandchild holding the pipe). */
const DRAIN_MS = 1_000;
/** Characters of output a report quotes. */
const TAIL_CHARS = 500;
/** The server's version in MCP's initialize (bazaar's). */
const SERVER_VERSION = "0.1.0";
/**
 * Characters of the task `BAZAAR_TASK` holds. Linux refuses a variable over 128 KiB (E2BIG: the
 * program would not start at all); a longer task is cut there, with a pointer to the file that holds
 * it whole.
 */
export const TASK_ENV_CHARS = 32_000;

/** The task as `BAZAAR_TASK` gives it: whole, or cut with a pointer to `BAZAAR_TASK_FILE`. */
export function taskVariable(text: string): string {
  if (text.length <= TASK_ENV_CHARS) return text;
  const note = `\n\n[… the task is cut here at ${TASK_ENV_CHARS.toLocaleString("en-US")} of its ${text.length.toLocaleString("en-US")} characters; the whole task is in the JSON file named by $BAZAAR_TASK_FILE (instructions, request, messages)]`;
  let head = text.slice(0, TASK_ENV_CHARS - note.length);
  // Not half a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}${note}`;
}

/** `exec:<command>`: a program started once per episode with a private MCP endpoint. */
export function execPlayer(
  spec: string,
  command: string,
  surface: ToolSurface,
  options: OutsideOptions,
): OutsidePlayer {
  const words = splitCommand(command);
  if (words.length === 0 || words[0] === "")
    throw new UserError(`agent "${spec}": no program to run`, "e.g. exec:python3 my_agent.py");
  const trimmed = command.trim();
  return {
    label: spec,
    identity: {
      kind: "exec",
      command: trimmed,
      ...(options.agentVersion ? { version: options.agentVersion } : {}),
    },
    agent: new ExecAgent(spec, surface, words, options) as Agent<unknown, unknown>,
  };
}

/**
 * The waiting agent whose episodes each start the program. A program that cannot be started turns
 * the infrastructure failure its link reports into a configuration failure (the run stops).
 */
class ExecAgent implements Agent<unknown, Record<string, unknown>> {
  private readonly waiting: WaitingAgent;
  private readonly misconfigured = new Map<string, AgentFailure>();

  constructor(
    readonly id: string,
    private readonly surface: ToolSurface,
    private readonly words: readonly string[],
    private readonly options: OutsideOptions,
  ) {
    this.waiting = new WaitingAgent(id, surface, (link) => this.start(link), options.episodeTimeoutMs);
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<Record<string, unknown>>> {
    try {
      return await this.waiting.act(observation, ctx);
    } catch (err) {
      const failure = this.misconfigured.get(ctx.trialKey);
      throw failure ?? err;
    }
  }

  endEpisode(ctx: AgentContext, outcome?: unknown): void {
    this.misconfigured.delete(ctx.trialKey);
    this.waiting.endEpisode(ctx, outcome);
  }

  private start(link: EpisodeLink): void {
    new ExecEpisode(link, this.surface, this.words, this.options, (failure) =>
      this.misconfigured.set(link.trialKey, failure),
    ).start();
  }
}

// ——— the HTTP host, shared by every episode of the process ———

type HttpModule = typeof import("./http.ts");
type McpModule = typeof import("./mcp.ts");

interface SharedHost {
  ready: Promise<{ host: McpHttpHost; http: HttpModule; mcp: McpModule }>;
  users: number;
}

let shared: SharedHost | null = null;

/** The process's host for episode endpoints, started (and the MCP SDK loaded) by its first user. */
function acquireHost(): SharedHost {
  if (!shared) {
    const ready = (async () => {
      const [http, mcp] = await Promise.all([import("./http.ts"), import("./mcp.ts")]);
      const host = await http.McpHttpHost.start("127.0.0.1", 0);
      return { host, http, mcp };
    })();
    ready.catch(() => {});
    shared = { ready, users: 0 };
  }
  shared.users++;
  return shared;
}

/** One user fewer; the last one closes the host (a run whose episodes are done leaves nothing open). */
function releaseHost(s: SharedHost): void {
  s.users--;
  if (s.users > 0) return;
  if (shared === s) shared = null;
  s.ready.then(({ host }) => host.close()).catch(() => {});
}

// ——— process groups still running, and episode folders, ended and removed if bazaar exits first ———

const running = new Set<number>();
/**
 * Episode folders from their creation until their removal has finished: a folder whose program has
 * exited is still here while its (asynchronous) removal runs, so that a bazaar that exits meanwhile
 * (a second Ctrl-C) removes it rather than leave it half removed.
 */
const folders = new Set<string>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already (ESRCH).
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // bazaar exiting (an uncaught error, process.exit) takes its programs with it. A kill -9 cannot be
  // caught: its programs' watchdogs end them and remove their folders (watchdog.ts).
  process.on("exit", () => {
    for (const p of running) killGroup(p, "SIGKILL");
    for (const d of folders) rmSync(d, { recursive: true, force: true });
  });
}

function track(pid: number): void {
  installExitHook();
  running.add(pid);
}

/** A new episode folder, removed by the exit hook until `removeFolder` has removed it. */
async function makeFolder(): Promise<string> {
  installExitHook();
  const dir = await mkdtemp(path.join(os.tmpdir(), "bazaar-exec-"));
  folders.add(dir);
  return dir;
}

async function removeFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => {});
  folders.delete(dir);
}

// ——— one episode's program ———

/** The last characters a stream wrote. */
class Tail {
  private text = "";
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 8 * TAIL_CHARS) this.text = this.text.slice(-2 * TAIL_CHARS);
  }
  /** The tail, trimmed, or null when nothing (but blanks) was written. */
  last(): string | null {
    const t = this.text.trimEnd();
    if (t.trim() === "") return null;
    return t.length > TAIL_CHARS ? `…${t.slice(-TAIL_CHARS)}` : t.trimStart();
  }
}

class ExecEpisode {
  private shared: SharedHost | null = null;
  private host: McpHttpHost | null = null;
  private route: string | null = null;
  private dir: string | null = null;
  private child: ChildProcess | null = null;
  private readonly stdout = new Tail();
  private readonly stderr = new Tail();
  /** What the watchdog reported on its fd 3 (JSON lines). */
  private reported = "";
  /** The episode is over (ended, or cut short): nothing more starts. */
  private over = false;
  /** The program is gone (exited, never started, could not start). */
  private gone = false;
  private cleaned = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly link: EpisodeLink,
    private readonly surface: ToolSurface,
    private readonly words: readonly string[],
    private readonly options: OutsideOptions,
    private readonly misconfigured: (failure: AgentFailure) => void,
  ) {}

  start(): void {
    this.link.onEnd((r) => this.ended(r));
    this.setUp().catch((err: unknown) => {
      this.gone = true;
      this.link.gone(
        `the agent could not be started: ${err instanceof Error ? err.message : String(err)}`,
        "the process could not be started",
      );
      this.cleanUp();
    });
  }

  private async setUp(): Promise<void> {
    if (this.over || this.link.over) {
      this.gone = true;
      return this.cleanUp();
    }
    this.shared = acquireHost();
    let ready: Awaited<SharedHost["ready"]>;
    try {
      ready = await this.shared.ready;
    } catch (err) {
      // No loopback port for the endpoint: no trial can be played.
      this.misconfigured(
        new AgentFailure(
          "configuration",
          `exec: agents: no MCP endpoint on 127.0.0.1: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
      throw err;
    }
    const { host, http, mcp } = ready;
    this.host = host;
    const link = this.link;
    const route = `/episode/${http.newSecret()}`;
    this.route = route;
    host.addRoute(route, {
      newSession: () => ({
        server: mcp.episodeServer(
          this.surface,
          { episode: async () => link },
          link.task.text,
          SERVER_VERSION,
        ),
        closed: () => {},
      }),
    });
    const url = host.url(route);
    this.dir = await makeFolder();
    const taskFile = path.join(this.dir, "task.json");
    const configFile = path.join(this.dir, "mcp.json");
    await Promise.all([
      writeFile(
        taskFile,
        `${JSON.stringify({
          env: this.surface.env,
          role: this.surface.role,
          instructions: link.task.instructions,
          request: link.task.request,
          messages: link.task.messages,
          tools: this.surface.tools,
        })}\n`,
        { mode: 0o600 },
      ),
      writeFile(configFile, `${JSON.stringify(mcpConfig(url), null, 2)}\n`, { mode: 0o600 }),
    ]);
    if (this.over || link.over) {
      this.gone = true;
      return this.cleanUp();
    }
    this.spawn({
      BAZAAR_MCP_URL: url,
      BAZAAR_TASK: taskVariable(link.task.text),
      BAZAAR_TASK_FILE: taskFile,
      BAZAAR_MCP_CONFIG: configFile,
    });
  }

  private spawn(bazaarEnv: Record<string, string>): void {
    const env: Record<string, string> = {};
    for (const name of [...MINIMAL_ENV, ...(this.options.passEnv ?? [])]) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, bazaarEnv);
    const cwd = this.options.cwd ?? process.cwd();
    const watched = underWatchdog(this.words, env);
    // The watchdog leads the new process group, the program is its child there (see watchdog.ts).
    const child = spawn(watched.program, watched.args, {
      cwd,
      env: watched.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child = child;
    // The watchdog's lifeline: held open, never written to; the kernel closes it when bazaar dies.
    child.stdin?.on("error", () => {});
    child.stdout?.setEncoding("utf8").on("data", (s: string) => this.stdout.push(s));
    child.stderr?.setEncoding("utf8").on("data", (s: string) => this.stderr.push(s));
    const reports = child.stdio[REPORT_FD] as Readable | null;
    reports?.setEncoding("utf8").on("data", (s: string) => {
      this.reported += s;
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      // Only a watchdog that never started is this episode's concern (a failed kill is not).
      if (child.pid !== undefined || this.gone) return;
      this.notStarted(err.code, err.message, cwd);
    });
    if (child.pid === undefined) return;
    const pid = child.pid;
    track(pid);
    let closed = false;
    child.on("close", () => {
      closed = true;
    });
    child.on("exit", (code, signal) => {
      // Whatever the program left behind in its group goes with it.
      killGroup(pid, "SIGKILL");
      const settle = () => this.exited(code, signal, cwd);
      if (closed) return settle();
      const drained = setTimeout(settle, DRAIN_MS);
      child.once("close", () => {
        clearTimeout(drained);
        settle();
      });
    });
  }

  /** What the watchdog said on its report fd (`watchdog.ts`), line by line. */
  private reports(): WatchdogReport[] {
    const out: WatchdogReport[] = [];
    for (const line of this.reported.split("\n"))
      if (line.trim() !== "")
        try {
          out.push(JSON.parse(line) as WatchdogReport);
        } catch {
          // Cut short by a kill: what it said before still counts.
        }
    return out;
  }

  /**
   * The command could not be started: no such program, or not executable, is the run's
   * configuration (no trial can be played); anything else fails this trial.
   */
  private notStarted(code: string | undefined, reason: string, cwd: string): void {
    if (this.gone) return;
    this.gone = true;
    if (this.child?.pid !== undefined) running.delete(this.child.pid);
    const program = this.words[0] as string;
    const message = `the agent's command could not be started: ${reason}`;
    if (code === "ENOENT" || code === "EACCES" || code === "ENOTDIR") {
      const failure = new AgentFailure(
        "configuration",
        `exec: ${message}`,
        `check the program "${program}" (looked up on PATH, relative paths from ${cwd})`,
      );
      this.misconfigured(failure);
    }
    this.link.gone(message, "the process could not be started");
    this.cleanUp();
  }

  /** The program exited: before the episode was over, that is the trial's fate. */
  private exited(code: number | null, signal: NodeJS.Signals | null, cwd: string): void {
    if (this.gone) return;
    const reports = this.reports();
    const unstarted = reports.find((r) => "spawnError" in r);
    if (unstarted && "spawnError" in unstarted) {
      this.notStarted(unstarted.spawnError.code, unstarted.spawnError.message, cwd);
      return;
    }
    // The program's own exit, as the watchdog saw it (the watchdog mirrors it, but a signal node
    // ignores, SIGPIPE, cannot be mirrored).
    const exit = reports.find((r) => "exit" in r);
    if (exit && "exit" in exit) ({ code, signal } = exit.exit);
    this.gone = true;
    if (this.child?.pid !== undefined) running.delete(this.child.pid);
    if (!this.over && !this.link.over) {
      if (code === 0) {
        const out = this.stdout.last();
        this.link.quit(
          `the agent exited (code 0) before the episode was over; ${out === null ? "it printed nothing" : `its output ended: ${out}`}`,
        );
      } else {
        const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        const err = this.stderr.last();
        this.link.gone(
          `the agent ${how}; ${err === null ? "it wrote nothing to stderr" : `stderr ended: ${err}`}`,
          signal !== null ? `the process was killed by ${signal}` : `the process exited ${code}`,
        );
      }
    }
    this.cleanUp();
  }

  /**
   * The episode is over. A program that played it to its end may still be saying goodbye: it has a
   * grace period; one whose episode was cut short (the run stopped, the trial failed, the timeout) is
   * stopped now.
   */
  private ended(last: CallResult): void {
    this.over = true;
    const cutShort = last.isError;
    // An episode cut short has nothing more to say: its URL is dead at once. One that ended keeps
    // answering (with its outcome) until its program is gone.
    if (cutShort) this.dropRoute();
    if (this.gone || !this.child?.pid) return;
    if (cutShort) this.stop();
    else this.later(() => this.stop(), EXIT_GRACE_MS);
  }

  /** The episode's endpoint goes (at once: the route is dropped before any session is closed). */
  private dropRoute(): void {
    const host = this.host;
    const route = this.route;
    this.route = null;
    if (host && route) host.removeRoute(route).catch(() => {});
  }

  private stop(): void {
    const pid = this.child?.pid;
    if (this.gone || pid === undefined) return;
    killGroup(pid, "SIGTERM");
    this.later(() => {
      if (!this.gone) killGroup(pid, "SIGKILL");
    }, KILL_AFTER_MS);
  }

  private later(f: () => void, ms: number): void {
    this.timers.push(setTimeout(f, ms));
  }

  /** Once the program is gone: its endpoint, its files and its share of the host. */
  private cleanUp(): void {
    if (this.cleaned) return;
    this.cleaned = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.dropRoute();
    const dir = this.dir;
    const s = this.shared;
    void (async () => {
      if (dir) await removeFolder(dir);
      if (s) releaseHost(s);
    })();
  }
}

/**
 * The endpoint as command-line agents take MCP servers: `{"mcpServers": {name: {type, url}}}` — the
 * shape of Claude Code's `--mcp-config` and of `.mcp.json`/`mcp.json` files (clients that know only
 * `url` read it too).
 */
export function mcpConfig(url: string): { mcpServers: Record<string, { type: "http"; url: string }> } {
  return { mcpServers: { bazaar: { type: "http", url } } };
}
