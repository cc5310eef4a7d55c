import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { type LlmContext, resolveChoiceAgent, splitAgentSpecs } from "../../agents/registry.ts";
import { DEFAULT_HOTEL_POOL, type Hotel, loadHotelPool } from "../../datasets/hotels/index.ts";
import { buildChoiceTasks, ChoiceDesignSchema } from "../../environments/choice/design.ts";
import { choiceEnvironment } from "../../environments/choice/environment.ts";
import { PROMPT_VARIANTS } from "../../environments/choice/types.ts";
import { ENVIRONMENTS, environmentNamed } from "../../environments/registry.ts";
import { executeRun, type RunResult } from "../../runner/execute.ts";
import { stableHash } from "../../runner/keys.ts";
import { planRun, type RunPlan } from "../../runner/plan.ts";
import { SqliteStore } from "../../store/index.ts";
import { addLlmOptions, DeferredCache, type LlmOptions, llmContextFrom } from "../llm-options.ts";
import { choiceOf, nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import { type Output, printJson } from "../output.ts";
import { ProgressLine } from "../progress.ts";

interface RunOptions extends LlmOptions {
  retryErrors?: boolean;
  agent: string;
  replicates: string;
  limit?: string;
  seed: string;
  store: string;
  concurrency: string;
  pool?: string;
  variant: string;
  maxReasks: string;
  pairs?: string;
  pairAppearances?: string;
  triples?: string;
  tripleAppearances?: string;
  fives?: string;
  fiveAppearances?: string;
  json?: boolean;
}

function seedValue(raw: string): number | string {
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** Everything is validated and the tasks built before the store is opened: bad input writes nothing. */
function planChoiceRun(o: RunOptions, llm: LlmContext): RunPlan {
  const optional = (name: string, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, nonNegativeInt, v);
  const design = ChoiceDesignSchema.parse({
    seed: seedValue(o.seed),
    variant: parseOption("variant", choiceOf(PROMPT_VARIANTS), o.variant),
    pairs: optional("pairs", o.pairs),
    pairAppearances: optional("pair-appearances", o.pairAppearances),
    triples: optional("triples", o.triples),
    tripleAppearances: optional("triple-appearances", o.tripleAppearances),
    fives: optional("fives", o.fives),
    fiveAppearances: optional("five-appearances", o.fiveAppearances),
  });
  const pool: Hotel[] = o.pool ? loadHotelPool(o.pool) : DEFAULT_HOTEL_POOL;
  const agents = splitAgentSpecs(o.agent).map((s) => resolveChoiceAgent(s, llm));
  const tasks = buildChoiceTasks(design, pool);
  const settings = { maxReasks: parseOption("max-reasks", nonNegativeInt, o.maxReasks) };
  return planRun({
    env: choiceEnvironment,
    settings,
    tasks,
    agents,
    replicates: parseOption("replicates", positiveInt, o.replicates),
    design: { ...design, pool: o.pool ? { file: path.basename(o.pool), hash: stableHash(pool) } : "default" },
  });
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
    .argument("<environment>", `the episode kind: ${Object.keys(ENVIRONMENTS).join(", ")}`)
    .option("--agent <specs>", "comma-separated agents, e.g. sim:steep,sim:locked", "sim:steep")
    .option("--replicates <n>", "repetitions of every task per agent", "1")
    .option("--limit <n>", "run only the first n trials of the design (a quick try)")
    .option("--seed <seed>", "design seed (number or text)", "2026")
    .option("--store <file>", "SQLite store file", "bazaar.db")
    .option("--concurrency <n>", "trials in flight at once", "8")
    .option("--pool <file>", "hotel pool (bazaar JSON/CSV or PriceBench hotel_pool.json)")
    .option("--variant <name>", `prompt variant: ${PROMPT_VARIANTS.join(", ")}`, "plain")
    .option("--max-reasks <n>", "re-asks after an unusable answer before it is a non-response", "2")
    .option("--pairs <n>", "unique hotel pairs (default 450)")
    .option("--pair-appearances <n>", "re-drawn appearances per pair (default 4)")
    .option("--triples <n>", "unique hotel triples (default 300)")
    .option("--triple-appearances <n>", "appearances per triple, a multiple of 3 (default 6)")
    .option("--fives <n>", "unique five-option sets (default 300)")
    .option("--five-appearances <n>", "appearances per five-option set (default 1)")
    .option("--retry-errors", "first delete this run's trials whose agent failed, so they run again")
    .option("--json", "print the result as JSON");
  addLlmOptions(cmd).action(async (env: string, o: RunOptions) => {
    environmentNamed(env);
    const cache = new DeferredCache();
    const llm = llmContextFrom(o, cache);
    let retries = 0;
    llm.events = {
      onRetry: () => {
        retries++;
      },
      onBreakerOpen: ({ model, reason, untilMs }) =>
        out.error(`model ${model} paused for ${Math.round((untilMs - Date.now()) / 1000)} s: ${reason}`),
    };
    const plan = planChoiceRun(o, llm);
    const limit = o.limit === undefined ? undefined : parseOption("limit", positiveInt, o.limit);
    const concurrency = parseOption("concurrency", z.coerce.number().int().min(1).max(4096), o.concurrency);
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
    try {
      const result = await executeRun(plan, store, {
        limit,
        concurrency,
        signal: controller.signal,
        onProgress: (p) => progress.update(p),
      });
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
    } finally {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigint);
      store.close();
    }
  });
}
