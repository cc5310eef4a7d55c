/**
 * Before a run spends anything: one cheap request per distinct endpoint and model classifies what is
 * wrong with the configuration — a rejected key (401/403), an unknown model (404, or not in the
 * server's model list), an endpoint that does not answer — and stops the run with one line saying
 * what to fix (DESIGN.md § Failures are not answers). `GET <base>/models` is asked first (free on
 * every OpenAI-compatible server that has it) for the models. The key is proven by a request that
 * needs it: the list itself where the server refuses it without the key (OpenAI), else one chat
 * completion of a single token per endpoint and key (llama.cpp lists its models to anyone); where a
 * server has no model list, one per model tells a rejected key from an unknown model.
 */

import type { AnyEnvironment } from "../../environments/kernel/environment.ts";
import { openingTurn } from "../../environments/kernel/episode.ts";
import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";
import { LlmAgent } from "./agent.ts";
import { httpRequester, type Requester } from "./http.ts";
import { type ChatOpening, describeSlot, promptTokens, slotAdvice, slotContext } from "./llamacpp.ts";
import { redact } from "./secrets.ts";

/** One model at one endpoint, as an agent will call it. */
export interface ModelEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
  /**
   * The longest opening request each agent on it sends, checked against a llama.cpp slot: found
   * over the run's tasks only when the server is one (other servers cost the run nothing).
   */
  openings?: () => Opening[];
}

/** An agent's first request of a task, as it will be sent. */
export interface Opening {
  /** "task 12 (openai:qwen)". */
  where: string;
  request: ChatOpening;
  /** The output cap sent with it: the answer needs that much room in the slot too. */
  maxTokens?: number;
}

/** The tasks of a run, for the openings of its agents (`modelEndpointsOf`). */
export interface RunTasks {
  env: Pick<AnyEnvironment, "machine" | "input">;
  settings: unknown;
  tasks: readonly { taskId: string }[];
}

/** A request's size in characters: what picks the longest opening to count in tokens. */
function openingChars(o: ChatOpening): number {
  return (
    o.messages.reduce((n, m) => n + m.content.length, 0) + (o.tools ? JSON.stringify(o.tools).length : 0)
  );
}

/**
 * Each LLM player's longest opening request over the run's tasks (the first turn of an episode,
 * where that turn is the player's): one per player, so a preflight counts a few prompts, not all.
 */
function longestOpenings(entries: readonly AgentEntry[], run: RunTasks): Map<LlmAgent, Opening> {
  const players = new Map<LlmAgent, string>();
  for (const entry of entries)
    for (const p of Object.values(entry.players))
      if (p instanceof LlmAgent && p.portable) players.set(p, entry.label);
  const best = new Map<LlmAgent, { opening: Opening; chars: number }>();
  if (players.size === 0) return new Map();
  for (const task of run.tasks) {
    const turn = openingTurn(run.env.machine, run.env.input(task, run.settings));
    if (!turn) continue;
    for (const entry of entries) {
      const p = entry.players[turn.role];
      if (!(p instanceof LlmAgent) || !players.has(p)) continue;
      const request = p.openingRequest(turn.observation);
      const chars = openingChars(request);
      if (chars <= (best.get(p)?.chars ?? -1)) continue;
      best.set(p, {
        chars,
        opening: {
          where: `task ${task.taskId} (${entry.label})`,
          request,
          ...(p.settings.maxTokens ? { maxTokens: p.settings.maxTokens } : {}),
        },
      });
    }
  }
  return new Map([...best].map(([p, b]) => [p, b.opening]));
}

/** An agent other than `LlmAgent` that calls models (the OG-Narrator's LLM narrator) says which. */
export interface CallsModels {
  modelEndpoints(): ModelEndpoint[];
}

function callsModels(p: unknown): p is CallsModels {
  return typeof (p as Partial<CallsModels> | null)?.modelEndpoints === "function";
}

/** The models one player calls: an `LlmAgent`'s, or what a wrapper or narrator says it calls. */
export function modelEndpointsOfPlayer(p: unknown): ModelEndpoint[] {
  if (p instanceof LlmAgent) {
    if (!p.portable) return []; // an injected chat model (tests) calls no endpoint
    const spec = p.spec();
    // An endpoint pool: every replica is checked, and the first that cannot serve stops the run.
    const urls = spec.settings.replicas ?? [spec.settings.baseURL];
    return urls.map((baseURL) => ({ baseURL, model: spec.settings.model, apiKey: spec.apiKey }));
  }
  return callsModels(p) ? p.modelEndpoints() : [];
}

/**
 * Every distinct (endpoint, model, key) the run's agents will call; given the run's tasks, with the
 * longest opening request of each LLM agent on it.
 */
export function modelEndpointsOf(entries: readonly AgentEntry[], run?: RunTasks): ModelEndpoint[] {
  let found: Map<LlmAgent, Opening> | undefined;
  const openings = () => {
    found ??= run ? longestOpenings(entries, run) : new Map();
    return found;
  };
  const out = new Map<string, { endpoint: ModelEndpoint; players: Set<LlmAgent> }>();
  for (const entry of entries)
    for (const p of Object.values(entry.players))
      for (const e of modelEndpointsOfPlayer(p)) {
        const key = `${e.baseURL}\u0000${e.model}\u0000${e.apiKey ?? ""}`;
        const known = out.get(key) ?? { endpoint: e, players: new Set<LlmAgent>() };
        if (p instanceof LlmAgent && run) {
          known.players.add(p);
          known.endpoint.openings = () =>
            [...known.players].map((q) => openings().get(q)).filter((o): o is Opening => o !== undefined);
        }
        out.set(key, known);
      }
  return [...out.values()].map((x) => x.endpoint);
}

