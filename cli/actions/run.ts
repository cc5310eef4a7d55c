import { z } from "zod";
import { llmWorkerHost } from "../../agents/llm/host.ts";
import { poolSummaryLines } from "../../agents/llm/pool/summary.ts";
import { modelEndpointsOf, preflight } from "../../agents/llm/preflight.ts";
import { planWithA2a } from "../../agents/outside/a2a-agents.ts";
import type { LinkEpisode } from "../../agents/outside/waiting.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { failureOf } from "../../environments/kernel/failures.ts";
import {
  type ExecuteOptions,
  executeRun,
  type RunProgress,
  type RunResult,
} from "../../environments/runner/execute.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { executeSequential, type SequentialResult } from "../../environments/runner/sequential.ts";
import { clearStopRule, saveStopRule } from "../../environments/runner/stop-rules.ts";
import { Store } from "../../environments/store/index.ts";
import { runnerName } from "../../environments/store/live.ts";
import { ANALYZERS } from "../analyzers/index.ts";
import { EXIT } from "../exit.ts";
import { DeferredCache, llmContextFrom } from "../llm-context.ts";
import type { LlmOptions } from "../llm-options.ts";
import { parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import type { OutsideCliOptions } from "../outside-options.ts";
import { outsideSettings } from "../outside-settings.ts";
import { batchCostOf, costOf, loadPriceTable } from "../prices.ts";
import { ProgressLine } from "../progress.ts";
import type { CommonRunOptions, EnvironmentCli } from "../run/index.ts";
import { shownStore, storeFlag } from "../store-option.ts";
import { endpointSummaryLine } from "../tui/endpoints.ts";
import { endpointsOfRun } from "../tui/live/run-endpoints.ts";
import { type RunView, startRunView } from "../tui/live/run-view.ts";
import { spentLines } from "../tui/spent.ts";
import { causeLines, leftLine, notesOf, type RunNotes } from "./failure-lines.ts";
import { runSpent, spentByAgent } from "./runs.ts";

export interface RunOptions extends LlmOptions, OutsideCliOptions, CommonRunOptions {
  retryErrors?: boolean;
  limit?: string;
  store: string;
  concurrency: string;
  workers: string;
  json?: boolean;
  watch?: boolean;
  prices?: string;
  batch?: boolean;
  batchSize: string;
  leaseMs?: string;
  /** `--until` targets (an environment's run adds the option: cli/run/until.ts). */
  until?: string[];
}

const plural = (x: number, one: string, many = `${one}s`) =>
  `${x.toLocaleString("en-US")} ${x === 1 ? one : many}`;

function summary(result: RunResult, storePath: string, plan: RunPlan, notes: RunNotes): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const earlier = result.stored - result.ranNow - result.byOthers;
  const others =
    result.otherRunners > 0
      ? `, ${n(result.byOthers)} by ${n(result.otherRunners)} other runner${result.otherRunners === 1 ? "" : "s"} of the same run`
      : "";
  const pct = result.ranNow > 0 ? ` (${((100 * result.nonResponsesNow) / result.ranNow).toFixed(1)}%)` : "";
  const lines = [
    `run ${result.runId}: ${n(result.stored)} of ${n(plan.total)} trials stored (${n(result.ranNow)} this time${others}, ${n(earlier)} before)`,
    `agents: ${plan.agents.map((a) => a.label).join(", ")} · ${n(plan.tasks.length)} tasks × ${plan.replicates} replicate(s)`,
    `non-responses this time: ${n(result.nonResponsesNow)}${pct}${result.cutAtCapNow > 0 ? `, ${n(result.cutAtCapNow)} of them answers cut at the output cap (--max-tokens raises it)` : ""}`,
  ];
  if (notes.leftWithoutActing.length > 0)
    lines.push(
      `left without acting: ${leftLine(notes.leftWithoutActing)} — non-responses: each trial's MCP sessions took it and ended before a step, --max-abandons times in a row (--retry-errors plays them again)`,
    );
  lines.push(`store: ${shownStore(storePath)}`);
  if (result.failed > 0) {
    lines.push(
      `failed: ${plural(result.failed, "trial")} (${n(result.failedNow)} this time) — missing data, kept out of every estimate; run the same command again to re-run them. What failed:`,
    );
    lines.push(...causeLines(notes.failures));
  }
  if (result.target < plan.total && result.stored < plan.total && !result.interrupted) {
    lines.push(
      `${n(plan.total - result.stored)} trials remain: run the same command without --limit to finish`,
    );
  }
  return lines;
}

