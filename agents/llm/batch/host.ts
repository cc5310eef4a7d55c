/**
 * `--batch` as the runner sees it: a `HostAgents` that hands the runner LLM agents whose model calls
 * go to the provider's batch API instead of HTTP. The runner runs as many trials at once as a batch
 * holds (`--batch-size`), so an episode advances one turn per round: every episode's next request is
 * parked, the round goes out as one batch (or several, within the provider's limits) once every
 * trial in flight is waiting or nothing new has come for a moment, and when it ends each episode
 * takes its answer and its next turn — the next round. Single-turn audits take one round, plus one
 * per re-ask; bargaining one per turn.
 *
 * The agents are the run's own `LlmAgent`s rebuilt with a chat model whose HTTP goes to a batch
 * (`chat.ts`) and a gate without the live limits (`gate.ts`); everything else — the graph, the
 * caller's cache key, retries and error rules — is the live agent's. A request's custom id is its
 * response-cache key, so identical requests are one request and the answers go into the cache;
 * every batch and request is in the ledger (the store's), which is what makes a killed run resume
 * without sending anything twice.
 */

import type { UserError } from "../../../environments/kernel/errors.ts";
import type {
  Acted,
  Agent,
  AgentContext,
  AgentEntry,
  HostAgents,
  Observation,
} from "../../../environments/kernel/types.ts";
import { LlmAgent } from "../agent.ts";
import type { ResponseCache } from "../cache.ts";
import { batchChat } from "./chat.ts";
import { type BatchApiClient, OpenAIBatchClient } from "./client.ts";
import { turnContext } from "./context.ts";
import { type BatchCounts, BatchEndpoint } from "./endpoint.ts";
import { BatchGate } from "./gate.ts";
import type { BatchLedger } from "./ledger.ts";
import { type BatchLimits, OPENAI_LIMITS } from "./lines.ts";

export interface BatchHostOptions {
  runId: string;
  ledger: BatchLedger;
  cache?: ResponseCache;
  /** Requests and bytes per batch (default OpenAI's: 50,000 and 200 MB). */
  limits?: BatchLimits;
  /** The first poll of a batch, and the longest wait between polls (×1.5 each time). */
  pollMs?: { min: number; max: number };
  /** A round goes out once nothing new has been parked for this long (or every trial waits). */
  quietMs?: number;
  /** How the Files and Batches endpoints are reached (tests pass their own). */
  client?: (baseURL: string, apiKey: string | undefined) => BatchApiClient;
  /** Lines for the user: batches sent, waited on, ended. */
  say?: (line: string) => void;
}

/**
 * The LLM agent a player is, or wraps: bargaining wraps each negotiator in a `MeteredAgent` that
 * times its moves. No interface names a wrapper's inner agent yet, so it is read from an `inner`
 * field (at most three deep); a wrapper is re-made around the batch agent by copying it with the
 * new inner agent, so whatever it adds (timing, token counts) stays.
 */
function llmAgentIn(p: unknown, depth = 0): LlmAgent | null {
  if (p instanceof LlmAgent) return p.portable ? p : null;
  if (depth >= 3 || typeof p !== "object" || p === null || !("inner" in p)) return null;
  return llmAgentIn((p as { inner: unknown }).inner, depth + 1);
}

function rewrapped(p: unknown, replace: (a: LlmAgent) => Agent<unknown, unknown>): Agent<unknown, unknown> {
  if (p instanceof LlmAgent) return replace(p);
  const copy = Object.create(Object.getPrototypeOf(p) as object) as { inner: unknown };
  Object.assign(copy, p);
  copy.inner = rewrapped((p as { inner: unknown }).inner, replace);
  return copy as unknown as Agent<unknown, unknown>;
}

/** A batch turn: the agent's own turn, inside the context that names its request. */
class BatchTurnAgent implements Agent<unknown, unknown> {
  readonly id: string;

  constructor(
    private readonly inner: LlmAgent,
    private readonly label: string,
  ) {
    this.id = inner.id;
  }

  act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<unknown>> {
    return turnContext.run({ agent: this.label }, () => this.inner.act(observation, ctx));
  }

  endEpisode(ctx: AgentContext): void {
    this.inner.endEpisode(ctx);
  }
}

export interface BatchHost {
  /** For `executeRun`'s `hostAgents`. */
  hostAgents: HostAgents;
  /** What this process sent, waited on and read. */
  counts(): BatchCounts;
}

