/**
 * MCP over Streamable HTTP for outside agents: one HTTP server, routes that each make a new MCP
 * server per session (`bazaar serve`: one route for the run; `exec:`: one private route per episode,
 * whose path carries an unguessable token). A route may also demand a bearer token. DNS-rebinding
 * protection is on: a request whose Host is not the address served is refused — nor the public URL
 * the host is reached at from elsewhere, when it has one (an `a2a:` agent on another machine reaching
 * its episode's endpoint through `serve-assessor --mcp-public-url`).
 */
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

/** What a route does when a session starts on it: the session's server, told when the session ends. */
export interface McpRoute {
  /** A bearer token every request must carry (besides the path's own secret, if any). */
  token?: string;
  newSession(): { server: Server; closed(): void };
}

interface Session {
  route: string;
  transport: StreamableHTTPServerTransport;
  closed(): void;
  /** Open GET streams (the client's standing line for server messages). */
  streams: number;
  /** Set when the last stream closed: the session ends unless a stream opens again in time. */
  goneTimer?: NodeJS.Timeout;
}

/**
 * A client that closes without ending its session (the TypeScript SDK's `close()` sends no DELETE)
 * drops its GET stream: the session counts as closed when no stream comes back within this long.
 */
const STREAM_GRACE_MS = 1500;

/** 32 random bytes, URL-safe: a secret to put in a path or a header. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error("request body over 4 MiB");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export class McpHttpHost {
  private readonly routes = new Map<string, McpRoute>();
  private readonly sessions = new Map<string, Session>();
  private allowedHosts: string[] = [];

  private constructor(
    private readonly http: HttpServer,
    readonly host: string,
    /** Where clients reach the host when that is not the address it listens on (an origin, no path). */
    private readonly publicUrl?: URL,
  ) {}

  /**
   * Listens on `host:port` (0: a free port). With `publicUrl`, the URLs it gives out are under that
   * origin, and requests addressed to it (its Host) are taken beside those to the address served.
   */
  static async start(host: string, port: number, publicUrl?: string): Promise<McpHttpHost> {
    const http = createServer();
    const self = new McpHttpHost(http, host, publicUrl === undefined ? undefined : new URL(publicUrl));
    http.on("request", (req, res) => {
      self.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) jsonError(res, 500, err instanceof Error ? err.message : String(err));
        else res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, host, () => {
        http.off("error", reject);
        resolve();
      });
    });
    const bound = (http.address() as AddressInfo).port;
    const names = new Set([host, host === "127.0.0.1" || host === "::1" ? "localhost" : host]);
    self.allowedHosts = [...names].map((h) => `${h.includes(":") ? `[${h}]` : h}:${bound}`);
    // URL's host is what a client sends as Host: the port only when not the scheme's default.
    if (self.publicUrl) self.allowedHosts.push(self.publicUrl.host);
    return self;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  url(path: string): string {
    if (this.publicUrl) return `${this.publicUrl.origin}${path}`;
    const h = this.host.includes(":") ? `[${this.host}]` : this.host;
    return `http://${h}:${this.port}${path}`;
  }

  addRoute(path: string, route: McpRoute): void {
    this.routes.set(path, route);
  }

  /** Drops a route and closes its sessions (an `exec:` episode that ended). */
  async removeRoute(path: string): Promise<void> {
    this.routes.delete(path);
    const closing: Promise<void>[] = [];
    for (const [id, s] of this.sessions)
      if (s.route === path) {
        this.sessions.delete(id);
        closing.push(s.transport.close().catch(() => {}));
      }
    await Promise.all(closing);
  }

  /** Stops taking requests; answers already being written get a moment to reach their clients. */
  async close(graceMs = 1000): Promise<void> {
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeIdleConnections();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([closed, grace]);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => {})));
    this.sessions.clear();
    this.http.closeAllConnections();
    await closed;
  }

  /** Counts a session's GET streams; when the last closes and none reopens, the session is over. */
  private watchStream(id: string, session: Session, res: ServerResponse): void {
    session.streams++;
    if (session.goneTimer) clearTimeout(session.goneTimer);
    session.goneTimer = undefined;
    res.once("close", () => {
      session.streams--;
      if (session.streams > 0 || this.sessions.get(id) !== session) return;
      session.goneTimer = setTimeout(() => {
        if (session.streams > 0 || this.sessions.get(id) !== session) return;
        this.sessions.delete(id);
        session.transport.close().catch(() => {});
        session.closed();
      }, STREAM_GRACE_MS);
      session.goneTimer.unref();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] as string;
    const route = this.routes.get(path);
    if (!route) {
      // An unknown path under a route prefix is a wrong secret, not a missing page.
      return jsonError(res, path.startsWith("/episode/") ? 401 : 404, `no MCP endpoint at ${path}`);
    }
    if (route.token !== undefined) {
      const auth = req.headers.authorization ?? "";
      const given = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
      if (!sameSecret(given, route.token)) {
        res.setHeader("www-authenticate", 'Bearer realm="bazaar"');
        return jsonError(res, 401, "missing or wrong bearer token");
      }
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = this.sessions.get(sessionId);
      if (!session || session.route !== path) return jsonError(res, 404, "unknown MCP session");
      if (req.method === "GET") this.watchStream(sessionId, session, res);
      const body = req.method === "POST" ? await readJson(req) : undefined;
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST") return jsonError(res, 400, "no MCP session: initialize first");
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (err) {
      return jsonError(res, 400, `unreadable request: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isInitializeRequest(body)) return jsonError(res, 400, "no MCP session: initialize first");
    const { server, closed } = route.newSession();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      closed();
    };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // One JSON body per call instead of an SSE stream: no call sends notifications, and the SSE
      // pumping cost ~10% of an episode's CPU (bench/mcp.ts). The GET stream stays (see watchStream).
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: this.allowedHosts,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { route: path, transport, closed: end, streams: 0 });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        end();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
      end();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