async function checkEndpoints(plan: RunPlan, timeoutMs: number | undefined): Promise<void> {
  try {
    await preflight(modelEndpointsOf(plan.agents, plan), {
      timeoutMs: Math.min(10_000, timeoutMs ?? 10_000),
    });
  } catch (err) {
    const f = failureOf(err);
    if (f) throw new UserError(f.message, f.hint);
    throw err;
  }
}

/**
 * What the run found, by the environment's own analysis with its default settings (the numbers
 * `bazaar analyze` prints), and the commands that go further.
 */
async function headlineOf(
  store: Store,
  plan: RunPlan,
  storePath: string,
): Promise<{ lines: string[]; json: unknown; next: { command: string; gives: string }[] } | null> {
  const analyzer = ANALYZERS.find((a) => a.env === plan.env.name);
  const run = store.getRun(plan.runId);
  if (!analyzer || !run) return null;
  const where = storeFlag(storePath);
  const next = [
    {
      command: `bazaar analyze ${plan.runId}${where}`,
      gives: "every estimate, as tables (--json: one document)",
    },
    {
      command: `bazaar analyze ${plan.runId}${where} --report out/`,
      gives: "a markdown report with SVG figures",
    },
    { command: `bazaar watch ${plan.runId}${where}`, gives: "step through the episodes" },
  ];
  try {
    const result = await (await analyzer.load()).analyze({
      run,
      store,
      records: () => trialRecords(store, plan.runId),
      options: {},
    });
    return { ...result.headline, next };
  } catch (err) {
    // Too few trials for an estimate is not a failed run: say so and point to the analysis.
    if (!(err instanceof UserError)) throw err;
    return { lines: [`no estimates yet: ${err.message}`], json: null, next };
  }
}

/** The run's `--until` targets, checked against the plan (UserError for what cannot be), or null. */
async function untilOf(plan: RunPlan, o: RunOptions, served: boolean) {
  if (!o.until || o.until.length === 0) return null;
  if (served)
    throw new UserError(
      "--until does not apply to `bazaar serve`: a served run plays its whole design",
      "drop --until, or run the agent with `bazaar run` (exec:, module:, a2a:) to stop it at a target",
    );
  if (o.limit !== undefined)
    throw new UserError(
      "--until and --limit both bound the run: --until stops each agent once its targets hold, --limit at a prefix of the design",
      "give one of them",
    );
  return (await import("../run/until-rule.ts")).untilRun(plan, o.until);
}

/**
 * Pauses of a model's circuit breaker in a row, with no call answered between, after which a run
 * stops: the endpoint is down, not flaky, and grinding on only adds failed trials.
 */
const PAUSES_BEFORE_STOPPING = 3;

/** What `bazaar serve` changes in a run: its agent waits for MCP sessions, which it admits trial by trial. */
export interface ServeHooks {
  /** Where `mcp:<name>` episodes go. */
  link: LinkEpisode;
  admit: NonNullable<ExecuteOptions["admit"]>;
  /** Told once the run is planned and before any trial starts: say where the agent connects. */
  ready(plan: RunPlan, left: number): Promise<void>;
  /**
   * Told after each pass over the run; true to pass again (failed trials are played by later
   * sessions: a server stays until its run is whole or it is stopped).
   */
  again(result: RunResult): Promise<boolean>;
}

/**
 * What a command that runs runs for others (`serve-assessor`) has of one: a signal that stops it (as
 * Ctrl-C does: what is stored stays, the same options resume it), and its progress in place of the
 * terminal's progress line.
 */
export interface RunObserver {
  signal?: AbortSignal;
  onProgress?(p: RunProgress): void;
}

/** How a run ended, for a caller that does more with it than print it. */
export interface RunEnded {
  plan: RunPlan;
  result: RunResult;
  /** The headline the summary printed (null when the run was interrupted or stored nothing). */
  headline: Awaited<ReturnType<typeof headlineOf>>;
}

