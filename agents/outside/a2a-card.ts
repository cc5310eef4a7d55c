/**
 * An `a2a:` agent's Agent Card, read when the run starts (DESIGN.md § Agents from outside): it names
 * the agent (its identity is `a2a:<name>@<version>` plus the URL), says where its endpoint is and in
 * which protocol version — A2A v1.0 (`supportedInterfaces`) or the v0.3 wire format many deployed
 * agents still speak (a top-level `url`, `message/send`), which the SDK's compatibility layer
 * translates — and whether it streams. Then one `tasks/get` for a task that does not exist checks
 * that the endpoint answers A2A at all: any A2A error is an answer.
 *
 * Everything that can go wrong here is the run's configuration: a missing or malformed card, a card
 * without an endpoint, an agent that does not answer or refuses bazaar's credentials. Each is a
 * UserError saying what to fix, raised before any trial runs (exit 2, nothing stored).
 *
 * The SDK loads here, when the first card is read: a run without `a2a:` agents loads none of it.
 */
import { randomUUID } from "node:crypto";
import type { AgentCard } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { UserError } from "../../environments/kernel/errors.ts";
import type { A2aHeader } from "./a2a-headers.ts";
import { A2aRefused, A2aUnreachable, a2aFetch, agentError, STALE_SOCKET } from "./a2a-transport.ts";

/** Where the card is under an agent's URL (A2A's well-known path). */
export const CARD_PATH = ".well-known/agent-card.json";

/** The bindings bazaar speaks (the SDK's JSON-RPC and HTTP+JSON transports; gRPC is left out). */
const BINDINGS = ["JSONRPC", "HTTP+JSON"] as const;

/** An agent as its card describes it, with the SDK client that talks to it. */
export interface A2aAgent {
  /** The URL of the spec (`a2a:<url>`), as the user wrote it. */
  url: string;
  /** Where the card was read. */
  cardUrl: string;
  name: string;
  version: string;
  /** The endpoint the client talks to, its binding and the protocol version it speaks there. */
  endpoint: { url: string; binding: string; protocolVersion: string };
  /** The card says the agent streams: episodes are read through `message/stream`. */
  streaming: boolean;
  client: Client;
}

/**
 * The card's URL for `a2a:<url>`: the URL itself when it names a `.json` file, else the well-known
 * path under it (under its path, not only at the host's root: one host may serve several agents).
 */
export function cardUrlOf(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(
      `a2a:${url}: not a URL`,
      "e.g. a2a:http://127.0.0.1:9999 (the agent's base URL) or a2a:https://host/agent-card.json",
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new UserError(`a2a:${url}: bazaar reaches A2A agents over http: or https:, not ${u.protocol}`);
  if (u.username || u.password)
    throw new UserError(
      `a2a:${url}: the URL holds credentials`,
      "give them with --a2a-header (e.g. 'Authorization=Basic $AGENT_AUTH'): a URL is stored with the run",
    );
  if (u.pathname.endsWith(".json")) return u.href;
  if (!u.pathname.endsWith("/")) u.pathname += "/";
  return new URL(CARD_PATH, u).href;
}

function preview(text: string): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t.length > 80 ? `${t.slice(0, 80)}…` : t;
}

