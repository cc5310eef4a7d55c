/**
 * The limiters of a run's model endpoints, for the live view and the run summary. They live in the
 * process that calls the models (agents/llm/gate.ts: shared by every agent on an endpoint, and by
 * worker threads through the main thread's gate), so the run that holds them polls them, as it hands
 * the views the runner's counts.
 */
import { endpointLimits } from "../../../agents/llm/gate.ts";
import { trimUrl } from "../../../agents/llm/pool/replicas.ts";
import { modelEndpointsOf } from "../../../agents/llm/preflight.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import type { EndpointRow } from "../endpoints.ts";

/**
 * A reader of the endpoints the run's agents call (the process may hold others: an earlier run of
 * the same process, a test's), or null for a run that calls no model. Requests and 429s count from
 * the reader's making: an endpoint outlives a run in a process that runs several (serve-assessor),
 * and its limiter goes on from what it learned, but the counts are this run's.
 */
export function endpointsOfRun(agents: readonly AgentEntry[]): (() => EndpointRow[]) | null {
  const wanted = new Set(modelEndpointsOf(agents).map((e) => `${trimUrl(e.baseURL)}|${e.model}`));
  if (wanted.size === 0) return null;
  // An endpoint pool is one endpoint whose URL lists its replicas.
  const ours = () =>
    endpointLimits().filter((e) => e.url.split(",").some((u) => wanted.has(`${trimUrl(u)}|${e.model}`)));
  const before = new Map(ours().map((e) => [`${e.url}|${e.model}`, e]));
  return () =>
    ours().map((e) => {
      const b = before.get(`${e.url}|${e.model}`);
      return b ? { ...e, requests: e.requests - b.requests, throttled: e.throttled - b.throttled } : e;
    });
}
