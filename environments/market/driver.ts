/**
 * `bazaar run market`: a driver over rounds of ordinary runs. A market's later rounds depend on what
 * its sellers did in earlier ones, so a market cannot be one plan; each round is instead
 *   1. one shop run of the round's buyer episodes, over every market's current listings
 *      (`<market>-r03-buyers`), then
 *   2. one run of every market's seller turns (`<market>-r03-sellers`), each turn a trial of the
 *      market environment; the run's one agent entry fields the adopters' agent (role `adopter`)
 *      and the static one (role `static`), and each turn's task says whose turn it is.
 * Before each round the driver rebuilds every market's listings from the design and the stored
 * seller turns of the rounds before, so a killed market resumes mid-round by running the same
 * command: finished runs are read, the unfinished one resumes (leases, batches and all), and every
 * trial is stored exactly once. All markets of the run (adoption levels × base markets) share each
 * round's runs, so the runner's concurrency spans them.
 */
import type { Hotel } from "../../datasets/hotels/schema.ts";
import type { AnyEnvironment } from "../kernel/environment.ts";
import { stableHash } from "../kernel/hash.ts";
import type { AgentEntry } from "../kernel/types.ts";
import { type ExecuteOptions, executeRun, type RunResult } from "../runner/execute.ts";
import { planRun, type RunPlan } from "../runner/plan.ts";
import { negotiatingShopEnvironment, shopEnvironment } from "../shop/environment.ts";
import type { ShopOutcome, ShopTask } from "../shop/types.ts";
import type { Store } from "../store/index.ts";
import { ensureMarket, linkMarketRuns, type MarketRunPart } from "../store/markets.ts";
import {
  buildBaseMarkets,
  buyerTasks,
  type MarketDesign,
  type MarketInstance,
  marketInstances,
  roundTag,
} from "./design.ts";
import { marketEnvironment } from "./environment.ts";
import {
  afterTurns,
  type BuyerEpisodeLike,
  initialMarketState,
  type MarketState,
  type RoundOutcome,
  roundOutcome,
  sellerTasks,
} from "./rounds.ts";
import { MARKET_ADOPTER, MARKET_STATIC, type SellerOutcome, type SellerTask } from "./types.ts";

/** Everything that defines a market run, validated and resolved (the CLI's `market-plan.ts` builds it). */
export interface MarketRunPlan {
  marketId: string;
  design: MarketDesign;
  pool: readonly Hotel[];
  /** What makes two invocations the same market run (stored with it). */
  config: Record<string, unknown>;
  buyer: AgentEntry;
  /** The optimizing seller, played by each market's adopters (its player for role `adopter`). */
  adopter: AgentEntry;
  /** The seller every other seller plays (`sim:static`; its player for role `static`). */
  static: AgentEntry;
}

/**
 * The entry of a round's seller run: the adopters' agent and the static one, each in its role (the
 * label names both; each turn's record names its own player).
 */
export function sellersEntry(plan: Pick<MarketRunPlan, "adopter" | "static">): AgentEntry {
  const adopter = plan.adopter.players[MARKET_ADOPTER];
  const still = plan.static.players[MARKET_STATIC];
  if (!adopter || !still) throw new Error("the market's sellers must play the adopter and static roles");
  return {
    label: `${plan.adopter.label} + ${plan.static.label}`,
    identity: { adopter: plan.adopter.identity, static: plan.static.identity },
    players: { [MARKET_ADOPTER]: adopter, [MARKET_STATIC]: still },
  };
}

/** Trials of a whole market run: buyer episodes and seller turns over every round and market. */
export function marketTrials(d: MarketDesign): number {
  return d.rounds * d.adopters.length * d.markets * (d.buyersPerRound + d.sellers);
}

/** The runs of a round, by part. */
export function roundRunId(marketId: string, round: number, part: MarketRunPart): string {
  return `${marketId}-${roundTag(round)}-${part}`;
}

