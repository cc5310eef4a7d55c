/**
 * `bazaar serve-assessor`: bazaar as an assessor over A2A (issue 33 item 4) — the shape evaluation
 * platforms that assess over A2A expect of one (AgentBeats' green agents): an A2A server whose one
 * skill audits the agent at a URL in one of bazaar's environments (executor.ts), its runs stored in
 * the assessor's `--store` like any run (`bazaar runs`, `analyze`, `watch` and `view` read them).
 *
 * Where things listen: the A2A server on `--host:--port` (off loopback only with `--token`, as
 * `bazaar serve`), its card naming `--card-url` when clients reach it at another address (a
 * container's, a proxy's); the participants' per-episode MCP endpoints on `--mcp-host:--mcp-port`,
 * handed out under `--mcp-public-url` — a participant on another machine must reach them, and each
 * episode's URL carries its own secret, so they take no token.
 */
import { type EpisodeHost, holdEpisodeHost } from "../../agents/outside/a2a-endpoint.ts";
import { parseA2aHeaders } from "../../agents/outside/a2a-headers.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { parseOption } from "../options.ts";
import type { Output } from "../output.ts";
import { shownStore } from "../store-option.ts";
import type { AuditSettings } from "./audit.ts";
import { assessorCard } from "./card.ts";
import { AssessorExecutor } from "./executor.ts";
import { AuditQueue } from "./queue.ts";
import { type AssessorServer, startAssessorServer } from "./server.ts";