/** The card's JSON as served, or a UserError saying why there is none. */
async function fetchCard(
  url: string,
  cardUrl: string,
  doFetch: typeof fetch,
  timeoutMs: number,
  redact: (s: string) => string,
): Promise<unknown> {
  const where = `a2a:${url}`;
  let res: Response;
  try {
    res = await doFetch(cardUrl, {
      // v1.0 first: an agent serving both gets its v1.0 card (without the header it owes a v0.3 one).
      headers: { "A2A-Version": "1.0", Accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    if (err instanceof A2aRefused)
      throw new UserError(
        `${where}: the agent refused bazaar's request for its Agent Card (HTTP ${err.status})`,
        "give its credentials with --a2a-header (e.g. 'Authorization=Bearer $AGENT_TOKEN')",
      );
    const why =
      err instanceof A2aUnreachable
        ? err.reason
        : err instanceof Error && err.name === "TimeoutError"
          ? `no answer within ${timeoutMs / 1000} s`
          : err instanceof Error
            ? err.message
            : String(err);
    throw new UserError(
      `${where}: the agent does not answer (no Agent Card at ${cardUrl}: ${why})`,
      "start the agent, or check the URL",
    );
  }
  const body = await res.text().catch(() => "");
  if (res.status === 404)
    throw new UserError(
      `${where}: no Agent Card at ${cardUrl} (HTTP 404)`,
      `a2a:<url> is the agent's base URL (its card at <url>/${CARD_PATH}) or the card's own URL ending in .json`,
    );
  if (!res.ok)
    throw new UserError(
      `${where}: the Agent Card at ${cardUrl} could not be read (HTTP ${res.status}${body.trim() ? `: ${redact(preview(body))}` : ""})`,
      "check that the agent is up and serves its card",
    );
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new UserError(
      `${where}: ${cardUrl} is not an Agent Card: not JSON (${body.trim() ? redact(preview(body)) : "an empty body"})`,
      `a2a:<url> is the agent's base URL (its card at <url>/${CARD_PATH}) or the card's own URL ending in .json`,
    );
  }
}

/** A problem with the card's content, with what to fix. */
function malformed(url: string, cardUrl: string, what: string): UserError {
  return new UserError(
    `a2a:${url}: the Agent Card at ${cardUrl} ${what}`,
    "an A2A card names the agent (name, version) and its endpoint (supportedInterfaces[].url in v1.0, url in v0.3)",
  );
}

const nonEmpty = (x: unknown): x is string => typeof x === "string" && x.trim() !== "";

function httpUrl(x: unknown): boolean {
  if (typeof x !== "string") return false;
  try {
    const u = new URL(x);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The interface the SDK's client factory picks among those bazaar speaks: per binding the v1.0 one
 * if there is one, else the first; bindings in the card's order.
 */
function chosenInterface(card: AgentCard) {
  const usable = (card.supportedInterfaces ?? []).filter(
    (i) => BINDINGS.includes(String(i.protocolBinding).toUpperCase() as never) && httpUrl(i.url),
  );
  const first = usable[0];
  if (!first) return undefined;
  const same = usable.filter((i) => i.protocolBinding.toUpperCase() === first.protocolBinding.toUpperCase());
  return same.find((i) => i.protocolVersion === "1.0") ?? first;
}

/**
 * Reads and checks the card of `a2a:<url>`, connects the SDK's client to the endpoint it names and
 * checks that the endpoint answers. Every failure is a UserError (the run does not start).
 */
export async function readA2aAgent(
  url: string,
  headers: readonly A2aHeader[],
  options: { timeoutMs: number; redact: (s: string) => string },
): Promise<A2aAgent> {
  const cardUrl = cardUrlOf(url);
  const doFetch = a2aFetch(headers);
  const raw = await fetchCard(url, cardUrl, doFetch, options.timeoutMs, options.redact);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw malformed(url, cardUrl, "is not a JSON object");
  const sdk = await import("@a2a-js/sdk/client");
  const legacyCompat = { enabled: true };
  const resolver = new sdk.DefaultAgentCardResolver({ legacyCompat, fetchImpl: doFetch });
  let card: AgentCard;
  try {
    card = resolver.normalizeAgentCard(raw);
  } catch (err) {
    throw malformed(url, cardUrl, `is malformed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!nonEmpty(card.name)) throw malformed(url, cardUrl, "has no name");
  if (!nonEmpty(card.version)) throw malformed(url, cardUrl, "has no version");
  const chosen = chosenInterface(card);
  if (!chosen) {
    const bindings = (card.supportedInterfaces ?? []).map((i) => i.protocolBinding).filter(nonEmpty);
    throw bindings.length > 0 && !bindings.some((b) => BINDINGS.includes(b.toUpperCase() as never))
      ? malformed(
          url,
          cardUrl,
          `offers only ${[...new Set(bindings)].join(", ")}; bazaar speaks A2A over ${BINDINGS.join(" or ")}`,
        )
      : malformed(url, cardUrl, "names no endpoint URL (an http: or https: URL to send messages to)");
  }
  const factory = new sdk.ClientFactory(
    sdk.ClientFactoryOptions.createFrom(sdk.ClientFactoryOptions.default, {
      cardResolver: resolver,
      transports: [
        new sdk.JsonRpcTransportFactory({ legacyCompat, fetchImpl: doFetch }),
        new sdk.RestTransportFactory({ legacyCompat, fetchImpl: doFetch }),
      ],
      // The card's order is the agent's preference; bazaar's own is only to speak what it can.
      preferredTransports: [chosen.protocolBinding.toUpperCase() as never],
    }),
  );
  let client: Client;
  try {
    client = await factory.createFromAgentCard(card);
  } catch (err) {
    throw malformed(
      url,
      cardUrl,
      `gives no endpoint bazaar can use: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const agent: A2aAgent = {
    url,
    cardUrl,
    name: card.name.trim(),
    version: card.version.trim(),
    endpoint: {
      url: chosen.url,
      binding: chosen.protocolBinding.toUpperCase(),
      protocolVersion: client.protocolVersion,
    },
    streaming: card.capabilities?.streaming === true,
    client,
  };
  await checkAnswers(agent, options);
  return agent;
}

/**
 * One `tasks/get` for a task no agent has: an A2A error (task not found, or any other the agent
 * sends) is an answer; silence, a refusal or a reply that is not A2A stops the run.
 */
async function checkAnswers(
  agent: A2aAgent,
  options: { timeoutMs: number; redact: (s: string) => string },
): Promise<void> {
  const where = `a2a:${agent.url}`;
  const at = `${agent.endpoint.url} (${agent.endpoint.binding}, A2A ${agent.endpoint.protocolVersion})`;
  const probe = () =>
    agent.client.getTask(
      { tenant: "", id: `bazaar-probe-${randomUUID()}`, historyLength: 0 },
      { signal: AbortSignal.timeout(options.timeoutMs) },
    );
  try {
    // Asking after a task changes nothing: once more on a connection that went stale.
    await probe().catch((err: unknown) => {
      if (err instanceof A2aUnreachable && STALE_SOCKET.has(err.reason)) return probe();
      throw err;
    });
  } catch (err) {
    if (err instanceof A2aRefused)
      throw new UserError(
        `${where}: the agent refused bazaar's credentials at ${at} (HTTP ${err.status})`,
        "give them with --a2a-header (e.g. 'Authorization=Bearer $AGENT_TOKEN')",
      );
    if (err instanceof A2aUnreachable)
      throw new UserError(
        `${where}: the agent does not answer at ${at}: ${err.reason}`,
        "its card was read, but the endpoint it names is down or wrong: start the agent, or fix its card",
      );
    if (err instanceof Error && err.name === "TimeoutError")
      throw new UserError(
        `${where}: the agent does not answer at ${at}: no answer within ${options.timeoutMs / 1000} s`,
        "its card was read, but its endpoint is silent: check that the agent is up",
      );
    const a2a = agentError(err);
    // Method not found: an endpoint that speaks another version of A2A than its card declares.
    if (a2a && a2a.code !== -32601) return;
    const why = a2a ? `${a2a.message} (method not found)` : err instanceof Error ? err.message : String(err);
    throw new UserError(
      `${where}: the endpoint does not answer A2A at ${at}: ${options.redact(why)}`,
      "check the endpoint and the protocol version the agent's card declares",
    );
  }
}