/** What the driver says as it goes: a round's part about to run (or found complete), and done. */
export interface MarketPartEvent {
  round: number;
  part: MarketRunPart;
  runId: string;
  plan: RunPlan;
  /** Trials of the part stored before this invocation ran it. */
  storedBefore: number;
  /** Null when it was complete already and did not run, or when it threw (`failure`). */
  result: RunResult | null;
  failure?: unknown;
}

export interface MarketRunOptions extends Omit<ExecuteOptions, "limit" | "admit"> {
  /**
   * Told after each pass over a part that left trials failed; true to pass again (`bazaar serve
   * market`: a seller turn whose session went away is played by a later session, as a served run's
   * failed trials are). Without it a failed trial stops the market, for the same command to run again.
   */
  again?(result: RunResult): Promise<boolean>;
  /** Told before a part runs (`result` null) and after (with its result, or null when it was skipped). */
  onPart?(e: MarketPartEvent, phase: "start" | "end"): void | Promise<void>;
  /**
   * What a part's run takes besides the market's options: where its agents take their turns (a
   * batch host is one run's: `--batch`), a live view's callbacks (`--watch`).
   */
  partOptions?(
    e: MarketPartEvent,
  ):
    | Partial<Pick<ExecuteOptions, "hostAgents" | "onProgress" | "onTrial" | "onEpisode">>
    | Promise<Partial<Pick<ExecuteOptions, "hostAgents" | "onProgress" | "onTrial" | "onEpisode">>>;
}

export interface MarketRunResult {
  marketId: string;
  rounds: number;
  /** Rounds whose buyer episodes and seller turns are all stored. */
  roundsDone: number;
  /** Trials of the market run in the store now, and in all. */
  stored: number;
  total: number;
  ranNow: number;
  nonResponsesNow: number;
  failedNow: number;
  /** Failed trials of the round that stopped the market (missing data the same command re-runs). */
  failed: number;
  interrupted: boolean;
  /** The part that stopped the market before its end, if one did. */
  stoppedAt: { round: number; part: MarketRunPart; runId: string } | null;
  elapsedMs: number;
}

/** The market's state at each market instance, the design's markets in order. */
function initialStates(plan: MarketRunPlan): { instances: MarketInstance[]; states: MarketState[] } {
  const bases = buildBaseMarkets(plan.design, plan.pool);
  const instances = marketInstances(plan.design, bases);
  return { instances, states: instances.map(initialMarketState) };
}

/**
 * A round's part as an ordinary run. What the round was built from — every market's listings, and
 * for seller turns the round's outcomes — is part of the run's identity (as a hash): a round rebuilt
 * differently (another bazaar, a store that lost a seller turn) is refused as another
 * configuration, never mixed with what is stored. (Hashing that, not the tasks it makes, keeps the
 * identity cheap: the tasks follow from it and the design.)
 */
function subPlan(
  env: AnyEnvironment,
  runId: string,
  tasks: readonly { taskId: string }[],
  agent: AgentEntry,
  identity: Record<string, unknown>,
  builtFrom: unknown,
): RunPlan {
  const plan = planRun({
    env,
    settings: {},
    tasks,
    agents: [agent],
    replicates: 1,
    design: { ...identity, builtFrom: stableHash(builtFrom, 16) },
  });
  return { ...plan, runId };
}

/** What a round's buyer episodes are built from: each market's listings as they stand. */
function listingsNow(states: readonly MarketState[]): unknown {
  return states.map((s) => s.listings.map((l) => [l.id, l.price, l.description.text]));
}

/** The instance a task belongs to, by its id's prefix (`k1-m2-r03-…`). */
function instanceOf(taskId: string): string {
  const parts = taskId.split("-");
  return `${parts[0]}-${parts[1]}`;
}

/**
 * The stored outcomes of a run, with the plan's own tasks (in memory: the store's copies of them
 * need not be parsed again), in seq order.
 */