/** `bazaar run <env>`: plans the run, checks the endpoints, runs it into the store and reports. */
export async function runEnvironment(
  envCli: EnvironmentCli,
  o: RunOptions,
  out: Output,
  serve?: ServeHooks,
  observer?: RunObserver,
): Promise<RunEnded> {
  const cache = new DeferredCache();
  const llm = llmContextFrom(o, cache);
  let retries = 0;
  let view: RunView | null = null;
  const controller = new AbortController();
  let stoppedBy: string | null = null;
  llm.events = {
    onRetry: ({ model }) => {
      retries++;
      view?.retry(model);
    },
    onBreakerOpen: ({ model, reason, untilMs, inARow }) => {
      if ((inARow ?? 0) >= PAUSES_BEFORE_STOPPING) {
        stoppedBy ??= `model ${model} answered nothing through ${inARow} pauses of its circuit breaker (last: ${reason})`;
        controller.abort();
        return;
      }
      const message = `model ${model} paused for ${Math.round((untilMs - Date.now()) / 1000)} s: ${reason}`;
      if (view) view.error(message);
      else out.error(message);
    },
  };
  const { outsideResolver } = await import("../../agents/outside/registry.ts");
  const outside = outsideSettings(o);
  llm.outside = outsideResolver({ ...outside, ...(serve ? { serve: serve.link } : {}) });
  const planner = await envCli.planner();
  // `a2a:` agents' cards are read between two planning passes (their identity is their card's).
  const plan = await planWithA2a(outside.a2a, () => planner(o, llm));
  // --until: the targets are checked here, before anything is stored (cli/run/until-rule.ts).
  const until = await untilOf(plan, o, serve !== undefined);
  // Said once: a setting the user asked for that a model does not take (never dropped silently).
  for (const note of llm.notes ?? []) out.error(note);
  // A wrong key, model or endpoint stops the run here: before the store exists, before any trial.
  if (o.preflight) await checkEndpoints(plan, llm.settings.timeoutMs);
  // --batch: the provider's batch API (its code loads only then: it brings the OpenAI client).
  const batching = o.batch ? await import("./run-batch.ts") : null;
  const batchSize = batching?.batchSizeOf(o) ?? null;
  if (batching && o.preflight) await batching.checkBatchApi(plan);
  const limit = o.limit === undefined ? undefined : parseOption("limit", positiveInt, o.limit);
  const concurrency = parseOption("concurrency", z.coerce.number().int().min(1).max(4096), o.concurrency);
  const workers =
    o.workers === "auto" ? "auto" : parseOption("workers", z.coerce.number().int().min(0).max(64), o.workers);
  const prices = o.prices ? loadPriceTable(o.prices) : undefined;
  const store = Store.open(o.store, { create: true });
  cache.target = store.responseCache();
  if (until) {
    // Recorded before any trial, so `analyze` reports the targets of a run stopped half-way too.
    store.ensureRun(
      { id: plan.runId, env: plan.env.name, config: plan.config, total: plan.total },
      plan.tasks,
    );
    saveStopRule(store, plan.runId, until.stored);
  } else clearStopRule(store, plan.runId);
  if (o.retryErrors) {
    const n = store.deleteAgentErrorTrials(plan.runId);
    out.error(`retrying ${n} trial${n === 1 ? "" : "s"} whose agent failed`);
  }
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigint);
  if (observer?.signal?.aborted) controller.abort();
  observer?.signal?.addEventListener("abort", onSigint, { once: true });
  // --until: the progress line and the live view read the rule's last look (the design is only a bound).
  const untilView = until?.live(store);
  const progress = new ProgressLine(undefined, undefined, untilView);
  // The run's model endpoints and their limiters, polled like the runner's counts (none in a batch run).
  const endpoints = batching ? null : endpointsOfRun(plan.agents);
  // --watch: the dashboard of cli/tui on a terminal, plain progress lines (stderr) otherwise.
  view = o.watch
    ? await startRunView({
        plan,
        ...(untilView ? { until: untilView } : {}),
        target: Math.min(plan.total, limit ?? plan.total),
        storedByAgent: new Map(store.usageByAgent(plan.runId).map((a) => [a.agent, a.trials])),
        stdout: process.stdout,
        stdin: process.stdin,
        log: (line) => out.error(line),
        // A batch run sends every model call of this process in batches: the cost so far at batch rates.
        costOf: prices
          ? (agent, usage) => (batching ? batchCostOf : costOf)(agent, usage, prices)
          : undefined,
        ...(endpoints ? { endpoints } : {}),
        onStop: () => controller.abort(),
      })
    : null;
  let watched = false;
  const batch =
    batching === null
      ? null
      : // The dashboard has no place for them yet: the lines go to stderr without one.
        batching.startBatchRun(store, plan.runId, cache, (line) => {
          if (!view) out.error(line);
        });
  // One name for every pass of this command over the run (serve passes again over failed trials).
  const runner = runnerName();
  try {
    const live = view;
    const options = (): ExecuteOptions => ({
      limit,
      concurrency: batchSize ?? concurrency,
      hostAgents: batch?.hostAgents ?? llmWorkerHost(workers),
      signal: controller.signal,
      onProgress: (p) =>
        observer?.onProgress ? observer.onProgress(p) : live ? live.onProgress(p) : progress.update(p),
      onTrial: live ? (record) => live.onTrial(record) : undefined,
      onEpisode: live ? live.episodes : undefined,
      leaseMs: o.leaseMs === undefined ? undefined : parseOption("lease-ms", positiveInt, o.leaseMs),
      ...(serve ? { admit: serve.admit } : {}),
      runner,
    });
    // A line per look on a terminal, so a long --until run shows how near its targets are (nothing
    // on a pipe or under --json or --watch: the summary says where it stopped).
    const lookNote =
      !o.json && !o.watch && process.stderr.isTTY
        ? (line: string) => {
            progress.end();
            out.error(line);
          }
        : undefined;
    // A run that stops itself plays its design's units in blocks (environments/runner/sequential.ts).
    const execute = (): Promise<RunResult | SequentialResult> =>
      until
        ? executeSequential(plan, store, options(), until.rule(store, lookNote))
        : executeRun(plan, store, options());
    if (serve) {
      const target = Math.min(plan.total, limit ?? plan.total);
      const done = store.doneSeqs(plan.runId, plan.total);
      let left = 0;
      for (let i = 0; i < target; i++) left += 1 - done[i]!;
      await serve.ready(plan, left);
    }
    let result = await execute();
    // A server passes again over what failed (a session that went away): later sessions play it.
    while (serve && !result.interrupted && !controller.signal.aborted && (await serve.again(result))) {
      const before = result;
      const pass = await execute();
      result = {
        ...pass,
        ranNow: before.ranNow + pass.ranNow,
        nonResponsesNow: before.nonResponsesNow + pass.nonResponsesNow,
        cutAtCapNow: before.cutAtCapNow + pass.cutAtCapNow,
        failedNow: before.failedNow + pass.failedNow,
      };
    }
    watched = true;
    await live?.finish(result);
    progress.end();
    const ending = result.interrupted || result.stored === 0 ? null : await headlineOf(store, plan, o.store);
    const batched = batch ? batching!.batchSummary(batch.counts(), store, plan.runId, prices) : null;
    const notes = notesOf(store, plan.runId);
    // Tokens and dollars of the whole run, per LLM agent (cli/actions/runs.ts, as `bazaar runs`).
    const spent = spentByAgent(store, plan.runId, prices);
    const limits = (endpoints?.() ?? []).filter((e) => e.requests > 0);
    if (o.json)
      printJson(out, {
        ...result,
        ...notes,
        retries,
        ...(batched ? { batch: batched.json } : {}),
        spent: { ...runSpent(spent, prices !== undefined), agents: spent },
        ...(limits.length > 0 ? { endpoints: limits } : {}),
        ...(until && "agents" in result ? { until: until.json(result) } : {}),
        total: plan.total,
        store: shownStore(o.store),
        ...(ending ? { headline: ending.json, next: ending.next } : {}),
      });
    else {
      const n = (x: number) => x.toLocaleString("en-US");
      for (const line of summary(result, o.store, plan, notes)) out.log(line);
      if (until && "agents" in result) for (const line of until.summaryLines(result)) out.log(line);
      if (retries > 0) out.log(`model retries this time: ${retries}`);
      // Endpoint pools (--base-url a,b,c): one line per replica (agents/llm/pool/summary.ts).
      for (const line of poolSummaryLines(plan.agents)) out.log(line);
      for (const line of spentLines(spent, prices !== undefined)) out.log(line);
      for (const e of limits) out.log(endpointSummaryLine(e));
      for (const line of batched?.lines ?? []) out.log(line);
      if (ending) {
        out.log("");
        if (result.stored < plan.total)
          out.log(`estimates from the ${n(result.stored)} of ${n(plan.total)} trials stored so far:`);
        for (const line of ending.lines) out.log(line);
        out.log("");
        out.log("next:");
        const width = Math.max(...ending.next.map((n) => n.command.length));
        for (const n of ending.next) out.log(`  ${n.command.padEnd(width)}  ${n.gives}`);
      }
    }
    const failedLine = () =>
      `${result.failed.toLocaleString("en-US")} trial${result.failed === 1 ? "" : "s"} of the run failed (missing data, in no estimate); the same command runs ${result.failed === 1 ? "it" : "them"} again`;
    if (stoppedBy) {
      out.error(
        `stopped: ${stoppedBy}; ${result.stored} of ${result.target} trials are stored${result.failed > 0 ? `, ${failedLine()}` : ""} — run the same command again once the endpoint answers`,
      );
      process.exitCode = EXIT.incomplete;
    } else if (result.interrupted) {
      out.error(
        `interrupted: ${result.stored} of ${result.target} trials are stored; run the same command again to resume`,
      );
      process.exitCode = EXIT.interrupted;
    } else if (result.failed > 0) {
      // Not whole: exit 0 only when every trial the command asked for is stored.
      out.error(failedLine());
      process.exitCode = EXIT.incomplete;
    }
    return { plan, result, headline: ending };
  } catch (err) {
    if (view && !watched) await view.finish(null, err);
    throw err;
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    observer?.signal?.removeEventListener("abort", onSigint);
    store.close();
  }
}
