/**
 * The assessor's A2A server on node:http and the official SDK's framework-free pieces: its
 * `DefaultRequestHandler` (tasks, streaming, cancellation) under its JSON-RPC transport handlers —
 * v1.0's, and v0.3's from its compatibility layer for clients that still speak `message/send` —
 * exactly as the SDK's Express adapter wires them (a request without `A2A-Version`, or with 0.3, is
 * v0.3; a stream's first event decides between a JSON error and an SSE stream). Express is not a
 * dependency of bazaar, only of its examples and tests; this is the part of that adapter bazaar needs.
 *
 * Routes: the card at `/.well-known/agent-card.json` (and v0.2's `/.well-known/agent.json`), public —
 * it holds no secret, and says which token scheme the endpoint wants; JSON-RPC by POST at the card's
 * endpoint, with `Authorization: Bearer <token>` when the server has a token (compared in constant
 * time).
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  A2A_VERSION_HEADER,
  type AgentCard,
  AgentCard as AgentCardJson,
  Extensions,
  formatSSEErrorEvent,
  formatSSEEvent,
  HTTP_EXTENSION_HEADER,
  SSE_HEADERS,
} from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
} from "@a2a-js/sdk/server";
import { legacyCard } from "./card.ts";

const CARD_PATHS = new Set(["/.well-known/agent-card.json", "/.well-known/agent.json"]);
const JSON_TYPES = new Set(["application/json", "application/a2a+json"]);
const MAX_BODY = 1024 * 1024;
/** How often a quiet event stream says it is still there (Python's sse-starlette pings every 15 s). */
const KEEP_ALIVE_MS = 15_000;
/** JSON-RPC's error codes this server answers with itself. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export interface AssessorServer {
  /** The URL it listens at (`http://host:port`). */
  url: string;
  port: number;
  close(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): void {
  json(res, status, { jsonrpc: "2.0", id, error: { code, message } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error(`request body over ${MAX_BODY / 1024} KiB`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** v0.3 when the client names no version or a 0.x one (as the SDK's adapter decides). */
function isLegacy(version: string | undefined): boolean {
  return version === undefined || version.trim() === "" || /^0\./.test(version.trim());
}

/** What the server serves, made once it knows where it listens (the card names its own URL). */
interface Served {
  card: AgentCard;
  v1: JsonRpcTransportHandler;
  v03: LegacyJsonRpcTransportHandler;
  cards: { v1: string; v03: string };
  /** Where JSON-RPC is taken: `/`, and the card endpoint's path (a `--card-url` behind a proxy). */
  endpoints: Set<string>;
}

export async function startAssessorServer(options: {
  host: string;
  port: number;
  /** The card, given the URL the server listens at. */
  cardFor(listening: string): Promise<AgentCard>;
  executor: AgentExecutor;
  token?: string;
  log(line: string): void;
}): Promise<AssessorServer> {
  let served!: Served;
  let ready!: () => void;
  const serving = new Promise<void>((resolve) => {
    ready = resolve;
  });

  async function rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { card, v1, v03 } = served;
    const version = header(req, A2A_VERSION_HEADER);
    const legacy = isLegacy(version);
    if (options.token !== undefined) {
      const auth = header(req, "authorization") ?? "";
      const given = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
      if (!sameSecret(given, options.token))
        return json(
          res,
          401,
          {
            jsonrpc: "2.0",
            id: null,
            error: { code: INVALID_REQUEST, message: "missing or wrong bearer token" },
          },
          { "www-authenticate": 'Bearer realm="bazaar assessor"' },
        );
    }
    const type = header(req, "content-type");
    if (type && !JSON_TYPES.has(type.split(";")[0]!.trim().toLowerCase()))
      return rpcError(
        res,
        200,
        INVALID_REQUEST,
        `unsupported Content-Type "${type}"; expected application/json`,
      );
    let body: Record<string, unknown>;
    try {
      const parsed = JSON.parse(await readBody(req)) as unknown;
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
        return rpcError(res, 200, INVALID_REQUEST, "a JSON-RPC request is a JSON object");
      body = parsed as Record<string, unknown>;
    } catch (err) {
      return rpcError(
        res,
        200,
        PARSE_ERROR,
        `invalid JSON payload: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const mapError = legacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    const id = body.id ?? null;
    try {
      const context = defaultServerCallContextBuilder({
        extensions: Extensions.parseServiceParameter(header(req, HTTP_EXTENSION_HEADER)),
        user: new UnauthenticatedUser(),
        headers: req.headers,
        requestedVersion: version,
      });
      validateVersion(context.requestedVersion, card, "JSONRPC");
      const answer = legacy ? await v03.handle(body, context) : await v1.handle(body, context);
      if (typeof (answer as AsyncGenerator)[Symbol.asyncIterator] !== "function")
        return json(res, 200, answer);
      const stream = (answer as AsyncGenerator<unknown>)[Symbol.asyncIterator]();
      let first: IteratorResult<unknown>;
      try {
        first = await stream.next();
      } catch (err) {
        // Before the stream starts, an error is a plain JSON-RPC answer.
        return json(res, 200, { jsonrpc: "2.0", id, error: mapError(err) });
      }
      res.writeHead(200, SSE_HEADERS);
      // A client that goes away stops reading, not the stream: the SDK keeps the task's state in the
      // stream's own loop, so it is drained to the end and tasks/get (or a resubscription) finds the
      // audit as it ended. Writes to a gone client are dropped.
      const write = (chunk: string) => {
        if (!res.destroyed && !res.writableEnded) res.write(chunk);
      };
      // A comment line now and then: an audit's trial may take minutes without an event, and clients
      // and proxies drop a stream that says nothing for long (undici after 300 s).
      const beat = setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      beat.unref();
      try {
        if (!first.done) write(formatSSEEvent(first.value));
        for (let next = await stream.next(); !next.done; next = await stream.next())
          write(formatSSEEvent(next.value));
      } catch (err) {
        write(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: mapError(err) }));
      } finally {
        clearInterval(beat);
        if (!res.writableEnded) res.end();
      }
    } catch (err) {
      const mapped = mapError(err);
      if (!res.headersSent)
        json(res, mapped.code === -32603 ? 500 : 200, { jsonrpc: "2.0", id, error: mapped });
      else if (!res.writableEnded) res.end();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await serving;
    const { cards, endpoints } = served;
    const path = (req.url ?? "/").split("?")[0]!;
    if (
      CARD_PATHS.has(path) ||
      [...endpoints].some((e) => path === `${e.replace(/\/$/, "")}/.well-known/agent-card.json`)
    ) {
      if (req.method !== "GET" && req.method !== "HEAD") return json(res, 405, { error: "GET the card" });
      // v1.0 clients ask for it by version; others get v0.3's card, which embeds the v1.0 interfaces.
      const body = isLegacy(header(req, A2A_VERSION_HEADER)) ? cards.v03 : cards.v1;
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "no-cache",
        vary: A2A_VERSION_HEADER,
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    if (endpoints.has(path)) {
      if (req.method !== "POST") return json(res, 405, { error: "POST JSON-RPC requests here" });
      return rpc(req, res);
    }
    json(res, 404, { error: `nothing at ${path}: the card is at /.well-known/agent-card.json` });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log(
        `assessor: request failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      if (!res.headersSent) rpcError(res, 500, -32603, "internal error");
      else if (!res.writableEnded) res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const h = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${h}:${port}`;
  try {
    const card = await options.cardFor(url);
    const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), options.executor);
    const wire = AgentCardJson.toJSON(card) as Record<string, unknown>;
    served = {
      card,
      v1: new JsonRpcTransportHandler(handler),
      v03: new LegacyJsonRpcTransportHandler(handler),
      cards: { v1: JSON.stringify(wire), v03: JSON.stringify(legacyCard(card, wire)) },
      endpoints: new Set(["/", new URL(card.supportedInterfaces[0]!.url).pathname]),
    };
    ready();
  } catch (err) {
    server.close();
    server.closeAllConnections();
    throw err;
  }
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