export interface ServeAssessorOptions {
  host: string;
  port: string;
  cardUrl?: string;
  token?: string;
  store: string;
  maxQueued: string;
  mcpHost: string;
  mcpPort: string;
  mcpPublicUrl?: string;
  a2aHeader?: string[];
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
/** Addresses that listen everywhere: no URL names them. */
const UNSPECIFIED = new Set(["0.0.0.0", "::", "[::]"]);

/** An http(s) URL, checked: `what` names the flag in the message. */
function httpUrl(flag: string, value: string, originOnly: boolean): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UserError(`${flag} ${value}: not a URL`, `e.g. ${flag} https://assessor.example.com:9100`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new UserError(`${flag} ${value}: an http: or https: URL, not ${u.protocol}`);
  if (u.username || u.password || u.search || u.hash)
    throw new UserError(`${flag} ${value}: a URL without credentials, query or fragment`);
  if (originOnly && u.pathname !== "/")
    throw new UserError(
      `${flag} ${value}: an origin without a path (the endpoints' paths are bazaar's: /episode/<secret>)`,
      `e.g. ${flag} ${u.origin}`,
    );
  return u;
}

/** The options, checked before anything listens. */
async function checked(o: ServeAssessorOptions) {
  const { z } = await import("zod");
  const portOf = (flag: string, v: string) =>
    parseOption(flag, z.coerce.number().int().min(0).max(65_535), v);
  const port = portOf("port", o.port);
  const mcpPort = portOf("mcp-port", o.mcpPort);
  const maxQueued = parseOption("max-queued", z.coerce.number().int().min(0).max(1000), o.maxQueued);
  if (!LOOPBACK.has(o.host) && !o.token)
    throw new UserError(
      `serving on ${o.host} (off loopback) needs --token`,
      "give --token <secret> (every JSON-RPC request must then carry Authorization: Bearer <secret>), or serve on 127.0.0.1",
    );
  if (o.token !== undefined && o.token.trim().length < 16)
    throw new UserError("--token: at least 16 characters", "e.g. --token $(openssl rand -hex 32)");
  const cardUrl = o.cardUrl === undefined ? undefined : httpUrl("--card-url", o.cardUrl, false);
  const mcpPublic =
    o.mcpPublicUrl === undefined ? undefined : httpUrl("--mcp-public-url", o.mcpPublicUrl, true);
  if (UNSPECIFIED.has(o.mcpHost) && !mcpPublic)
    throw new UserError(
      `--mcp-host ${o.mcpHost} listens on every address, and no URL names them all`,
      "give --mcp-public-url <origin> (where participants reach this machine's --mcp-port), or an --mcp-host address they can reach",
    );
  if (UNSPECIFIED.has(o.mcpHost) && mcpPort === 0)
    throw new UserError(
      "--mcp-port 0 picks a port no one outside knows in advance",
      "give --mcp-port <n> (the port --mcp-public-url reaches)",
    );
  // Read now: a header whose $VAR is not set stops the server here, not the first audit.
  parseA2aHeaders(o.a2aHeader ?? []);
  const episodes: EpisodeHost = {
    host: o.mcpHost,
    port: mcpPort,
    ...(mcpPublic ? { publicUrl: mcpPublic.origin } : {}),
  };
  return { port, maxQueued, cardUrl, episodes };
}

/** A running assessor: where it is, and how to stop it (audits under way end as failed). */
export interface RunningAssessor {
  url: string;
  /** Where its card says it is (`--card-url`, or where it listens). */
  cardUrl: string;
  stop(): Promise<void>;
}

/** Starts the assessor; every problem with its options or its ports is a UserError, before it listens. */
export async function startAssessor(o: ServeAssessorOptions, out: Output): Promise<RunningAssessor> {
  const { port, maxQueued, cardUrl, episodes } = await checked(o);
  let held: Awaited<ReturnType<typeof holdEpisodeHost>>;
  try {
    held = await holdEpisodeHost(episodes);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new UserError(
      `cannot listen on ${o.mcpHost}:${episodes.port} for the participants' MCP endpoints: ${code === "EADDRINUSE" ? "the port is in use" : err instanceof Error ? err.message : String(err)}`,
      "choose another --mcp-port (0 picks a free one)",
    );
  }
  const settings: AuditSettings = { store: o.store, a2aHeader: o.a2aHeader ?? [], episodes };
  const queue = new AuditQueue(maxQueued);
  const log = (line: string) => out.error(line);
  let server: AssessorServer;
  try {
    server = await startAssessorServer({
      host: o.host,
      port,
      token: o.token,
      executor: new AssessorExecutor(queue, settings, log),
      cardFor: (listening) =>
        assessorCard({ endpoint: (cardUrl ?? new URL(`${listening}/`)).href, token: o.token !== undefined }),
      log,
    });
  } catch (err) {
    held.release();
    const code = (err as { code?: string }).code;
    throw new UserError(
      `cannot listen on ${o.host}:${port}: ${code === "EADDRINUSE" ? "the port is in use" : err instanceof Error ? err.message : String(err)}`,
      "choose another --port (0 picks a free one)",
    );
  }
  const card = cardUrl ? cardUrl.href : `${server.url}/`;
  out.error(
    `bazaar assessor at ${server.url} (A2A v1.0 and v0.3 over JSON-RPC${o.token ? ", bearer token" : ""}); card ${new URL(".well-known/agent-card.json", card).href}`,
  );
  out.error(
    `audits one at a time (up to ${maxQueued} waiting), stored in ${shownStore(o.store)}; participants' MCP endpoints under ${held.url.replace(/\/$/, "")}`,
  );
  if (LOOPBACK.has(episodes.host) && !episodes.publicUrl)
    out.error(
      "participants reach their MCP endpoints on this machine only (127.0.0.1): for agents elsewhere, give --mcp-host and --mcp-public-url",
    );
  let stopping: Promise<void> | null = null;
  return {
    url: server.url,
    cardUrl: card,
    stop: () => {
      stopping ??= (async () => {
        await queue.stop();
        await server.close();
        held.release();
      })();
      return stopping;
    },
  };
}

/** `bazaar serve-assessor`: the assessor until Ctrl-C or SIGTERM. */
export async function serveAssessor(o: ServeAssessorOptions, out: Output): Promise<void> {
  const running = await startAssessor(o, out);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  out.error(
    "stopping: audits under way end as failed (what they stored stays; the same request resumes them)",
  );
  await running.stop();
}
