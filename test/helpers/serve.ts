/** Starting `bazaar serve`, playing it through MCP, and the same policy natively: for the serve tests. */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Command } from "commander";
import { outsideResolver } from "../../agents/outside/registry.ts";
import type { OutsideResolver } from "../../agents/outside/types.ts";
import { addSharedOptions } from "../../cli/commands/run.ts";
import { ENVIRONMENT_CLIS } from "../../cli/run/index.ts";
import { planMarket } from "../../cli/run/market-plan.ts";
import { planShop } from "../../cli/run/shop-plan.ts";
import { surfaceOf } from "../../environments/kernel/surface.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import { runMarket } from "../../environments/market/driver.ts";
import { environmentNamed } from "../../environments/registry.ts";
import { executeRun } from "../../environments/runner/execute.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { Reseeded } from "../fixtures/serve/reseeded.ts";
import { BIN, type CliResult, REPO_ROOT, tempDir } from "./cli.ts";

const SIM_CLIENT = path.join(REPO_ROOT, "test/fixtures/serve/sim-client.ts");

interface Served {
  url: string;
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Starts `bazaar serve …` and waits (with a deadline) for the line that says where it listens. */
export async function startServe(args: string[], cwd: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", ...args, "--port", "0"], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
    if (url) return { url, child, done };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`serve did not start:\n${stderr}${stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The simulated policy played through MCP, looping over sessions until the run is complete. */
export function playThroughMcp(url: string, env: string, role: string, spec: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SIM_CLIENT, url, env, role, spec], {
      cwd: REPO_ROOT,
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

/** The same policy played natively, in process: the run's planner with the policy reseeded as the client seeds it. */
export async function playNatively(env: string, role: string, args: string[], dir: string) {
  const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env)!;
  const cmd = addSharedOptions((await envCli.options())(new Command()).exitOverride());
  cmd.parse(args, { from: "user" });
  const o = cmd.opts();
  const plan = (await envCli.planner())(o, { settings: {} });
  const surface = surfaceOf(environmentNamed(env), role);
  const agents = plan.agents.map((a) => ({
    ...a,
    players: {
      ...a.players,
      [role]: new Reseeded(a.players[role] as Agent<unknown, unknown>, surface),
    },
  }));
  const store = Store.open(path.join(dir, "native.db"), { create: true });
  try {
    await executeRun({ ...plan, agents }, store, {
      limit: Number(o.limit),
      concurrency: 4,
      liveTurns: false,
    });
    return [...trialRecords(store, plan.runId)];
  } finally {
    store.close();
  }
}

export async function storedRecords(dir: string, file: string) {
  const store = Store.open(path.join(dir, file), { create: false });
  try {
    const [run] = store.listRuns();
    return [...trialRecords(store, run!.id)];
  } finally {
    store.close();
  }
}

/** What an outcome is, without how many agent messages it took (a parallel shopper's one message is several MCP calls). */
export function outcomes(records: Record<string, unknown>[], fields: string[]): Map<string, unknown> {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      Object.fromEntries(
        fields.map((f) => [f, f === "booked" ? ((r.booked as { id?: string } | null)?.id ?? null) : r[f]]),
      ),
    ]),
  );
}

/** One MCP client session on the server's endpoint. */
export async function session(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export type ToolResult = { content: { text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
export const textOf = (r: unknown) => (r as ToolResult).content.map((c) => c.text).join("\n");

/** One equivalence case: a policy played through `serve` and natively on the same design. */
export interface EquivalenceCase {
  env: string;
  role: string;
  spec: string;
  design: string[];
  /** The outcome fields that must agree task by task. */
  fields: string[];
}

/** Plays `c` through serve and natively; the stored outcomes of both, task by task, and the server's end. */
export async function playBothWays(c: EquivalenceCase) {
  const dir = tempDir();
  const roleArgs = c.env === "bargain" ? ["--role", c.role] : [];
  const served = await startServe(
    [c.env, "--agent-name", "sim-policy", ...roleArgs, ...c.design, "--store", "served.db"],
    dir,
  );
  const client = await playThroughMcp(served.url, c.env, c.role, c.spec);
  const result = await served.done;
  const slot = c.env === "bargain" ? `--${c.role}` : "--agent";
  const native = await playNatively(c.env, c.role, [...c.design, slot, c.spec], dir);
  const mcp = await storedRecords(dir, "served.db");
  return {
    client,
    result,
    count: { mcp: mcp.length, native: native.length },
    mcp: outcomes(mcp, c.fields),
    native: outcomes(native, c.fields),
  };
}

// ——— sellers from outside: the same run with the served slot played natively ———

/** The spec of the agent `playBothWays` and the seller cases serve (`--agent-name sim-policy`). */
export const SERVED_SPEC = "mcp:sim-policy";

/**
 * The plan's resolver with one outside slot played natively by `agent`: the spec resolves to the
 * identity it has from outside (so the run, its trial keys and every seed are the same), the
 * player swapped. The served run and its twin then differ only in who plays that slot.
 */
export function nativeTwin(spec: string, agent: Agent<unknown, unknown>): OutsideResolver {
  const real = outsideResolver({ episodeTimeoutMs: 0, serve: () => {}, cwd: REPO_ROOT });
  return (s, env, role) => {
    const p = real(s, env, role);
    return p && s === spec ? { ...p, agent } : p;
  };
}

/** `args` as `run <env>` parses them (its own options and the shared ones). */
async function parsedRunOptions(env: string, args: string[]): Promise<Record<string, unknown>> {
  const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env)!;
  const cmd = addSharedOptions((await envCli.options())(new Command()).exitOverride());
  cmd.parse(args, { from: "user" });
  return cmd.opts();
}

/**
 * A shop or market run planned from `args` (the served run's, with the served slot's option naming
 * `spec`) and played in process with `spec`'s slot played natively by `agent`: its records by run.
 */
export async function playTwin(
  env: "shop" | "market",
  args: string[],
  spec: string,
  agent: Agent<unknown, unknown>,
  dir: string,
): Promise<Map<string, Record<string, unknown>[]>> {
  const o = await parsedRunOptions(env, args);
  const llm = { settings: {}, outside: nativeTwin(spec, agent) };
  const store = Store.open(path.join(dir, "twin.db"), { create: true });
  try {
    if (env === "market") await runMarket(planMarket(o, llm), store, { concurrency: 4, liveTurns: false });
    else {
      const plan = planShop(o, llm);
      const limit = o.limit === undefined ? undefined : Number(o.limit);
      await executeRun(plan, store, { limit, concurrency: 4, liveTurns: false });
    }
  } finally {
    store.close();
  }
  return recordsByRun(dir, "twin.db");
}

/** Every run's records in a store, by run id. */
export function recordsByRun(dir: string, file: string): Map<string, Record<string, unknown>[]> {
  const store = Store.open(path.join(dir, file), { create: false });
  try {
    return new Map(store.listRuns().map((r) => [r.id, [...trialRecords(store, r.id)]]));
  } finally {
    store.close();
  }
}

/**
 * What a seller's play decides, per run and task: for shop episodes the booking, the price paid
 * and each negotiation's moves (with what each side said unless `talk` is false: an `exec:`
 * fixture words its moves its own way); for a market's seller turns the action and the listing after.
 */
export function sellerOutcomes(
  byRun: Map<string, Record<string, unknown>[]>,
  talk = true,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [run, records] of byRun)
    for (const r of records)
      out[`${run}/${r.taskId}/${r.replicate}`] =
        r.env === "market"
          ? {
              player: r.player,
              action: r.action,
              endReason: r.endReason,
              price: r.price,
              description: r.description,
            }
          : {
              endReason: r.endReason,
              booked: (r.booked as { id?: string } | null)?.id ?? null,
              paid: r.paid,
              negotiations: (r.negotiations as Record<string, unknown>[] | undefined)?.map((n) => ({
                ...n,
                offers: (n.offers as Record<string, unknown>[]).map(({ message, ...o }) =>
                  talk ? { ...o, message } : o,
                ),
              })),
            };
  return out;
}
