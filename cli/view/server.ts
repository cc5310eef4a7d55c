/**
 * `bazaar view`'s server, on node:http: read-only (GET and HEAD only), the app's page and files,
 * and JSON under /api/ from ViewData. On loopback by default; off it, a token is required (the CLI
 * refuses to start without one), taken from the `Authorization: Bearer` header, or from `?token=`
 * once — which sets an HttpOnly cookie and redirects to the same page without it, so the token
 * stays out of links and history. Requests naming another host than the server's own are refused
 * (a page elsewhere cannot reach a loopback server through a DNS name of its own).
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { UserError } from "../../environments/kernel/errors.ts";
import { ASSETS, type AssetName, CSP, indexHtml, readAsset } from "./assets.ts";
import type { ViewData } from "./data.ts";
import { ViewRequestError } from "./episodes.ts";

export interface ServerOptions {
  host: string;
  port: number;
  token: string | null;
}

const COOKIE = "bazaar_view_token";
const TYPES: Record<AssetName, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "charts.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === COOKIE) return decodeURIComponent(v.join("="));
  }
  return null;
}

function headers(res: ServerResponse, type: string, cache: string): void {
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cache-Control", cache);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  cache = "no-store",
): void {
  headers(res, type, cache);
  res.statusCode = status;
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** The names this server answers to: what it listens on, and localhost names on loopback. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host.includes(":") && !host.startsWith("[") ? `[${host}]` : host]);
  if (["127.0.0.1", "localhost", "::1", "[::1]"].includes(host))
    for (const n of ["127.0.0.1", "localhost", "[::1]"]) names.add(n);
  return new Set([...names].map((n) => `${n}:${port}`));
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Routes one request; `data` answers the API. */
export function handle(
  data: ViewData,
  o: ServerOptions & { hosts: Set<string> | null },
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const url = new URL(req.url ?? "/", "http://view.invalid");
  if (o.hosts && !o.hosts.has(req.headers.host ?? "")) {
    send(res, 421, "text/plain", "wrong host\n");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    send(res, 405, "text/plain", "bazaar view is read-only\n");
    return;
  }
  if (o.token !== null) {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const query = url.searchParams.get("token");
    if (query !== null && sameToken(query, o.token)) {
      // Once, in the address: kept in a cookie, and the address without it.
      url.searchParams.delete("token");
      res.setHeader(
        "Set-Cookie",
        `${COOKIE}=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/`,
      );
      res.setHeader("Location", `${url.pathname}${url.search}`);
      send(res, 303, "text/plain", "");
      return;
    }
    if (!sameToken(bearer, o.token) && !sameToken(cookieToken(req), o.token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="bazaar view"');
      send(res, 401, "text/plain", "bazaar view: a token is needed (open the address the server printed)\n");
      return;
    }
  }
  const p = url.pathname;
  if (p.startsWith("/assets/")) {
    const name = p.slice("/assets/".length) as AssetName;
    if (!(ASSETS as readonly string[]).includes(name)) {
      send(res, 404, "text/plain", "not found\n");
      return;
    }
    send(res, 200, TYPES[name], readAsset(name), "no-cache");
    return;
  }
  if (!p.startsWith("/api/")) {
    send(res, 200, "text/html; charset=utf-8", indexHtml("/assets/"));
    return;
  }
  try {
    json(res, 200, api(data, p.slice("/api".length), url.searchParams));
  } catch (err) {
    if (err instanceof ViewRequestError) {
      json(res, err.status, { error: err.message });
      return;
    }
    if (err instanceof UserError) {
      json(res, 400, { error: err.message, hint: err.hint });
      return;
    }
    json(res, 500, { error: err instanceof Error ? err.message : String(err) });
  }
}

function api(data: ViewData, p: string, q: URLSearchParams): unknown {
  const parts = p.split("/").filter(Boolean).map(decodeURIComponent);
  const [head, id, sub, seq] = parts;
  if (head === "runs" && id === undefined) return data.runs();
  if (head === "runs" && id !== undefined) {
    if (sub === undefined) return data.runPage(id);
    if (sub === "analysis" && seq === undefined) return data.analysis(id);
    if (sub === "live" && seq === undefined) return data.live(id);
    if (sub === "episodes" && seq === undefined) return data.episodes(id, q);
    if (sub === "episodes" && seq !== undefined && /^\d+$/.test(seq)) return data.episode(id, Number(seq));
  }
  if (head === "markets" && id !== undefined && sub === undefined) return data.market(id);
  if (head === "compare" && id === undefined) return data.compare(q);
  throw new ViewRequestError(`no such page: /api${p}`, 404);
}

/** Starts listening; resolves with the server and the address it took (`port` 0: any free port). */
export function startServer(data: ViewData, o: ServerOptions): Promise<{ server: Server; url: string }> {
  return new Promise((resolve, reject) => {
    let hosts: Set<string> | null = null;
    const server = createServer((req, res) => handle(data, { ...o, hosts }, req, res));
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE"
          ? new UserError(
              `port ${o.port} on ${o.host} is taken`,
              "choose another with --port, or --port 0 for any free one",
            )
          : err,
      ),
    );
    server.listen(o.port, o.host, () => {
      const a = server.address();
      const port = typeof a === "object" && a ? a.port : o.port;
      // Off loopback the host header is whatever name the network gives the machine: the token guards it.
      hosts = isLoopback(o.host) ? allowedHosts(o.host, port) : null;
      const shown = o.host.includes(":") && !o.host.startsWith("[") ? `[${o.host}]` : o.host;
      resolve({ server, url: `http://${shown}:${port}/` });
    });
  });
}
