/**
 * `exec:<command>` in process: the agent runs real programs (the MCP client of
 * test/fixtures/outside/client.mjs) against shop episodes driven by `runEpisode`, so every way a
 * program can end is seen from the episode's side — an answer, a non-answer, a failed trial, a
 * configuration failure — along with what the program was given (its environment, the task file,
 * the MCP config) and what is left afterwards (no process, no temp files, no endpoint).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  execPlayer,
  MINIMAL_ENV,
  mcpConfig,
  TASK_ENV_CHARS,
  taskVariable,
} from "../../../agents/outside/exec.ts";
import type { OutsideOptions } from "../../../agents/outside/registry.ts";
import { SHOP_PRESETS } from "../../../agents/sim/shop/presets.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { EpisodeFailed, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { surfaceOf } from "../../../environments/kernel/surface.ts";
import type { Agent } from "../../../environments/kernel/types.ts";
import { environmentNamed } from "../../../environments/registry.ts";
import { type ShopOutcome, type ShopTask, shopMachine } from "../../../environments/shop/index.ts";
import { shopTasks } from "../../environments/shop/helpers.ts";
import { REPO_ROOT, tempDir } from "../../helpers/cli.ts";

const CLIENT = path.join(REPO_ROOT, "test/fixtures/outside/client.mjs");
const surface = surfaceOf(environmentNamed("shop"), "shopper");

/** An exec: agent running the test client with `args` (faults, logs), in `cwd`. */
function execAgent(args = "", options: Partial<OutsideOptions> = {}): Agent<unknown, unknown> {
  const command = `node ${CLIENT}${args ? ` ${args}` : ""}`;
  return execPlayer(`exec:${command}`, command, surface, {
    episodeTimeoutMs: 30_000,
    cwd: options.cwd ?? tempDir("bazaar-exec-"),
    ...options,
  }).agent;
}

let keys = 0;
function play(agent: Agent<unknown, unknown>, task: ShopTask, signal?: AbortSignal) {
  return runEpisode<ShopOutcome>(
    shopMachine,
    { task },
    { shopper: agent },
    { rng: createRng(1), trialKey: `trial-${++keys}`, replicate: 0, ...(signal ? { signal } : {}) },
  );
}

/** Polls `f` until it returns a value other than undefined, or fails after `ms`. */
async function until<T>(what: string, f: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface LogLine {
  pid: number;
  event: string;
  [k: string]: unknown;
}

function logLines(file: string): LogLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

function logged(file: string, event: string): LogLine | undefined {
  return logLines(file).find((l) => l.event === event);
}

/** A process that exists and is not a zombie waiting for a reaper. */
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

async function failureOf(p: Promise<unknown>): Promise<EpisodeFailed> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EpisodeFailed);
  return err as EpisodeFailed;
}

const planted = "SECRET_PLANTED";
afterEach(() => {
  delete process.env[planted];
});