export function createBatchHost(o: BatchHostOptions): BatchHost {
  const counts: BatchCounts = { submitted: 0, requests: 0, resumed: 0, answered: 0, failed: 0 };
  const hostAgents: HostAgents = (entries, run) => {
    if (!entries.some((e) => Object.values(e.players).some((p) => llmAgentIn(p) !== null))) return null;
    let failure: UserError | null = null;
    const endpoints = new Map<string, BatchEndpoint>();
    const gates = new Map<string, BatchGate>();
    const quietMs = o.quietMs ?? 200;
    let parked = 0;
    let lastPark = 0;
    let timer: NodeJS.Timeout | null = null;
    let closed = false;
    // Trials in flight at most: when that many requests are parked, the round is whole.
    const roundSize = Math.max(1, Math.min(run.concurrency, run.trials));

    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      parked = 0;
      for (const e of endpoints.values()) e.flush();
    };
    // Every trial in flight waiting means the round is whole; otherwise a quiet moment ends it.
    const check = () => {
      timer = null;
      if (closed || parked === 0) return;
      const idle = Date.now() - lastPark;
      if (idle >= quietMs) flush();
      else timer = setTimeout(check, quietMs - idle);
    };
    const onParked = (delta: number) => {
      parked = Math.max(0, parked + delta);
      if (delta <= 0 || closed) return;
      lastPark = Date.now();
      if (parked >= roundSize) flush();
      else timer ??= setTimeout(check, quietMs);
    };

    const endpointFor = (agent: LlmAgent): BatchEndpoint => {
      const spec = agent.spec();
      const id = `${spec.settings.baseURL}\u0000${spec.settings.model}\u0000${spec.apiKey ?? ""}`;
      let e = endpoints.get(id);
      if (!e) {
        e = new BatchEndpoint({
          runId: o.runId,
          baseURL: spec.settings.baseURL,
          model: spec.settings.model,
          client: (o.client ?? ((url, key) => new OpenAIBatchClient(url, key)))(
            spec.settings.baseURL,
            spec.apiKey,
          ),
          ledger: o.ledger,
          limits: o.limits ?? OPENAI_LIMITS,
          pollMs: o.pollMs ?? { min: 200, max: 60_000 },
          reuseOtherRuns: spec.settings.useCache,
          counts,
          say: o.say ?? (() => {}),
          fail: (err) => {
            failure ??= err;
          },
          parked: onParked,
        });
        endpoints.set(id, e);
      }
      return e;
    };

    const rebuilt = new Map<LlmAgent, Map<string, Agent<unknown, unknown>>>();
    const batchAgent = (p: LlmAgent, label: string): Agent<unknown, unknown> => {
      let byLabel = rebuilt.get(p);
      if (!byLabel) {
        byLabel = new Map();
        rebuilt.set(p, byLabel);
      }
      let a = byLabel.get(label);
      if (!a) {
        const spec = p.spec();
        const endpoint = endpointFor(p);
        const gateId = `${spec.settings.baseURL}\u0000${spec.settings.model}\u0000${spec.settings.useCache}`;
        let gate = gates.get(gateId);
        if (!gate) {
          gate = new BatchGate(spec.settings.useCache ? o.cache : undefined, spec.settings.model);
          gates.set(gateId, gate);
        }
        const inner = new LlmAgent(
          spec.id,
          spec.settings,
          { tools: spec.tools },
          {
            apiKey: spec.apiKey,
            role: spec.role,
            chat: batchChat(spec.settings, spec.apiKey, endpoint.fetch),
            gate,
            events: p.events,
          },
        );
        a = new BatchTurnAgent(inner, label);
        byLabel.set(label, a);
      }
      return a;
    };

    const agents: AgentEntry[] = entries.map((e) => ({
      ...e,
      players: Object.fromEntries(
        Object.entries(e.players).map(([role, p]) => [
          role,
          llmAgentIn(p) ? rewrapped(p, (a) => batchAgent(a, e.label)) : p,
        ]),
      ),
    }));
    return {
      agents,
      failure: () => failure,
      close: async () => {
        closed = true;
        if (timer) clearTimeout(timer);
        await Promise.all([...endpoints.values()].map((e) => e.close()));
      },
    };
  };
  return { hostAgents, counts: () => ({ ...counts }) };
}
