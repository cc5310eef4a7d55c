/**
 * What a llama.cpp server (`llama-server`) says of its slots, and how many of its tokens a prompt is.
 * The server splits its context (`-c`) over its parallel slots (`-np`); a prompt longer than a slot
 * does not run — the server has answered such requests with an empty 200 — so a run whose opening
 * prompts do not fit is a misconfiguration, caught before anything is spent (preflight.ts), and an
 * empty answer mid-run names the slot size (caller.ts).
 *
 * The server's own endpoints, at its root (not under /v1): `GET /props` gives
 * `default_generation_settings.n_ctx` (one slot's context) and `total_slots`; `POST /apply-template`
 * renders a chat request (messages and tools) with the model's template, as a completion would;
 * `POST /tokenize` counts it. A server without `/props` (404, or no slot size in it) is another
 * server: nothing is checked.
 */
import type { Requester } from "./http.ts";

export interface SlotContext {
  /** Tokens of context one slot holds (`-c` over `-np`). */
  nCtx: number;
  /** Parallel slots (`-np`), when the server says. */
  slots: number | null;
}

/** The server's root: the base URL without its OpenAI-compatible `/v1`. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

function headersFor(apiKey: string | undefined): Record<string, string> {
  return {
    "content-type": "application/json",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  };
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A llama.cpp server's slot size, or null for any other server (or one that does not say). */
export async function slotContext(
  baseURL: string,
  apiKey: string | undefined,
  send: Requester,
  timeoutMs: number,
): Promise<SlotContext | null> {
  const res = await send(`${serverRoot(baseURL)}/props`, {
    method: "GET",
    headers: headersFor(apiKey),
    timeoutMs,
  });
  if (res.status !== 200) return null;
  const props = json(res.text) as {
    default_generation_settings?: { n_ctx?: unknown };
    total_slots?: unknown;
  } | null;
  const nCtx = props?.default_generation_settings?.n_ctx;
  if (typeof nCtx !== "number" || !Number.isInteger(nCtx) || nCtx <= 0) return null;
  const slots = props?.total_slots;
  return { nCtx, slots: typeof slots === "number" && Number.isInteger(slots) && slots > 0 ? slots : null };
}

/** A chat request's opening as the model sees it: its messages and the tools offered with them. */
export interface ChatOpening {
  messages: { role: "system" | "user"; content: string }[];
  tools?: unknown[];
}

/**
 * How many tokens the server makes of a chat request's prompt: the request rendered by the model's
 * own template (`/apply-template`: roles, tools and all) and tokenized as a completion would be.
 * Where the server cannot render it, the texts alone are counted (fewer tokens than the real
 * prompt: a floor). Null when the server counts nothing.
 */
export async function promptTokens(
  baseURL: string,
  apiKey: string | undefined,
  opening: ChatOpening,
  send: Requester,
  timeoutMs: number,
): Promise<number | null> {
  const root = serverRoot(baseURL);
  const headers = headersFor(apiKey);
  const rendered = await send(`${root}/apply-template`, {
    method: "POST",
    headers,
    body: JSON.stringify({ messages: opening.messages, ...(opening.tools ? { tools: opening.tools } : {}) }),
    timeoutMs,
  });
  const prompt =
    rendered.status === 200 ? (json(rendered.text) as { prompt?: unknown } | null)?.prompt : null;
  const content =
    typeof prompt === "string"
      ? prompt
      : [
          ...opening.messages.map((m) => m.content),
          ...(opening.tools ? [JSON.stringify(opening.tools)] : []),
        ].join("\n");
  const res = await send(`${root}/tokenize`, {
    method: "POST",
    headers,
    body: JSON.stringify({ content, add_special: true, parse_special: true }),
    timeoutMs,
  });
  if (res.status !== 200) return null;
  const tokens = (json(res.text) as { tokens?: unknown } | null)?.tokens;
  return Array.isArray(tokens) ? tokens.length : null;
}

/** "a slot holds 1,024 tokens (-c 4,096 over -np 4)". */
export function describeSlot(s: SlotContext): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `a slot holds ${n(s.nCtx)} tokens${s.slots ? ` (-c ${n(s.nCtx * s.slots)} over -np ${s.slots})` : ""}`;
}

/** What to change so that `needed` tokens fit one slot. */
export function slotAdvice(s: SlotContext, needed: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (!s.slots)
    return `start llama-server with a larger -c or fewer slots (-np): a slot needs ${n(needed)} tokens`;
  const total = s.nCtx * s.slots;
  const fit = Math.floor(total / needed);
  return `start llama-server with -c ${n(needed * s.slots)} or more for -np ${s.slots}${fit >= 1 ? `, or with -np ${fit} at -c ${n(total)}` : ""}`;
}

/**
 * The slot size of the server at `baseURL`, asked once per server and process (an empty answer
 * mid-run names it): null for a server that is not llama.cpp or does not answer in time.
 */
const known = new Map<string, Promise<SlotContext | null>>();
export function slotContextOnce(
  baseURL: string,
  apiKey: string | undefined,
  send: Requester,
): Promise<SlotContext | null> {
  const root = serverRoot(baseURL);
  let p = known.get(root);
  if (!p) {
    p = slotContext(baseURL, apiKey, send, 5_000).catch(() => null);
    known.set(root, p);
  }
  return p;
}
