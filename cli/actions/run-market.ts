import { z } from "zod";
import type { BatchCounts, BatchHost } from "../../agents/llm/batch/index.ts";
import { llmWorkerHost } from "../../agents/llm/host.ts";
import { modelEndpointsOf, preflight } from "../../agents/llm/preflight.ts";
import { planWithA2a } from "../../agents/outside/a2a-agents.ts";
import type { LinkEpisode } from "../../agents/outside/waiting.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { failureOf } from "../../environments/kernel/failures.ts";
import {
  type MarketPartEvent,
  type MarketRunOptions,
  type MarketRunPlan,
  type MarketRunResult,
  runMarket,
} from "../../environments/market/driver.ts";
import type { RunResult } from "../../environments/runner/execute.ts";
import type { RunPlan } from "../../environments/runner/plan.ts";
import { Store } from "../../environments/store/index.ts";
import { runnerName } from "../../environments/store/live.ts";
import { getMarket } from "../../environments/store/markets.ts";
import { analyzeMarketRuns, marketHeadline } from "../analyzers/market.ts";
import { EXIT } from "../exit.ts";
import { DeferredCache, llmContextFrom } from "../llm-context.ts";
import type { LlmOptions } from "../llm-options.ts";
import { parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import type { OutsideCliOptions } from "../outside-options.ts";
import { outsideSettings } from "../outside-settings.ts";
import { ProgressLine } from "../progress.ts";
import { planMarket } from "../run/market-plan.ts";
import type { CommonRunOptions } from "../run/types.ts";
import { shownStore, storeFlag } from "../store-option.ts";
import { type RunView, startRunView } from "../tui/live/run-view.ts";

/** The shared run options a market reads (`cli/commands/run.ts` defines them). */
interface RunOptions extends LlmOptions, OutsideCliOptions, CommonRunOptions {
  retryErrors?: boolean;
  limit?: string;
  store: string;
  concurrency: string;
  workers: string;
  json?: boolean;
  watch?: boolean;
  batch?: boolean;
  batchSize: string;
  leaseMs?: string;
}

const n = (x: number) => x.toLocaleString("en-US");

/** The options of `run` that a market refuses, and what to do instead. */
function refuseUnsupported(o: RunOptions): void {
  if (o.limit !== undefined)
    throw new UserError(
      "--limit does not apply to market runs (a round needs all its buyer episodes before the sellers act)",
      "for a quick try use fewer rounds, sellers or buyers: --rounds 2 --buyers-per-round 20",
    );
  if (o.retryErrors)
    throw new UserError(
      "--retry-errors does not apply to market runs (a later round was built on what those trials stored)",
      "failed trials (timeouts, 5xx) are always run again by the same command",
    );
}

function sumCounts(all: readonly BatchCounts[]): BatchCounts {
  const out: BatchCounts = { submitted: 0, requests: 0, resumed: 0, answered: 0, failed: 0 };
  for (const c of all) for (const k of Object.keys(out) as (keyof BatchCounts)[]) out[k] += c[k];
  return out;
}

/** One line for a round's parts: what ran this time, and what was stored before. */
function roundLine(parts: readonly MarketPartEvent[], rounds: number): string {
  const what = parts.map((e) => {
    const kind = e.part === "buyers" ? "buyer episodes" : "seller turns";
    return `${n(e.plan.total)} ${kind} (${e.plan.agents[0]!.label})`;
  });
  const ran = parts.reduce((s, e) => s + (e.result?.ranNow ?? 0), 0);
  const non = parts.reduce((s, e) => s + (e.result?.nonResponsesNow ?? 0), 0);
  const failed = parts.reduce((s, e) => s + (e.result?.failedNow ?? 0), 0);
  const did = parts.every((e) => e.result === null)
    ? "stored before"
    : `${n(ran)} this time${non > 0 ? `, ${n(non)} non-responses` : ""}${failed > 0 ? `, ${n(failed)} failed` : ""}`;
  return `round ${parts[0]!.round}/${rounds}: ${what.join(", ")}: ${did}`;
}

/**
 * What `bazaar serve market` changes in a market: the adopters' seller waits for MCP sessions (one a
 * seller turn), and a part whose turns failed (a session that went away) is passed over again.
 */
export interface MarketServeHooks {
  /** Where `mcp:<name>` seller turns go. */
  link: LinkEpisode;
  /** Told once the market is planned, before any round runs: say where the agent connects. */
  ready(marketId: string, adopterTurns: number): Promise<void>;
  again(result: RunResult): Promise<boolean>;
}

/** The adopters' seller turns of a whole market: each round, each adopter of each market. */
function adopterTurns(plan: MarketRunPlan): number {
  const d = plan.design;
  return d.rounds * d.markets * d.adopters.reduce((s, k) => s + k, 0);
}

/** `bazaar run market`: the market driver over rounds of runs, with progress lines and the headline. */
export async function runMarketCommand(
  options: CommonRunOptions,
  out: Output,
  serve?: MarketServeHooks,
): Promise<void> {
  const o = options as RunOptions;
  refuseUnsupported(o);
  const cache = new DeferredCache();
  const llm = llmContextFrom(o, cache);
  const controller = new AbortController();
  let stoppedBy: string | null = null;
  let retries = 0;
  llm.events = {
    onRetry: () => {
      retries++;
    },
    onBreakerOpen: ({ model, reason, untilMs, inARow }) => {
      if ((inARow ?? 0) >= 3) {
        stoppedBy ??= `model ${model} answered nothing through ${inARow} pauses of its circuit breaker (last: ${reason})`;
        controller.abort();
        return;
      }
      out.error(`model ${model} paused for ${Math.round((untilMs - Date.now()) / 1000)} s: ${reason}`);
    },
  };
  const { outsideResolver } = await import("../../agents/outside/registry.ts");
  const outside = outsideSettings(o);
  llm.outside = outsideResolver({ ...outside, ...(serve ? { serve: serve.link } : {}) });
  // `a2a:` agents' cards are read between two planning passes (their identity is their card's).
  const plan = await planWithA2a(outside.a2a, () => planMarket(o, llm));
  for (const note of llm.notes ?? []) out.error(note);
  if (o.preflight) {
    try {
      await preflight(modelEndpointsOf([plan.buyer, plan.adopter, plan.static]), {
        timeoutMs: Math.min(10_000, llm.settings.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const f = failureOf(err);
      if (f) throw new UserError(f.message, f.hint);
      throw err;
    }
  }
  // --batch: each round's runs through the provider's batch API (a batch host per run).
  const batching = o.batch ? await import("./run-batch.ts") : null;
  const batchSize = batching?.batchSizeOf(o) ?? null;
  if (batching && o.preflight)
    await batching.checkBatchApi({ agents: [plan.buyer, plan.adopter, plan.static] } as unknown as RunPlan);
  const concurrency = parseOption("concurrency", z.coerce.number().int().min(1).max(4096), o.concurrency);
  const workers =
    o.workers === "auto" ? "auto" : parseOption("workers", z.coerce.number().int().min(0).max(64), o.workers);
  const store = Store.open(o.store, { create: true });
  cache.target = store.responseCache();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigint);
  const progress = new ProgressLine();
  // --watch: each part's run in the live dashboard (buyer episodes, then seller turns, turn by
  // turn), one after the other; plain progress lines when output is not a terminal.
  let view: RunView | null = null;
  // A line per round (stderr) as its last part ends.
  let roundParts: MarketPartEvent[] = [];
  // On a terminal or with --watch; a pipe gets the summary alone, as every run's does.
  const roundLines = o.watch === true || process.stderr.isTTY === true;
  const flushRound = () => {
    if (roundParts.length > 0 && roundLines) out.error(roundLine(roundParts, plan.design.rounds));
    roundParts = [];
  };
  let result: MarketRunResult;
  const batches: BatchHost[] = [];
  try {
    await serve?.ready(plan.marketId, adopterTurns(plan));
    result = await runMarket(plan, store, {
      // Served: failed seller turns are played again by later sessions, every pass one runner.
      ...(serve ? { again: serve.again, runner: runnerName() } : {}),
      concurrency: batchSize ?? concurrency,
      partOptions: async (e) => {
        const own: Awaited<ReturnType<NonNullable<MarketRunOptions["partOptions"]>>> = {};
        if (batching) {
          const host = batching.startBatchRun(store, e.runId, cache, (line) => {
            if (!view) out.error(line);
          });
          batches.push(host);
          own.hostAgents = host.hostAgents;
        }
        if (o.watch) {
          const v = await startRunView({
            plan: e.plan,
            target: e.plan.total,
            storedByAgent: new Map(store.usageByAgent(e.runId).map((a) => [a.agent, a.trials])),
            stdout: process.stdout,
            stdin: process.stdin,
            log: (line) => out.error(line),
            onStop: () => controller.abort(),
          });
          view = v;
          own.onProgress = (p) => v.onProgress(p);
          own.onTrial = (r) => v.onTrial(r);
          own.onEpisode = v.episodes;
        }
        return own;
      },
      signal: controller.signal,
      hostAgents: llmWorkerHost(workers),
      leaseMs: o.leaseMs === undefined ? undefined : parseOption("lease-ms", positiveInt, o.leaseMs),
      onProgress: (p) => progress.update(p),
      onPart: async (e, phase) => {
        if (phase !== "end") return;
        if (view) {
          const v = view;
          view = null;
          await v.finish(e.result, e.failure);
        }
        progress.end();
        if (roundParts.length > 0 && roundParts[0]!.round !== e.round) flushRound();
        roundParts.push(e);
        if (e.part === "sellers") flushRound();
      },
    });
    progress.end();
    flushRound();
    const market = getMarket(store, plan.marketId)!;
    const analysis = result.stored > 0 ? analyzeMarketRuns(store, market) : null;
    const ending = analysis?.markets.some((m) => m.rounds.length > 0)
      ? marketHeadline(analysis!, market)
      : null;
    const where = storeFlag(o.store);
    const next = [
      {
        command: `bazaar analyze ${plan.marketId}${where}`,
        gives: "every outcome, as tables (--json: one document)",
      },
      {
        command: `bazaar analyze ${plan.marketId}${where} --report out/`,
        gives: "a markdown report with figures (shares, price paths, adoption)",
      },
      {
        command: `bazaar watch ${plan.marketId}${where}`,
        gives: "the market round by round, seller by seller",
      },
      { command: `bazaar runs${where}`, gives: "the market and its rounds' runs" },
    ];
    const counts = batches.length > 0 ? sumCounts(batches.map((b) => b.counts())) : null;
    if (o.json) {
      printJson(out, {
        ...result,
        retries,
        ...(counts ? { batch: counts } : {}),
        store: shownStore(o.store),
        runs: market.runs,
        ...(ending ? { headline: ending.json, next } : {}),
      });
    } else {
      out.log(
        `market ${plan.marketId}: ${result.roundsDone} of ${result.rounds} rounds done; ${n(result.stored)} of ${n(result.total)} trials stored (${n(result.ranNow)} this time)`,
      );
      out.log(
        `rounds' runs: ${market.runs.length} (${plan.marketId}-r01-buyers … ); non-responses this time: ${n(result.nonResponsesNow)}`,
      );
      out.log(`store: ${shownStore(o.store)}`);
      if (retries > 0) out.log(`model retries this time: ${retries}`);
      if (counts)
        out.log(
          `batches this time: ${n(counts.submitted)} submitted (${n(counts.requests)} requests), ${n(counts.resumed)} sent earlier and waited on; ${n(counts.answered)} lines answered, ${n(counts.failed)} failed or not run`,
        );
      if (ending) {
        out.log("");
        if (result.roundsDone < result.rounds)
          out.log(`outcomes of the ${result.roundsDone} rounds stored so far:`);
        for (const line of ending.lines) out.log(line);
        out.log("");
        out.log("next:");
        const width = Math.max(...next.map((x) => x.command.length));
        for (const x of next) out.log(`  ${x.command.padEnd(width)}  ${x.gives}`);
      }
    }
    const at = result.stoppedAt;
    if (stoppedBy) {
      out.error(`stopped: ${stoppedBy}; run the same command again once the endpoint answers`);
      process.exitCode = EXIT.incomplete;
    } else if (result.interrupted) {
      out.error(
        `interrupted${at ? ` in round ${at.round} (${at.part})` : ""}: ${n(result.stored)} of ${n(result.total)} trials are stored; run the same command again to resume`,
      );
      process.exitCode = EXIT.interrupted;
    } else if (at) {
      out.error(
        `round ${at.round} is not whole: ${n(result.failed)} trial${result.failed === 1 ? "" : "s"} of ${at.runId} failed (missing data); the market cannot go on without them — run the same command again`,
      );
      process.exitCode = EXIT.incomplete;
    }
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    store.close();
  }
}