function* storedOutcomes<Task, Outcome>(
  store: Store,
  plan: RunPlan,
): Generator<{ task: Task; outcome: Outcome }> {
  let after = -1;
  for (;;) {
    const { rows } = store.trialPage(plan.runId, { afterSeq: after, limit: 512 });
    for (const row of rows) {
      const task = plan.tasks[row.taskIndex] as Task;
      yield { task, outcome: (JSON.parse(row.result) as { outcome: Outcome }).outcome };
    }
    if (rows.length < 512) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/** Each market's round outcome from the stored buyer episodes of the round. */
function readRound(store: Store, buyers: RunPlan, states: readonly MarketState[]): RoundOutcome[] {
  const byInstance = new Map<string, BuyerEpisodeLike[]>(states.map((s) => [s.instance.key, []]));
  for (const { task, outcome } of storedOutcomes<ShopTask, ShopOutcome>(store, buyers)) {
    const booked =
      outcome.bookedId === null ? undefined : task.listings.find((l) => l.id === outcome.bookedId);
    const viewed = new Set(outcome.shown.filter((s) => s.viewed).map((s) => s.id));
    byInstance.get(instanceOf(task.taskId))?.push({
      taskId: task.taskId,
      rules: task.rules,
      shown: outcome.shown.map((s) => ({ id: s.id, page: s.page, rank: s.rank, viewed: viewed.has(s.id) })),
      // With offers, a booking pays the agreed price where there was a deal.
      booked: booked ? { id: booked.id, price: outcome.paid ?? booked.price } : null,
    });
  }
  return states.map((s) =>
    roundOutcome(
      byInstance.get(s.instance.key) ?? [],
      s.listings,
      s.instance.base.sellers.map((x) => x.cost),
    ),
  );
}

/** Each market's seller turns of a round, by seller, from the round's stored seller run. */
function readTurns(store: Store, sellers: RunPlan): Map<string, Map<number, SellerOutcome>> {
  const out = new Map<string, Map<number, SellerOutcome>>();
  for (const { task, outcome } of storedOutcomes<SellerTask, SellerOutcome>(store, sellers)) {
    let m = out.get(task.instance);
    if (!m) {
      m = new Map();
      out.set(task.instance, m);
    }
    m.set(task.seller, outcome);
  }
  return out;
}

/** A part's result over two passes: the second's state, the counts of both. */
function addPass(before: RunResult, pass: RunResult): RunResult {
  return {
    ...pass,
    ranNow: before.ranNow + pass.ranNow,
    nonResponsesNow: before.nonResponsesNow + pass.nonResponsesNow,
    cutAtCapNow: before.cutAtCapNow + pass.cutAtCapNow,
    failedNow: before.failedNow + pass.failedNow,
  };
}

/**
 * Runs a market run into the store, round by round, from wherever the store has it. Stops at the
 * first part that is not whole after running (interrupted, or trials failed: the same command runs
 * them again and goes on from there).
 */
export async function runMarket(
  plan: MarketRunPlan,
  store: Store,
  opts: MarketRunOptions,
): Promise<MarketRunResult> {
  const started = Date.now();
  const d = plan.design;
  ensureMarket(store, { id: plan.marketId, config: plan.config });
  const initial = initialStates(plan);
  const instances = initial.instances;
  let states = initial.states;
  const total = marketTrials(d);
  let ranNow = 0;
  let nonResponsesNow = 0;
  let failedNow = 0;
  let roundsDone = 0;
  const finish = (extra: Partial<MarketRunResult>): MarketRunResult => {
    let stored = 0;
    for (let r = 1; r <= d.rounds; r++)
      for (const part of roundParts) stored += store.getRun(roundRunId(plan.marketId, r, part))?.done ?? 0;
    return {
      marketId: plan.marketId,
      rounds: d.rounds,
      roundsDone,
      stored,
      total,
      ranNow,
      nonResponsesNow,
      failedNow,
      failed: 0,
      interrupted: false,
      stoppedAt: null,
      elapsedMs: Date.now() - started,
      ...extra,
    };
  };

  /** Runs one part (unless whole already); null when it is whole after, else what stopped it. */
  const runPart = async (
    round: number,
    part: MarketRunPart,
    sub: RunPlan,
  ): Promise<Partial<MarketRunResult> | null> => {
    const before = store.getRun(sub.runId);
    const storedBefore = before?.done ?? 0;
    const event: MarketPartEvent = { round, part, runId: sub.runId, plan: sub, storedBefore, result: null };
    if (before && before.done >= sub.total && before.failed === 0) {
      // Whole already: the identity check alone (a rebuilt round must be the stored one).
      store.ensureRun({ id: sub.runId, env: sub.env.name, config: sub.config, total: sub.total }, sub.tasks);
      await opts.onPart?.(event, "end");
      return null;
    }
    await opts.onPart?.(event, "start");
    const { onPart: _, partOptions, again, ...execute } = opts;
    const own = (await partOptions?.(event)) ?? {};
    let result: RunResult;
    try {
      result = await executeRun(sub, store, { ...execute, ...own });
      while (
        again &&
        result.stored < sub.total &&
        !result.interrupted &&
        opts.signal?.aborted !== true &&
        (await again(result))
      )
        result = addPass(result, await executeRun(sub, store, { ...execute, ...own }));
    } catch (err) {
      await opts.onPart?.({ ...event, result: null, failure: err }, "end");
      throw err;
    }
    ranNow += result.ranNow;
    nonResponsesNow += result.nonResponsesNow;
    failedNow += result.failedNow;
    await opts.onPart?.({ ...event, result }, "end");
    if (result.stored >= sub.total) return null;
    return {
      interrupted: result.interrupted || opts.signal?.aborted === true,
      failed: result.failed,
      stoppedAt: { round, part, runId: sub.runId },
    };
  };

  const roundParts: readonly MarketRunPart[] = ["buyers", "sellers"];
  const sellers = sellersEntry(plan);
  // Every round's runs linked at once (their ids follow from the market's): one transaction.
  linkMarketRuns(
    store,
    plan.marketId,
    Array.from({ length: d.rounds }, (_, i) =>
      roundParts.map((part) => ({ runId: roundRunId(plan.marketId, i + 1, part), round: i + 1, part })),
    ).flat(),
  );
  for (let round = 1; round <= d.rounds; round++) {
    if (opts.signal?.aborted) return finish({ interrupted: true });
    const buyers = subPlan(
      d.negotiable ? negotiatingShopEnvironment : shopEnvironment,
      roundRunId(plan.marketId, round, "buyers"),
      instances.flatMap((inst, i) => buyerTasks(d, inst, round, states[i]!.listings)),
      plan.buyer,
      {
        market: plan.marketId,
        round,
        part: "buyers",
        // Who answers offers (seller-1 first), as a shop run's design names them for its analysis.
        ...(plan.config.sellerNegotiators ? { sellerNegotiators: plan.config.sellerNegotiators } : {}),
      },
      listingsNow(states),
    );
    const stopBuyers = await runPart(round, "buyers", buyers);
    if (stopBuyers) return finish(stopBuyers);
    const outcomes = readRound(store, buyers, states);
    const agents = { adopter: plan.adopter.label, static: plan.static.label };
    const turns = subPlan(
      marketEnvironment,
      roundRunId(plan.marketId, round, "sellers"),
      states.flatMap((s, i) => sellerTasks(d, plan.marketId, s, round, outcomes[i]!, agents)),
      sellers,
      { market: plan.marketId, round, part: "sellers" },
      // The listings, and the round's outcomes each seller's report is made of.
      [listingsNow(states), outcomes],
    );
    const stopSellers = await runPart(round, "sellers", turns);
    if (stopSellers) return finish(stopSellers);
    const byInstance = readTurns(store, turns);
    states = states.map((s, i) =>
      afterTurns(s, round, outcomes[i]!, byInstance.get(s.instance.key) ?? new Map()),
    );
    roundsDone = round;
  }
  return finish({});
}
