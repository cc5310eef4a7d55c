/**
 * `a2a:<url>` as a user runs it (the compiled CLI) against examples/a2a-agent — an A2A server on the
 * official SDK wrapping a LangGraph ReAct agent — whose model is one of serve-sim's simulated
 * policies; the agent runs with every connection off loopback refused (test/fixtures/loopback-only.mjs).
 *
 * - Equivalence: bazaar stores what the same policy stores natively — the careful shopper without a
 *   client (call for call) and for a client who says everything, and a bargaining buyer. The designs'
 *   outcomes do not hang on how either side seeds its draws (needle and infeasible tasks have one
 *   right answer; the linear tactic draws nothing).
 * - The client's conversation: the asking shopper's questions reach the sim client as the task's
 *   `input-required` turns, and the stored conversation is the native `sim:asks-first`'s.
 * - Concurrency and leases: the agent killed (kill -9) mid-run and started again — the same command
 *   completes every trial once; bazaar killed mid-run — the same command completes every trial once;
 *   two runners at once on one run — every trial once, and the agent asked each once.
 *
 * Runs the compiled CLI: `npm run build` first.
 */
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { BIN, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { pollUntil, type Started, startNode } from "../helpers/process.ts";
import { outcomes, storedRecords } from "../helpers/serve.ts";
import { storedTrials } from "../helpers/store.ts";

const AGENT = path.join(REPO_ROOT, "examples/a2a-agent/agent.ts");
const LOOPBACK_ONLY = path.join(REPO_ROOT, "test/fixtures/loopback-only.mjs");
/** How long any one process may take before the test gives up on it (a loaded 2-core machine). */
const DEADLINE_MS = 180_000;

/** Starts a process, collecting its output; killed if it outlives the deadline. */
function start(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Started {
  return startNode(args, { cwd: opts.cwd, env: opts.env ?? process.env, deadlineMs: DEADLINE_MS });
}

/** Polls `f` until it returns a value, or fails after the deadline. */
const until = <T>(what: string, f: () => T | undefined, ms = DEADLINE_MS): Promise<T> =>
  pollUntil(what, f, ms);

const agents: Started[] = [];
afterEach(async () => {
  for (const a of agents.splice(0))
    if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill("SIGKILL");
});

let sim: Awaited<ReturnType<typeof startSimServer>>;
beforeAll(async () => {
  sim = await startSimServer({ port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

/** The example agent on serve-sim's `model`, on `port` (0: a free one), once it says where it listens. */
async function startAgent(model: string, port = 0) {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "sk-sim", LANGSMITH_TRACING: "false" };
  const agent = start(
    [
      "--import",
      "tsx",
      "--import",
      LOOPBACK_ONLY,
      AGENT,
      "--port",
      String(port),
      "--model",
      model,
      "--base-url",
      sim.url,
    ],
    { cwd: REPO_ROOT, env },
  );
  agents.push(agent);
  const url = await until("the agent to listen", () => {
    if (agent.child.exitCode !== null)
      throw new Error(`the agent exited:\n${agent.out.stderr}${agent.out.stdout}`);
    return /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(agent.out.stdout)?.[1];
  });
  return {
    ...agent,
    url,
    port: Number(new URL(url).port),
    opened: () => agent.out.stdout.match(/ opened$/gm)?.length ?? 0,
  };
}

/** A trial's outcome by task and replicate, with every call in order (without turn numbers). */
function calls(records: Record<string, unknown>[]) {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      (r.trajectory as { tool: string; args: unknown; ok: boolean }[]).map((c) => [c.tool, c.args, c.ok]),
    ]),
  );
}

const SHOP = ["--tasks", "6", "--replicates", "1", "--families", "needle,infeasible"];

describe("examples/a2a-agent stores what the policy stores natively", () => {
  it("the careful shopper, without a client (call for call) and for a client who says everything", async () => {
    const agent = await startAgent("sim-shop-careful");
    for (const client of [[], ["--client", "sim:complete"]]) {
      const dir = tempDir();
      const viaA2a = await runCli(
        ["run", "shop", ...SHOP, ...client, "--agent", `a2a:${agent.url}`, "--store", "a2a.db"],
        { cwd: dir },
      );
      expect(viaA2a.code, viaA2a.stderr).toBe(0);
      expect(viaA2a.stdout).toMatch(/6 of 6 trials stored/);
      const native = await runCli(
        ["run", "shop", ...SHOP, ...client, "--agent", "sim:careful", "--store", "native.db"],
        { cwd: dir },
      );
      expect(native.code, native.stderr).toBe(0);
      const a = await storedRecords(dir, "a2a.db");
      const n = await storedRecords(dir, "native.db");
      const fields = ["endReason", "booked", "success", "nonResponse", "steps"];
      expect(outcomes(a, fields)).toEqual(outcomes(n, fields));
      expect(calls(a)).toEqual(calls(n));
      expect(new Set(a.map((r) => r.endReason))).toEqual(new Set(["booked", "gave-up"]));
    }
    expect(agent.out.stderr).not.toMatch(/loopback-only: refused/);
    expect(agent.opened()).toBe(12);
  });

  it("a bargaining buyer: the linear tactic's deals, prices and turns", async () => {
    const agent = await startAgent("sim-bargain-linear");
    const dir = tempDir();
    const design = ["--scenarios", "6", "--replicates", "1", "--seller", "rule:boulware"];
    const viaA2a = await runCli(
      ["run", "bargain", ...design, "--buyer", `a2a:${agent.url}`, "--store", "a2a.db"],
      { cwd: dir },
    );
    expect(viaA2a.code, viaA2a.stderr).toBe(0);
    const native = await runCli(
      ["run", "bargain", ...design, "--buyer", "rule:linear", "--store", "native.db"],
      { cwd: dir },
    );
    expect(native.code, native.stderr).toBe(0);
    const fields = ["outcome", "dealPrice", "endedBy", "turns"];
    const a = await storedRecords(dir, "a2a.db");
    expect(a).toHaveLength(6);
    expect(outcomes(a, fields)).toEqual(outcomes(await storedRecords(dir, "native.db"), fields));
    expect(agent.out.stderr).not.toMatch(/loopback-only: refused/);
  });

  it("the asking shopper's questions reach the client as input-required turns; the conversation is the native one", async () => {
    const agent = await startAgent("sim-shop-asks-first");
    const dir = tempDir();
    const design = [...SHOP, "--client", "sim:terse,sim:partial"];
    const viaA2a = await runCli(
      ["run", "shop", ...design, "--agent", `a2a:${agent.url}`, "--store", "a2a.db"],
      { cwd: dir },
    );
    expect(viaA2a.code, viaA2a.stderr).toBe(0);
    const native = await runCli(
      ["run", "shop", ...design, "--agent", "sim:asks-first", "--store", "native.db"],
      { cwd: dir },
    );
    expect(native.code, native.stderr).toBe(0);
    const fields = ["endReason", "booked", "success", "conversation", "burden", "uncovered"];
    const byClient = (rs: Record<string, unknown>[], client: string) =>
      outcomes(
        rs.filter((r) => (r.client as { spec: string }).spec === client),
        fields,
      );
    const a = await storedRecords(dir, "a2a.db");
    const n = await storedRecords(dir, "native.db");
    expect(a).toHaveLength(12);
    for (const client of ["sim:terse", "sim:partial"])
      expect(byClient(a, client)).toEqual(byClient(n, client));
    // The questions went over A2A: the agent has no message_client tool, one task per episode.
    expect(agent.opened()).toBe(12);
    expect(a.some((r) => (r.burden as { messages: number }).messages >= 3)).toBe(true);
  });
});

describe("a2a: concurrency and leases", () => {
  it("the agent killed mid-run and started again: the same command completes every trial once", async () => {
    const first = await startAgent("sim-shop-careful");
    const dir = tempDir();
    const store = path.join(dir, "a2a.db");
    const args = [
      "run",
      "shop",
      "--tasks",
      "30",
      "--replicates",
      "1",
      "--agent",
      `a2a:${first.url}`,
      "--concurrency",
      "4",
      "--store",
      store,
      "--json",
    ];
    const run1 = start([BIN, ...args], { cwd: dir });
    await until("some trials stored", () => (storedTrials(store) >= 4 ? true : undefined));
    first.child.kill("SIGKILL");
    const r1 = await run1.done;
    expect(r1.code, r1.stderr).toBe(3);
    const s1 = JSON.parse(r1.stdout) as { stored: number; failed: number };
    expect(s1.failed).toBeGreaterThan(0);
    expect(s1.stored + s1.failed).toBe(30);
    const again = await startAgent("sim-shop-careful", first.port);
    const r2 = await runCli(args, { cwd: dir });
    expect(r2.code, r2.stderr).toBe(0);
    expect(JSON.parse(r2.stdout)).toMatchObject({ stored: 30, failed: 0, ranNow: 30 - s1.stored });
    expect(again.opened()).toBe(30 - s1.stored);
    const seqs = (await storedRecords(dir, "a2a.db")).map((r) => r.seq as number).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("bazaar killed mid-run, then the same command; two runners at once: every trial once", async () => {
    const agent = await startAgent("sim-shop-careful");
    const dir = tempDir();
    const store = path.join(dir, "a2a.db");
    const args = [
      "run",
      "shop",
      "--tasks",
      "30",
      "--replicates",
      "1",
      "--agent",
      `a2a:${agent.url}`,
      "--concurrency",
      "4",
      "--store",
      store,
      "--json",
    ];
    const killed = start([BIN, ...args], { cwd: dir });
    await until("some trials stored", () => (storedTrials(store) >= 4 ? true : undefined));
    killed.child.kill("SIGKILL");
    expect((await killed.done).signal).toBe("SIGKILL");
    const before = storedTrials(store);
    expect(before).toBeLessThan(30);
    const again = await runCli(args, { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ stored: 30, failed: 0, ranNow: 30 - before });

    // Two runners on a fresh run: together they play each trial once, and the agent hears each once.
    const two = path.join(dir, "two.db");
    const opened = agent.opened();
    const both = [
      "run",
      "shop",
      "--tasks",
      "24",
      "--replicates",
      "1",
      "--agent",
      `a2a:${agent.url}`,
      "--concurrency",
      "4",
      "--store",
      two,
      "--json",
    ];
    const [a, b] = await Promise.all([runCli(both, { cwd: dir }), runCli(both, { cwd: dir })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ran = [a, b].map((r) => (JSON.parse(r.stdout) as { ranNow: number }).ranNow);
    expect(ran[0]! + ran[1]!).toBe(24);
    expect(storedTrials(two)).toBe(24);
    expect(agent.opened() - opened).toBe(24);
  });
});