describe("exec: agents", () => {
  it("resolves a spec to the command's identity (with --agent-version) and refuses what cannot be a command", () => {
    const opts = { episodeTimeoutMs: 0 };
    const p = execPlayer("exec:python3 my_agent.py", " python3 my_agent.py ", surface, opts);
    expect(p.label).toBe("exec:python3 my_agent.py");
    expect(p.identity).toEqual({ kind: "exec", command: "python3 my_agent.py" });
    expect(
      execPlayer("exec:python3 a.py", "python3 a.py", surface, { ...opts, agentVersion: "2" }).identity,
    ).toEqual({ kind: "exec", command: "python3 a.py", version: "2" });
    expect(() => execPlayer("exec:python3 'a.py", "python3 'a.py", surface, opts)).toThrow(UserError);
    expect(() => execPlayer("exec:''", "''", surface, opts)).toThrow("no program to run");
    expect(mcpConfig("http://127.0.0.1:1/episode/x")).toEqual({
      mcpServers: { bazaar: { type: "http", url: "http://127.0.0.1:1/episode/x" } },
    });
  });

  it("plays shop episodes through MCP exactly as the same policy plays them natively", async () => {
    const tasks = shopTasks().slice(0, 6);
    const native = SHOP_PRESETS["first-result"]!.make("sim:first-result") as Agent<unknown, unknown>;
    const agent = execAgent();
    // The episodes of one agent run at once, as under --concurrency.
    const [viaMcp, natively] = await Promise.all([
      Promise.all(tasks.map((t) => play(agent, t))),
      Promise.all(tasks.map((t) => play(native, t))),
    ]);
    expect(natively.map((r) => r.output.endReason)).toContain("booked");
    for (let i = 0; i < tasks.length; i++) {
      expect(viaMcp[i]!.output, tasks[i]!.taskId).toEqual(natively[i]!.output);
      expect(viaMcp[i]!.agentErrors).toBe(0);
    }
  });

  it("starts the program in a minimal environment, plus --pass-env, with the endpoint, the task and the MCP config; leaves no files", async () => {
    process.env[planted] = "x";
    const task = shopTasks()[0]!;
    const dumps = async (passEnv: string[]) => {
      const cwd = tempDir("bazaar-exec-env-");
      await play(execAgent("--dump-env", { cwd, passEnv }), task);
      const files = readdirSync(cwd).filter((f) => f.startsWith("env-dump-"));
      expect(files).toHaveLength(1);
      return JSON.parse(readFileSync(path.join(cwd, files[0]!), "utf8")) as {
        env: Record<string, string>;
        taskFile: Record<string, unknown>;
        mcpConfig: unknown;
      };
    };
    const plain = await dumps([]);
    expect(plain.env[planted]).toBeUndefined();
    const allowed = new Set<string>([
      ...MINIMAL_ENV,
      "BAZAAR_MCP_URL",
      "BAZAAR_TASK",
      "BAZAAR_TASK_FILE",
      "BAZAAR_MCP_CONFIG",
    ]);
    expect(Object.keys(plain.env).filter((k) => !allowed.has(k))).toEqual([]);
    for (const k of MINIMAL_ENV)
      if (process.env[k] !== undefined) expect(plain.env[k], k).toBe(process.env[k]);

    const { env, taskFile, mcpConfig: config } = plain;
    expect(env.BAZAAR_MCP_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/episode\/[A-Za-z0-9_-]{43}$/);
    expect(config).toEqual({ mcpServers: { bazaar: { type: "http", url: env.BAZAAR_MCP_URL } } });
    expect(taskFile.env).toBe("shop");
    expect(taskFile.role).toBe("shopper");
    expect(env.BAZAAR_TASK).toBe(`${taskFile.instructions}\n\n${taskFile.request}`);
    expect((taskFile.messages as { role: string }[]).map((m) => m.role)).toEqual(["system", "user"]);
    expect((taskFile.tools as { name: string }[]).map((t) => t.name)).toEqual(
      surface.tools.map((t) => t.name),
    );
    // The task file and the config live only as long as the episode's program.
    await until("the temp files to go", () => (existsSync(env.BAZAAR_TASK_FILE!) ? undefined : true));
    expect(existsSync(env.BAZAAR_MCP_CONFIG!)).toBe(false);

    const passed = await dumps([planted, "NOT_SET_ANYWHERE"]);
    expect(passed.env[planted]).toBe("x");
    expect("NOT_SET_ANYWHERE" in passed.env).toBe(false);
  });

  it("BAZAAR_TASK holds the task whole up to its cap; a longer one is cut there, pointing to BAZAAR_TASK_FILE", () => {
    const short = "You are a shopper.\n\nBook a hotel.";
    expect(taskVariable(short)).toBe(short);
    const exact = "x".repeat(TASK_ENV_CHARS);
    expect(taskVariable(exact)).toBe(exact);
    // Far under Linux's 128 KiB for one variable, however many bytes a character takes.
    expect(4 * TASK_ENV_CHARS).toBeLessThan(128 * 1024);
    const long = `${"é".repeat(TASK_ENV_CHARS)}${"y".repeat(50_000)}`;
    const cut = taskVariable(long);
    expect(cut.length).toBeLessThanOrEqual(TASK_ENV_CHARS);
    expect(long.startsWith(cut.slice(0, cut.indexOf("\n\n[…")))).toBe(true);
    expect(cut).toMatch(
      /\n\n\[… the task is cut here at 32,000 of its 82,000 characters; the whole task is in the JSON file named by \$BAZAAR_TASK_FILE \(instructions, request, messages\)\]$/,
    );
    // Never half of a surrogate pair at the cut, whichever half the cut falls after.
    for (const pad of ["", "a"]) {
      const emoji = taskVariable(`${pad}${"😀".repeat(TASK_ENV_CHARS)}`);
      expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(emoji.slice(pad.length, emoji.indexOf("\n\n[…"))).toMatch(/^(😀)+$/u);
    }
  });

  it("a program that exits 0 before the episode is over leaves its non-answer with the tail of its output", async () => {
    const r = await play(execAgent("--fault=exit0"), shopTasks()[0]!);
    expect(r.output.endReason).toBe("agent-error");
    expect(r.output.steps).toBe(1);
    expect(r.output.nonResponse?.reason).toBe(
      "agent error: the agent exited (code 0) before the episode was over; its output ended: I have seen enough of this shop; goodbye.",
    );
  });

  it("a non-zero exit or a crash fails the trial (infrastructure) with the tail of stderr", async () => {
    const exit3 = await failureOf(play(execAgent("--fault=exit3"), shopTasks()[0]!));
    expect(exit3.failure).toEqual({
      kind: "infrastructure",
      message: "outside agent: the agent exited with code 3; stderr ended: fixture: giving up with code 3",
      label: "the process exited 3",
    });
    expect(exit3.turns).toBe(1);
    const crash = await failureOf(play(execAgent("--fault=crash"), shopTasks()[0]!));
    expect(crash.failure.kind).toBe("infrastructure");
    expect(crash.failure.message).toMatch(/^outside agent: the agent exited with code 1; stderr ended: /);
    expect(crash.failure.message).toContain("Error: fixture crashed on purpose");
    expect(crash.failure.label).toBe("the process exited 1");
  });

  it("a malformed call is a tool error and an invalid call, as natively; calls after the end get the outcome", async () => {
    const dir = tempDir("bazaar-exec-log-");
    const log = path.join(dir, "log.jsonl");
    const task = shopTasks()[0]!;
    const r = await play(execAgent(`--fault=malformed --log=${log}`), task);
    const malformed = logged(log, "malformed")!;
    expect(malformed.isError).toBe(true);
    expect(malformed.text).toMatch(/^Error: invalid arguments for search: maxPrice: /);
    expect(r.output.trajectory[0]).toMatchObject({ tool: "search", ok: false });
    const natively = await play(SHOP_PRESETS["first-result"]!.make("x") as Agent<unknown, unknown>, task);
    expect(r.output.steps).toBe(natively.output.steps + 1);
    expect(r.output.bookedId).toBe(natively.output.bookedId);

    const log2 = path.join(dir, "log2.jsonl");
    const after = await play(execAgent(`--fault=after-end --log=${log2}`), task);
    expect(after.output).toEqual(natively.output);
    const again = await until("the call after the end", () => logged(log2, "after-end"));
    expect(again).toMatchObject({ isError: false, over: true, text: logged(log2, "over")!.text });
  });

  it("a program silent past --episode-timeout fails the trial; its whole process group is stopped; its URL is dead", async () => {
    const log = path.join(tempDir("bazaar-exec-log-"), "log.jsonl");
    // Long enough for node to start and load the MCP SDK on a loaded machine.
    const failed = await failureOf(
      play(execAgent(`--fault=grandchild --log=${log}`, { episodeTimeoutMs: 5_000 }), shopTasks()[0]!),
    );
    expect(failed.failure.message).toBe("outside agent: no tool call for 5 s (--episode-timeout)");
    expect(failed.failure.label).toBe("idle past --episode-timeout (5 s)");
    const task = logged(log, "task")!;
    const grandchild = logged(log, "grandchild")!.grandchild as number;
    await until("the program and its child to be stopped", () =>
      alive(task.pid) || alive(grandchild) ? undefined : true,
    );
    const answer = await fetch(task.url as string, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "late", version: "1" },
        },
      }),
    }).then(
      (r) => r.status,
      () => "refused",
    );
    expect([401, "refused"]).toContain(answer);
  });

  it("a stopped run stops its programs: SIGTERM, then SIGKILL for one that ignores it", async () => {
    const log = path.join(tempDir("bazaar-exec-log-"), "log.jsonl");
    const stop = new AbortController();
    const episode = play(execAgent(`--fault=stubborn --log=${log}`), shopTasks()[0]!, stop.signal);
    const hanging = await until("the program to wait", () => logged(log, "hanging"));
    stop.abort();
    await expect(episode).rejects.toThrow("the run was stopped");
    await until("SIGTERM", () => logged(log, "sigterm ignored"));
    await until("SIGKILL", () => (alive(hanging.pid) ? undefined : true));
  });

  it("a command that cannot be started is a configuration failure, saying what to fix", async () => {
    const command = "no-such-program-for-bazaar --flag";
    const agent = execPlayer(`exec:${command}`, command, surface, {
      episodeTimeoutMs: 30_000,
      cwd: REPO_ROOT,
    }).agent;
    const failed = await failureOf(play(agent, shopTasks()[0]!));
    expect(failed.failure.kind).toBe("configuration");
    expect(failed.failure.message).toBe(
      "exec: the agent's command could not be started: spawn no-such-program-for-bazaar ENOENT",
    );
    expect(failed.failure.hint).toContain('check the program "no-such-program-for-bazaar"');
  });
});