export { httpRequester, type Requester };

export interface PreflightOptions {
  /** Per request (default 10 s): an endpoint slower than this to say anything "does not answer". */
  timeoutMs?: number;
  /** How a request is made (tests pass their own). */
  request?: Requester;
}

const KEY_HINT =
  "set OPENAI_API_KEY (or --env-file) to a key this endpoint accepts, or run with --no-preflight";

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function models(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const ids = data
    .map((m) => (m as { id?: unknown })?.id)
    .filter((id): id is string => typeof id === "string");
  return ids.length > 0 ? ids : null;
}

function errorText(res: { text: string }): string {
  const text = res.text;
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
  const e = err as { name?: string; code?: string; message?: string };
  const why =
    e?.name === "TimeoutError"
      ? "no answer within the preflight timeout"
      : (e?.code ?? e?.message ?? String(err));
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
  const send = opts.request ?? httpRequester;
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
      const ask = async (path: string, method = "GET", body?: string, withKey = true) => {
        try {
          const h = withKey ? headers : { "content-type": "application/json" };
          return await send(`${base}${path}`, { method, headers: h, body, timeoutMs });
        } catch (err) {
          throw unreachable(baseURL, err);
        }
      };
      const rejected = (res: { status: number; text: string }) =>
        new AgentFailure(
          "configuration",
          `${baseURL} rejected the API key (HTTP ${res.status}: ${errorText(res)})`,
          KEY_HINT,
        );
      // One completion of one token: what every server checks the key on (llama.cpp's answers
      // `/models` to any key), and where a server has no model list, what tells key and model apart.
      const probe = async (model: string) => {
        const res = await ask(
          "/chat/completions",
          "POST",
          JSON.stringify({ model, messages: [{ role: "user", content: "ping" }], max_tokens: 1 }),
        );
        if (res.status === 401 || res.status === 403) throw rejected(res);
        return res;
      };
      const list = await ask("/models");
      if (list.status === 401 || list.status === 403) throw rejected(list);
      const served = list.status === 200 ? models(parsed(list.text)) : null;
      if (served) {
        for (const { model } of group) {
          if (served.includes(model)) continue;
          const shown =
            served.slice(0, 8).join(", ") + (served.length > 8 ? `, … (${served.length} in all)` : "");
          throw new AgentFailure(
            "configuration",
            `model ${model} is not served at ${baseURL}`,
            `it serves: ${shown}`,
          );
        }
        // The key is proven when the list needed it: asked without the key, the server refuses it.
        const open = apiKey ? await ask("/models", "GET", undefined, false) : null;
        // A list open to anyone proves nothing: any answer to a completion but 401/403 says the key
        // (or no key) gets through — a 400 for the one-token cap or a 429 too.
        if (open?.status !== 401 && open?.status !== 403) await probe(group[0]!.model);
        await checkSlots(baseURL, apiKey, group, send, timeoutMs);
        return;
      }
      for (const { model } of group) {
        // No model list here: one completion of one token tells key and model apart.
        const res = await probe(model);
        if (res.status === 404)
          throw new AgentFailure(
            "configuration",
            `model ${model} is not served at ${baseURL} (HTTP 404: ${errorText(res)})`,
            "check the model name after openai: and --base-url",
          );
      }
      await checkSlots(baseURL, apiKey, group, send, timeoutMs);
    }),
  );
}

/**
 * A llama.cpp server runs a prompt only when it fits one slot (`-c` over `-np`); a longer one has
 * been answered with an empty 200. So each agent's longest opening prompt, counted by the server
 * with the room its answer may take, must fit a slot, or the run stops here, before anything is
 * spent, saying what to change. Another server (no slot size at `/props`) is not checked, nor is
 * a prompt the server does not count.
 */
async function checkSlots(
  baseURL: string,
  apiKey: string | undefined,
  group: readonly ModelEndpoint[],
  send: Requester,
  timeoutMs: number,
): Promise<void> {
  if (!group.some((e) => e.openings)) return;
  const slot = await slotContext(baseURL, apiKey, send, timeoutMs).catch(() => null);
  if (!slot) return;
  const openings = group.flatMap((e) => e.openings?.() ?? []);
  const n = (x: number) => x.toLocaleString("en-US");
  for (const o of openings) {
    const tokens = await promptTokens(baseURL, apiKey, o.request, send, timeoutMs).catch(() => null);
    if (tokens === null) continue;
    const room = o.maxTokens ?? 0;
    const needed = tokens + room;
    if (needed <= slot.nCtx) continue;
    const lower =
      room > 0 && tokens < slot.nCtx ? `, or lower --max-tokens to ${n(slot.nCtx - tokens)} or less` : "";
    throw new AgentFailure(
      "configuration",
      `the opening prompt of ${o.where} is ${n(tokens)} tokens${room > 0 ? `, ${n(needed)} with room for an answer of --max-tokens ${n(room)}` : ""}, and at the llama.cpp server ${baseURL} ${describeSlot(slot)}`,
      `${slotAdvice(slot, needed)}${lower} (--no-preflight skips this check)`,
    );
  }
}
