import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { llmWorkerHost } from "../../agents/llm/host.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { executeRun, type RunResult } from "../../environments/runner/execute.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import { SqliteStore } from "../../environments/store/index.ts";
import { addLlmOptions, DeferredCache, type LlmOptions, llmContextFrom } from "../llm-options.ts";
import { parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import { costOf, loadPriceTable } from "../prices.ts";
import { ProgressLine } from "../progress.ts";
import { type CommonRunOptions, ENVIRONMENT_CLIS, type EnvironmentCli } from "../run/index.ts";
import { type RunView, startRunView } from "../tui/live/run-view.ts";

interface RunOptions extends LlmOptions, CommonRunOptions {
  retryErrors?: boolean;
  limit?: string;
  store: string;
  concurrency: string;
  workers: string;
  json?: boolean;
  watch?: boolean;
  prices?: string;
}

function camelCase(flag: string): string {
  return flag.replace(/^--/, "").replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The environment named on the command line, refusing options that belong to another one. */
function environmentCli(name: string, given: Record<string, unknown>): EnvironmentCli {
  const cli = ENVIRONMENT_CLIS.find((e) => e.name === name);
  if (!cli) {
    throw new UserError(
      `unknown environment "${name}"`,
      `valid environments: ${ENVIRONMENT_CLIS.map((e) => e.name).join(", ")}`,
    );
  }
  for (const other of ENVIRONMENT_CLIS) {
    if (other === cli) continue;
    // A flag two environments both own (`--pairs`) means what the named environment says it means.
    const stray = other.ownOptions.find(
      (flag) => !cli.ownOptions.includes(flag) && given[camelCase(flag)] !== undefined,
    );
    if (stray) throw new UserError(`${stray} is an option of \`run ${other.name}\`, not of \`run ${name}\``);
  }
  return cli;
}

function summary(result: RunResult, storePath: string, plan: RunPlan): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const earlier = result.stored - result.ranNow;
  const pct = result.ranNow > 0 ? ` (${((100 * result.nonResponsesNow) / result.ranNow).toFixed(1)}%)` : "";
  const lines = [
    `run ${result.runId}: ${n(result.stored)} of ${n(plan.total)} trials stored (${n(result.ranNow)} this time, ${n(earlier)} before)`,
    `agents: ${plan.agents.map((a) => a.label).join(", ")} · ${n(plan.tasks.length)} tasks × ${plan.replicates} replicate(s)`,
    `non-responses this time: ${n(result.nonResponsesNow)}${pct}`,
    `store: ${path.resolve(storePath)}`,
  ];
  if (result.stored < plan.total && !result.interrupted) {
    lines.push(
      `${n(plan.total - result.stored)} trials remain: run the same command without --limit to finish`,
    );
  }
  return lines;
}

export function registerRun(program: Command, out: Output): void {
  const cmd = program
    .command("run")
    .description("run an experiment and store every trial (resumes an interrupted run)")
    .argument(
      "<environment>",
      `the episode kind: ${ENVIRONMENT_CLIS.map((e) => `${e.name} (${e.summary})`).join("; ")}`,
    )
    .option("--agent <specs>", "comma-separated agents, e.g. sim:steep,openai:gpt-4o-mini")
    .option("--replicates <n>", "repetitions of every task per agent", "1")
    .option("--limit <n>", "run only the first n trials of the design (a quick try)")
    .option("--seed <seed>", "design seed (number or text)")
    .option("--store <file>", "SQLite store file", "bazaar.db")
    .option("--concurrency <n>", "trials in flight at once", "8")
    .option(
      "--workers <n>",
      "worker threads for LLM agents' turns: 0 (all in one thread), n, or auto (one per spare core on 4+ cores when a run is CPU-bound; not measured faster on 2 cores)",
      "0",
    )
    .option("--max-reasks <n>", "re-asks after an unusable answer before it is a non-response", "2")
    .option("--retry-errors", "first delete this run's trials whose agent failed, so they run again")
    .option("--json", "print the result as JSON")
    .option("--watch", "live dashboard on a terminal; plain progress lines when output is not a terminal")
    .option("--prices <file>", "price table JSON for the dollar cost --watch shows (see `bazaar runs`)");
  for (const e of ENVIRONMENT_CLIS) e.addOptions(cmd);
  addLlmOptions(cmd).action(async (env: string, o: RunOptions) => {
    const envCli = environmentCli(env, o);
    const cache = new DeferredCache();
    const llm = llmContextFrom(o, cache);
    let retries = 0;
    let view: RunView | null = null;
    llm.events = {
      onRetry: ({ model }) => {
        retries++;
        view?.retry(model);
      },
      onBreakerOpen: ({ model, reason, untilMs }) => {
        const message = `model ${model} paused for ${Math.round((untilMs - Date.now()) / 1000)} s: ${reason}`;
        if (view) view.error(message);
        else out.error(message);
      },
    };
    const plan = envCli.plan(o, llm);
    const limit = o.limit === undefined ? undefined : parseOption("limit", positiveInt, o.limit);
    const concurrency = parseOption("concurrency", z.coerce.number().int().min(1).max(4096), o.concurrency);
    const workers =
      o.workers === "auto"
        ? "auto"
        : parseOption("workers", z.coerce.number().int().min(0).max(64), o.workers);
    const prices = o.watch && o.prices ? loadPriceTable(o.prices) : undefined;
    const store = SqliteStore.open(o.store, { create: true });
    cache.target = store.responseCache();
    if (o.retryErrors) {
      const n = store.deleteAgentErrorTrials(plan.runId);
      out.error(`retrying ${n} trial${n === 1 ? "" : "s"} whose agent failed`);
    }
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once("SIGINT", onSigint);
    process.once("SIGTERM", onSigint);
    const progress = new ProgressLine();
    // --watch: the dashboard of cli/tui on a terminal, plain progress lines (stderr) otherwise.
    view = o.watch
      ? await startRunView({
          plan,
          target: Math.min(plan.total, limit ?? plan.total),
          storedByAgent: new Map(store.usageByAgent(plan.runId).map((a) => [a.agent, a.trials])),
          stdout: process.stdout,
          stdin: process.stdin,
          log: (line) => out.error(line),
          costOf: prices ? (agent, usage) => costOf(agent, usage, prices) : undefined,
          onStop: () => controller.abort(),
        })
      : null;
    let watched = false;
    try {
      const live = view;
      const result = await executeRun(plan, store, {
        limit,
        concurrency,
        hostAgents: llmWorkerHost(workers),
        signal: controller.signal,
        onProgress: (p) => (live ? live.onProgress(p) : progress.update(p)),
        onTrial: live ? (record) => live.onTrial(record) : undefined,
      });
      watched = true;
      await live?.finish(result);
      progress.end();
      if (o.json) printJson(out, { ...result, retries, total: plan.total, store: path.resolve(o.store) });
      else for (const line of summary(result, o.store, plan)) out.log(line);
      if (!o.json && retries > 0) out.log(`model retries this time: ${retries}`);
      if (result.interrupted) {
        out.error(
          `interrupted: ${result.stored} of ${result.target} trials are stored; run the same command again to resume`,
        );
        process.exitCode = 130;
      }
    } catch (err) {
      if (view && !watched) await view.finish(null, err);
      throw err;
    } finally {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigint);
      store.close();
    }
  });
}
