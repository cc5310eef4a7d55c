/**
 * The HTTP under an `a2a:` agent's SDK client, and what its failures mean (DESIGN.md § Failures are
 * not answers). Every request goes through `a2aFetch`, which adds the user's `--a2a-header`s and
 * turns the two failures the SDK would only report as prose into errors of their own: the agent
 * refusing bazaar's credentials (HTTP 401/403: the run's configuration, which stops it) and the agent
 * not answering at all (a refused or dropped connection: a failed trial, played again). `failureOf`
 * sorts the rest: the agent's own JSON-RPC errors, HTTP errors and replies that are not A2A.
 */
import type { A2aHeader } from "./a2a-headers.ts";

/** The agent answered HTTP 401 or 403: the credentials bazaar sends (or their absence) are refused. */
export class A2aRefused extends Error {
  override readonly name = "A2aRefused";
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`the agent refused bazaar's request to ${url} (HTTP ${status})`);
  }
}

/** No HTTP answer: the connection was refused, reset or never made. */
export class A2aUnreachable extends Error {
  override readonly name = "A2aUnreachable";
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`no answer from ${url}: ${reason}`);
  }
}

/** Why fetch failed, in a few words: the socket error's code (ECONNREFUSED) or its message. */
function causeOf(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
    if (!(e.cause instanceof Error)) return e.message;
    e = e.cause;
  }
  return String(err);
}

/**
 * Socket errors of a connection the pool kept from before (the agent restarted since): the request
 * may not have reached the agent; safe to make again when it changes nothing.
 */
export const STALE_SOCKET = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError");
}

/** `fetch` with the user's headers on every request, refusals and silence as errors of their own. */
export function a2aFetch(headers: readonly A2aHeader[]): typeof fetch {
  return async (input, init) => {
    const merged = new Headers(init?.headers);
    for (const h of headers) merged.set(h.name, h.value);
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    let res: Response;
    for (let attempt = 1; ; attempt++) {
      try {
        res = await fetch(input, { ...init, headers: merged });
        break;
      } catch (err) {
        if (isAbort(err)) throw err;
        const cause = causeOf(err);
        // A GET (the card) is made again once on a connection that went stale.
        if (method === "GET" && attempt === 1 && STALE_SOCKET.has(cause)) continue;
        throw new A2aUnreachable(url, cause);
      }
    }
    if (res.status === 401 || res.status === 403) {
      // Drain the body: an unread one holds the connection.
      await res.body?.cancel().catch(() => {});
      throw new A2aRefused(res.status, url);
    }
    return res;
  };
}

/** The brand the SDK puts on every error that is an A2A error (a JSON-RPC or REST error the agent sent). */
const A2A_ERROR = Symbol.for("@a2a-js/sdk.A2AError");

/** An error the agent sent as A2A (its `reason`, e.g. TASK_NOT_FOUND, and the JSON-RPC code), or null. */
export function agentError(err: unknown): { reason: string; code?: number; message: string } | null {
  if (err === null || typeof err !== "object" || !(A2A_ERROR in err)) return null;
  const e = err as { reason?: unknown; envelopeCode?: unknown; message?: unknown };
  return {
    reason: typeof e.reason === "string" ? e.reason : "INTERNAL_ERROR",
    ...(typeof e.envelopeCode === "number" ? { code: e.envelopeCode } : {}),
    message: typeof e.message === "string" ? e.message : String(err),
  };
}

/**
 * Errors that say the agent cannot take bazaar's messages at all — no trial can go better — rather
 * than that this one exchange went wrong.
 */
const CANNOT_TAKE = new Set([
  "CONTENT_TYPE_NOT_SUPPORTED",
  "UNSUPPORTED_OPERATION",
  "VERSION_NOT_SUPPORTED",
  "EXTENSION_SUPPORT_REQUIRED",
]);

/** What a failed A2A call means for the trial: what failed in a few words, the whole of it, and its kind. */
export interface A2aFailure {
  kind: "infrastructure" | "configuration";
  label: string;
  message: string;
  hint?: string;
}

export const LABELS = {
  silent: "the A2A agent did not answer",
  refused: "the A2A agent refused bazaar's credentials",
  error: "the A2A agent answered with an error",
  http: "the A2A agent answered an HTTP error",
  malformed: "the A2A agent's reply was not A2A",
  cannot: "the A2A agent cannot take bazaar's messages",
} as const;

/** What an error thrown by an A2A call (`what`: the call, e.g. "message/send") means for the trial. */
export function failureOf(err: unknown, what: string): A2aFailure {
  if (err instanceof A2aRefused)
    return {
      kind: "configuration",
      label: LABELS.refused,
      message: `${what}: ${err.message}`,
      hint: "give the agent's credentials with --a2a-header (e.g. 'Authorization=Bearer $AGENT_TOKEN')",
    };
  if (err instanceof A2aUnreachable)
    return { kind: "infrastructure", label: LABELS.silent, message: `${what}: ${err.message}` };
  const a2a = agentError(err);
  if (a2a) {
    const code = a2a.code === undefined ? a2a.reason : `${a2a.reason}, ${a2a.code}`;
    if (CANNOT_TAKE.has(a2a.reason))
      return {
        kind: "configuration",
        label: LABELS.cannot,
        message: `${what}: the agent cannot take bazaar's messages: ${a2a.message} (${code})`,
        hint: "bazaar sends a text part and a data part over JSON-RPC or HTTP+JSON, as A2A v1.0 or v0.3; check what the agent's card declares",
      };
    return { kind: "infrastructure", label: LABELS.error, message: `${what}: ${a2a.message} (${code})` };
  }
  const message = err instanceof Error ? err.message : String(err);
  // The SDK words an HTTP error without a JSON-RPC body as "… Status: 500 …".
  const status = /\bStatus: (\d{3})\b/.exec(message)?.[1];
  if (status)
    return { kind: "infrastructure", label: LABELS.http, message: `${what}: HTTP ${status}: ${message}` };
  return { kind: "infrastructure", label: LABELS.malformed, message: `${what}: ${message}` };
}
