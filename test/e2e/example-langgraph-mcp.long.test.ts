/**
 * examples/langgraph-mcp: the LangGraph agent on `@langchain/mcp-adapters`, its model serve-sim's
 * careful shopper, plays every trial of `bazaar serve shop` (one MCP session an episode, until the
 * server says the run is complete), and the store holds what the careful shopper stores natively.
 * The design's tasks (needles and infeasible ones) have one right answer each, so the outcomes do not
 * hang on how the simulated model is seeded. Runs the compiled CLI: `npm run build` first.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { BIN, REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";
import { startNode } from "../helpers/process.ts";

const AGENT = path.join(REPO_ROOT, "examples/langgraph-mcp/agent.ts");
/** How long any one process may take before the test gives up on it (a loaded 2-core machine). */
const DEADLINE_MS = 60_000;
const DESIGN = ["--limit", "3", "--replicates", "1", "--families", "needle,infeasible"];

/** Starts a process, collecting its output; killed if it outlives the deadline. */
function start(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return startNode(args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, deadlineMs: DEADLINE_MS });
}

/** `bazaar serve …` on a free port, and the URL it prints once it listens. */
async function startServe(args: string[], cwd: string) {
  const served = start([BIN, "serve", ...args, "--port", "0"], { cwd });
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(served.out.stderr)?.[1];
    if (url) return { ...served, url };
    if (served.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`serve did not start:\n${served.out.stderr}${served.out.stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function storedRecords(file: string) {
  const store = Store.open(file, { create: false });
  try {
    const [run] = store.listRuns();
    return [...trialRecords(store, run!.id)];
  } finally {
    store.close();
  }
}

/** A trial's outcome by task and replicate, as the shop stores it. */
function outcomes(records: Record<string, unknown>[]) {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      {
        endReason: r.endReason,
        booked: (r.booked as { id?: string } | null)?.id ?? null,
        success: r.success,
        nonResponse: r.nonResponse,
      },
    ]),
  );
}

describe("examples/langgraph-mcp against bazaar serve shop and serve-sim", () => {
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    sim = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it("plays every trial as mcp:<name> and stores the careful shopper's outcomes", async () => {
    const dir = tempDir();
    const served = await startServe(
      ["shop", "--agent-name", "langgraph", ...DESIGN, "--store", "served.db"],
      dir,
    );
    const agent = await start(
      ["--import", "tsx", AGENT, "--url", served.url, "--model", "sim-shop-careful", "--base-url", sim.url],
      // serve-sim takes any key; no tracing (the only network is loopback).
      {
        cwd: REPO_ROOT,
        env: { OPENAI_API_KEY: "sk-sim", LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false" },
      },
    ).done;
    const result = await served.done;
    expect(agent.code, agent.stderr + agent.stdout).toBe(0);
    expect(agent.stdout).toMatch(/^done: 3 episodes played; /m);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/3 of \d+ trials stored/);
    expect(result.stdout).toMatch(/agents: mcp:langgraph/);

    const mcp = storedRecords(path.join(dir, "served.db"));
    expect(mcp).toHaveLength(3);
    for (const r of mcp) expect(r.agent).toBe("mcp:langgraph");
    const native = await runCli(
      ["run", "shop", "--agent", "sim:careful", ...DESIGN, "--store", "native.db"],
      {
        cwd: dir,
      },
    );
    expect(native.code, native.stderr).toBe(0);
    const want = outcomes(storedRecords(path.join(dir, "native.db")));
    expect(outcomes(mcp)).toEqual(want);
    // Both kinds of ending are in the design: a booking and a correct give-up.
    expect(new Set([...want.values()].map((o) => o.endReason))).toEqual(new Set(["booked", "gave-up"]));
  });
});
