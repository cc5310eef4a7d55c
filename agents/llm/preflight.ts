/**
 * Before a run spends anything: one cheap request per distinct endpoint and model classifies what is
 * wrong with the configuration — a rejected key (401/403), an unknown model (404, or not in the
 * server's model list), an endpoint that does not answer — and stops the run with one line saying
 * what to fix (DESIGN.md § Failures are not answers). `GET <base>/models` is asked first (free on
 * every OpenAI-compatible server that has it); where a server has no model list, one chat completion
 * of a single token is.
 */

import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";
import { LlmAgent } from "./agent.ts";
import { redact } from "./secrets.ts";

/** One model at one endpoint, as an agent will call it. */
export interface ModelEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
}

/** An agent other than `LlmAgent` that calls models (the OG-Narrator's LLM narrator) says which. */
export interface CallsModels {
  modelEndpoints(): ModelEndpoint[];
}

function callsModels(p: unknown): p is CallsModels {
  return typeof (p as Partial<CallsModels> | null)?.modelEndpoints === "function";
}

/** Every distinct (endpoint, model, key) the run's agents will call. */
export function modelEndpointsOf(entries: readonly AgentEntry[]): ModelEndpoint[] {
  const out = new Map<string, ModelEndpoint>();
  const add = (e: ModelEndpoint) => out.set(`${e.baseURL}\u0000${e.model}\u0000${e.apiKey ?? ""}`, e);
  for (const entry of entries)
    for (const p of Object.values(entry.players)) {
      if (p instanceof LlmAgent) {
        const spec = p.spec();
        add({ baseURL: spec.settings.baseURL, model: spec.settings.model, apiKey: spec.apiKey });
      } else if (callsModels(p)) for (const e of p.modelEndpoints()) add(e);
    }
  return [...out.values()];
}

export interface PreflightOptions {
  /** Per request (default 10 s): an endpoint slower than this to say anything "does not answer". */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const KEY_HINT =
  "set OPENAI_API_KEY (or --env-file) to a key this endpoint accepts, or run with --no-preflight";

function models(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const ids = data
    .map((m) => (m as { id?: unknown })?.id)
    .filter((id): id is string => typeof id === "string");
  return ids.length > 0 ? ids : null;
}

async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } | string }).error;
    const m = typeof message === "string" ? message : message?.message;
    if (typeof m === "string") return redact(m.split("\n")[0]!.slice(0, 200));
  } catch {
    // not JSON: the status says enough
  }
  return redact(text.split("\n")[0]!.slice(0, 200));
}

function unreachable(url: string, err: unknown): AgentFailure {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const why =
    e?.name === "TimeoutError" || e?.name === "AbortError"
      ? "no answer within the preflight timeout"
      : (e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err));
  return new AgentFailure(
    "configuration",
    `the endpoint ${url} does not answer (${why})`,
    "check --base-url, or start the server first",
  );
}

/**
 * Checks every endpoint and model; resolves when each can be called, and throws a configuration
 * `AgentFailure` for the first that cannot. Never sends a key anywhere but its own endpoint.
 */
export async function preflight(
  endpoints: readonly ModelEndpoint[],
  opts: PreflightOptions = {},
): Promise<void> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const byServer = new Map<string, ModelEndpoint[]>();
  for (const e of endpoints) {
    const k = `${e.baseURL}\u0000${e.apiKey ?? ""}`;
    byServer.set(k, [...(byServer.get(k) ?? []), e]);
  }
  await Promise.all(
    [...byServer.values()].map(async (group) => {
      const { baseURL, apiKey } = group[0]!;
      const base = baseURL.replace(/\/+$/, "");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      const ask = async (path: string, init: RequestInit = {}): Promise<Response> => {
        try {
          return await doFetch(`${base}${path}`, {
            ...init,
            headers,
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (err) {
          throw unreachable(baseURL, err);
        }
      };
      const rejected = async (res: Response) =>
        new AgentFailure(
          "configuration",
          `${baseURL} rejected the API key (HTTP ${res.status}: ${await errorText(res)})`,
          KEY_HINT,
        );
      const list = await ask("/models");
      if (list.status === 401 || list.status === 403) throw await rejected(list);
      const served = list.ok ? models(await list.json().catch(() => null)) : null;
      for (const { model } of group) {
        if (served) {
          if (served.includes(model)) continue;
          const shown =
            served.slice(0, 8).join(", ") + (served.length > 8 ? `, … (${served.length} in all)` : "");
          throw new AgentFailure(
            "configuration",
            `model ${model} is not served at ${baseURL}`,
            `it serves: ${shown}`,
          );
        }
        // No model list here: one completion of one token tells key and model apart.
        const probe = await ask("/chat/completions", {
          method: "POST",
          body: JSON.stringify({ model, messages: [{ role: "user", content: "ping" }], max_tokens: 1 }),
        });
        if (probe.status === 401 || probe.status === 403) throw await rejected(probe);
        if (probe.status === 404)
          throw new AgentFailure(
            "configuration",
            `model ${model} is not served at ${baseURL} (HTTP 404: ${await errorText(probe)})`,
            "check the model name after openai: and --base-url",
          );
        await probe.body?.cancel().catch(() => {});
      }
    }),
  );
}
