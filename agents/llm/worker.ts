/**
 * An LLM worker thread: copies of the run's LLM agents, each with a gate that asks the main thread
 * (cache, de-duplication, concurrency cap, rate limits, circuit breaker all stay there), driven turn
 * by turn by the main thread's episodes. Started by `workers.ts`.
 */
import { setMaxListeners } from "node:events";
import { parentPort } from "node:worker_threads";
import type { AttemptReport } from "./adaptive.ts";
import { LlmAgent, type LlmAgentSpec } from "./agent.ts";
import type { CachedResponse } from "./cache.ts";
import type { AttemptOutcome, CallGate, Grant, Settled } from "./gate.ts";
import { encodeError, settledError } from "./gate.ts";
import { Batcher, type FromWorker, type ToWorker } from "./protocol.ts";
import { registerSecret } from "./secrets.ts";

const port = parentPort;
if (!port) throw new Error("worker.ts runs as a worker thread");

const out = new Batcher<FromWorker>((batch) => port.postMessage(batch));
const post = (m: FromWorker) => out.post(m);
const replies = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let nextReq = 0;

function ask<T>(m: FromWorker & { req: number }): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    replies.set(m.req, { resolve: resolve as (v: unknown) => void, reject });
    post(m);
  });
}

class RemoteGate implements CallGate {
  constructor(
    private readonly agent: number,
    /** The run whose signal the main thread waits with. */
    private readonly session: number,
  ) {}

  claim(key: string): Promise<CachedResponse | null> {
    return ask({ t: "claim", req: nextReq++, agent: this.agent, key });
  }

  async acquire(tokens: number, signal?: AbortSignal, avoid?: number): Promise<Grant> {
    const granted = ask<{ grant: number; replica?: number }>({
      t: "acquire",
      req: nextReq++,
      agent: this.agent,
      tokens,
      session: this.session,
      ...(avoid === undefined ? {} : { avoid }),
    });
    // The replica the main thread's gate chose: this worker's client sends to it.
    const release = ({ grant, replica }: { grant: number; replica?: number }): Grant =>
      Object.assign(
        (outcome: AttemptOutcome, report?: AttemptReport) =>
          post({ t: "release", grant, outcome, ...(report ? { report } : {}) }),
        { replica },
      );
    if (!signal) return release(await granted);
    // Stopped while waiting: stop waiting now, and hand the slot back whenever it comes.
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason ?? new Error("aborted"));
        granted.then(
          (g) => release(g)("aborted"),
          () => {},
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      granted.then(
        (g) => {
          signal.removeEventListener("abort", onAbort);
          resolve(release(g));
        },
        (err: Error) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      );
    });
  }

  settle(key: string, result: Settled): void {
    post({ t: "settle", agent: this.agent, key, result });
  }
}

const specs = new Map<number, LlmAgentSpec>();
/** A copy of each agent per session (run), so that its gate waits with that run's signal. */
const agents = new Map<string, LlmAgent>();
const sessions = new Map<number, AbortController>();

function agentFor(id: number, session: number): LlmAgent | undefined {
  const name = `${id}|${session}`;
  let agent = agents.get(name);
  const spec = specs.get(id);
  if (!agent && spec) {
    agent = new LlmAgent(
      spec.id,
      spec.settings,
      { tools: spec.tools },
      {
        apiKey: spec.apiKey,
        role: spec.role,
        gate: new RemoteGate(id, session),
        events: { onRetry: (info) => post({ t: "retry", agent: id, info }) },
      },
    );
    agents.set(name, agent);
  }
  return agent;
}

function sessionSignal(session: number): AbortSignal {
  let c = sessions.get(session);
  if (!c) {
    c = new AbortController();
    // Every turn in flight of the run listens to it: no listener cap.
    setMaxListeners(0, c.signal);
    sessions.set(session, c);
  }
  return c.signal;
}

port.on("message", (batch: ToWorker[]) => {
  for (const m of batch) onMessage(m);
});

function onMessage(m: ToWorker): void {
  switch (m.t) {
    case "agent":
      registerSecret(m.spec.apiKey);
      specs.set(m.agent, m.spec);
      return;
    case "act": {
      const agent = agentFor(m.agent, m.session);
      if (!agent) {
        post({ t: "failed", req: m.req, error: `no agent ${m.agent} in this worker` });
        return;
      }
      agent.turn(m.thread, m.fresh, m.replicate, sessionSignal(m.session)).then(
        (acted) => post({ t: "acted", req: m.req, acted }),
        (err: unknown) => post({ t: "failed", req: m.req, ...encodeError(err) }),
      );
      return;
    }
    case "end":
      agents.get(`${m.agent}|${m.session}`)?.endThread(m.thread);
      return;
    case "abort":
      sessions.get(m.session)?.abort(new Error("the run was stopped"));
      return;
    case "done":
      sessions.delete(m.session);
      for (const name of agents.keys()) if (name.endsWith(`|${m.session}`)) agents.delete(name);
      return;
    case "reply": {
      const r = replies.get(m.req);
      replies.delete(m.req);
      if (m.error !== undefined) r?.reject(settledError({ ...m, error: m.error }));
      else r?.resolve(m.value);
      return;
    }
  }
}
