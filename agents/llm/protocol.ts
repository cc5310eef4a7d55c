/**
 * The messages between the main thread and an LLM worker thread (`workers.ts`, `worker.ts`). The
 * main thread drives episodes and owns the store and every shared limit; a worker runs agents'
 * LangGraph graphs and HTTP calls, and asks the main thread's gate before each model request.
 */
import type { Acted, Message } from "../../environments/kernel/types.ts";
import type { AttemptReport } from "./adaptive.ts";
import type { LlmAgentSpec } from "./agent.ts";
import type { CachedResponse } from "./cache.ts";
import type { AttemptOutcome, CallEvents, Settled, SettledError } from "./gate.ts";

export type ToWorker =
  | { t: "agent"; agent: number; spec: LlmAgentSpec }
  | {
      t: "act";
      req: number;
      /** The run (session) the turn belongs to: what an abort stops. */
      session: number;
      agent: number;
      thread: string;
      fresh: Message[];
      replicate: number;
    }
  | { t: "end"; session: number; agent: number; thread: string }
  /** Aborts the session's turns in flight (its run was stopped), or forgets a finished session. */
  | { t: "abort" | "done"; session: number }
  | ({
      t: "reply";
      req: number;
      /** A claim's answer, or an acquire's grant and (for an endpoint pool) the replica to send to. */
      value?: CachedResponse | { grant: number; replica?: number } | null;
    } & Partial<SettledError>);

export type FromWorker =
  | { t: "acted"; req: number; acted: Acted<Record<string, unknown>> }
  | ({ t: "failed"; req: number } & SettledError)
  | { t: "claim"; req: number; agent: number; key: string }
  | {
      t: "acquire";
      req: number;
      agent: number;
      tokens: number;
      session: number;
      /** The replica of an endpoint pool the last attempt went to (a retry prefers another). */
      avoid?: number;
    }
  /** An attempt is over: how it went and what the worker saw of it (for the endpoint's limiter). */
  | { t: "release"; grant: number; outcome: AttemptOutcome; report?: AttemptReport }
  | { t: "settle"; agent: number; key: string; result: Settled }
  | { t: "retry"; agent: number; info: Parameters<NonNullable<CallEvents["onRetry"]>>[0] };

/**
 * Messages posted in the same tick travel as one batch: a turn exchanges about eight messages, and
 * each postMessage and message event costs more than the structured clone of a small one.
 */
export class Batcher<M> {
  private queue: M[] = [];

  constructor(private readonly send: (batch: M[]) => void) {}

  post(m: M): void {
    if (this.queue.length === 0) queueMicrotask(() => this.flush());
    this.queue.push(m);
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) this.send(batch);
  }
}
