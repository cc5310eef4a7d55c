/**
 * LLM agents in worker threads. One process drives episodes on one core, and against a fast model
 * server the agent's own CPU (LangGraph, the LangChain client, HTTP) is the bottleneck; so a run can
 * move its LLM agents' turns into worker threads while the main thread keeps the episodes, the
 * store and everything shared: each worker's model calls ask the main thread's gate (cache,
 * de-duplication of identical requests, concurrency cap, rate limits, circuit breaker) first.
 *
 * Workers are started once per process and pool size, kept while runs use them and unreferenced in
 * between (they never hold the process open). A thread's turns all go to one worker, which keeps
 * its conversation; a new thread goes to the least busy worker.
 */
import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "../../environments/kernel/module-worker.ts";
import type { Acted, Agent, AgentContext, AgentEntry, Observation } from "../../environments/kernel/types.ts";
import type { AttemptReport } from "./adaptive.ts";
import { LlmAgent } from "./agent.ts";
import type { AttemptOutcome } from "./gate.ts";
import { encodeError, settledError } from "./gate.ts";
import { Batcher, type FromWorker, type ToWorker } from "./protocol.ts";

interface Handle {
  worker: Worker;
  out: Batcher<ToWorker>;
  /** Turns in flight, for picking the least busy worker. */
  busy: number;
  /** Agents already sent to this worker. */
  agents: Set<number>;
}

interface PendingTurn {
  session: number;
  resolve: (a: Acted<Record<string, unknown>>) => void;
  reject: (e: Error) => void;
}

export class LlmWorkerPool {
  private readonly handles: Handle[] = [];
  private readonly agents = new Map<LlmAgent, number>();
  private readonly byId = new Map<number, LlmAgent>();
  private readonly turns = new Map<number, PendingTurn>();
  private readonly grants = new Map<number, (o: AttemptOutcome, r?: AttemptReport) => void>();
  private readonly sessions = new Map<number, AbortSignal | undefined>();
  /** Turns still running in a worker, per session (a stopped run's proxies do not wait for them). */
  private readonly running = new Map<number, number>();
  private readonly drained = new Map<number, () => void>();
  private nextReq = 0;
  private nextGrant = 0;
  private nextSession = 0;
  /** Set when a worker died: the run must fail rather than record its turns as non-responses. */
  failure: Error | null = null;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) this.handles.push(this.start());
  }

  private start(): Handle {
    const worker = startModuleWorker(import.meta.url, { source: "./worker.ts", compiled: "llm-worker" });
    const handle: Handle = {
      worker,
      out: new Batcher<ToWorker>((batch) => worker.postMessage(batch)),
      busy: 0,
      agents: new Set(),
    };
    worker.on("message", (batch: FromWorker[]) => {
      for (const m of batch) this.onMessage(handle, m);
    });
    const die = (err: Error) => {
      this.failure ??= err;
      const turns = [...this.turns.values()];
      this.turns.clear();
      for (const t of turns) {
        t.reject(err);
        this.finished(t.session);
      }
    };
    worker.on("error", (err) => die(new Error(`LLM worker failed: ${err.message}`)));
    worker.on("exit", (code) => die(new Error(`LLM worker exited (code ${code})`)));
    worker.unref();
    return handle;
  }

  private send(h: Handle, m: ToWorker): void {
    h.out.post(m);
  }

  private agentId(agent: LlmAgent): number {
    let id = this.agents.get(agent);
    if (id === undefined) {
      id = this.agents.size;
      this.agents.set(agent, id);
      this.byId.set(id, agent);
    }
    return id;
  }

  private onMessage(h: Handle, m: FromWorker): void {
    switch (m.t) {
      case "acted":
      case "failed": {
        const turn = this.turns.get(m.req);
        this.turns.delete(m.req);
        h.busy--;
        if (!turn) return;
        if (m.t === "acted") turn.resolve(m.acted);
        else turn.reject(settledError(m));
        this.finished(turn.session);
        return;
      }
      case "claim": {
        const gate = this.byId.get(m.agent)!.gate;
        gate.claim(m.key).then(
          (value) => this.send(h, { t: "reply", req: m.req, value }),
          (err: unknown) => this.send(h, { t: "reply", req: m.req, ...encodeError(err) }),
        );
        return;
      }
      case "acquire": {
        const gate = this.byId.get(m.agent)!.gate;
        // The replica is chosen here, in the main thread, from every thread's requests in flight.
        gate.acquire(m.tokens, this.sessions.get(m.session), m.avoid).then(
          (release) => {
            const grant = this.nextGrant++;
            this.grants.set(grant, release);
            this.send(h, { t: "reply", req: m.req, value: { grant, replica: release.replica } });
          },
          (err: Error) => this.send(h, { t: "reply", req: m.req, error: err.message }),
        );
        return;
      }
      case "release":
        this.grants.get(m.grant)?.(m.outcome, m.report);
        this.grants.delete(m.grant);
        return;
      case "settle":
        this.byId.get(m.agent)!.gate.settle(m.key, m.result);
        return;
      case "retry":
        this.byId.get(m.agent)!.events?.onRetry?.(m.info);
        return;
    }
  }

  private finished(session: number): void {
    const n = (this.running.get(session) ?? 1) - 1;
    this.running.set(session, n);
    if (n === 0) this.drained.get(session)?.();
  }

  /**
   * A run's use of the pool: proxies for its agents, aborted with the run's signal. The workers hold
   * the process open until the session is closed.
   */
  open(signal?: AbortSignal): PoolSession {
    const session = this.nextSession++;
    this.sessions.set(session, signal);
    if (this.sessions.size === 1) for (const h of this.handles) h.worker.ref();
    const onAbort = () => {
      for (const h of this.handles) this.send(h, { t: "abort", session });
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    return {
      proxy: (agent) => new RemoteLlmAgent(this, session, agent),
      failure: () => this.failure,
      close: async () => {
        signal?.removeEventListener("abort", onAbort);
        // A stopped run's turns are still settling their requests with the main thread's gate (an
        // identical request of the next run must not join one that is being aborted): wait for them.
        if ((this.running.get(session) ?? 0) > 0)
          await new Promise<void>((resolve) => this.drained.set(session, resolve));
        this.running.delete(session);
        this.drained.delete(session);
        this.sessions.delete(session);
        for (const h of this.handles) {
          this.send(h, { t: "done", session });
          if (this.sessions.size === 0) h.worker.unref();
        }
      },
    };
  }

  /** Sends one turn to the worker that holds the thread (or the least busy one for a new thread). */
  turn(
    session: number,
    agent: LlmAgent,
    handle: Handle | undefined,
    thread: string,
    fresh: Observation<unknown>["messages"],
    replicate: number,
  ): { handle: Handle; done: Promise<Acted<Record<string, unknown>>> } {
    if (this.failure) throw this.failure;
    const h = handle ?? this.handles.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.agentId(agent);
    if (!h.agents.has(id)) {
      h.agents.add(id);
      this.send(h, { t: "agent", agent: id, spec: agent.spec() });
    }
    const req = this.nextReq++;
    h.busy++;
    this.running.set(session, (this.running.get(session) ?? 0) + 1);
    const done = new Promise<Acted<Record<string, unknown>>>((resolve, reject) =>
      this.turns.set(req, { session, resolve, reject }),
    );
    this.send(h, { t: "act", req, session, agent: id, thread, fresh, replicate });
    return { handle: h, done };
  }

  endThread(session: number, handle: Handle, agent: LlmAgent, thread: string): void {
    this.send(handle, { t: "end", session, agent: this.agentId(agent), thread });
  }

  /** Stops the workers (tests; a CLI process just exits). */
  async terminate(): Promise<void> {
    for (const h of this.handles) h.worker.removeAllListeners("exit");
    await Promise.all(this.handles.map((h) => h.worker.terminate()));
    pools.delete(this.size);
  }
}

export interface PoolSession {
  /** An agent that plays like `agent`, its turns run in the pool's workers. */
  proxy(agent: LlmAgent): Agent<unknown, unknown>;
  /** The error that broke the pool, if one did. */
  failure(): Error | null;
  /** Resolves once the session's turns have all finished in the workers. */
  close(): Promise<void>;
}

/**
 * The main thread's stand-in for an LLM agent whose turns run in a worker: it tracks which of the
 * environment's messages each thread has been sent, and which worker holds the thread.
 */
class RemoteLlmAgent implements Agent<unknown, unknown> {
  readonly id: string;
  private readonly threads = new Map<string, { handle: Handle; seen: number }>();

  constructor(
    private readonly pool: LlmWorkerPool,
    private readonly session: number,
    private readonly agent: LlmAgent,
  ) {
    this.id = agent.id;
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<unknown>> {
    ctx.signal?.throwIfAborted();
    const thread = this.agent.threadId(ctx, observation.messages);
    const known = this.threads.get(thread);
    const seen = known?.seen ?? 0;
    const fresh = observation.messages.slice(seen);
    const { handle, done } = this.pool.turn(
      this.session,
      this.agent,
      known?.handle,
      thread,
      fresh,
      ctx.replicate,
    );
    this.threads.set(thread, { handle, seen: seen + fresh.length });
    if (!ctx.signal) return done;
    // A stopped run does not wait for the worker to notice.
    const signal = ctx.signal;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason ?? new Error("aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
      done.then(
        (acted) => {
          signal.removeEventListener("abort", onAbort);
          resolve(acted);
        },
        (err: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      );
    });
  }

  endEpisode(ctx: AgentContext): void {
    // Every conversation the agent held in the episode (a shop's seller: one per listing).
    const prefix = this.agent.episodeThreads(ctx);
    for (const [thread, known] of [...this.threads]) {
      if (!thread.startsWith(prefix)) continue;
      this.threads.delete(thread);
      this.pool.endThread(this.session, known.handle, this.agent, thread);
    }
  }
}

const pools = new Map<number, LlmWorkerPool>();

/** The process's pool of `size` workers, started on first use. */
export function workerPool(size: number): LlmWorkerPool {
  let pool = pools.get(size);
  if (!pool || pool.failure) {
    pool = new LlmWorkerPool(size);
    pools.set(size, pool);
  }
  return pool;
}

/**
 * A run's agents with every LLM agent that can move (not one over an injected chat model) replaced by
 * a proxy into the pool of `size` workers; null when there is nothing to move.
 */
export function offloadLlmAgents(
  entries: readonly AgentEntry[],
  size: number,
  signal?: AbortSignal,
): { agents: AgentEntry[]; session: PoolSession } | null {
  const movable = (p: unknown): p is LlmAgent => p instanceof LlmAgent && p.portable;
  if (size < 1 || !entries.some((e) => Object.values(e.players).some(movable))) return null;
  const session = workerPool(size).open(signal);
  const agents = entries.map((e) => ({
    ...e,
    players: Object.fromEntries(
      Object.entries(e.players).map(([role, p]) => [role, movable(p) ? session.proxy(p) : p]),
    ),
  }));
  return { agents, session };
}
