/**
 * The private MCP endpoint of one `a2a:` episode: a route `/episode/<secret>` on a Streamable HTTP
 * host shared by the process's episodes (started by the first, closed when the last is done) —
 * exactly what an `exec:` program gets (exec.ts), so an agent plays through the tools it would use
 * anywhere. The URL is the only credential, valid for its episode only; it goes to the agent in the
 * opening message and nowhere else (it is not stored).
 *
 * The host listens on 127.0.0.1 unless the run says otherwise (`EpisodeHost`): an agent on another
 * machine reaches 127.0.0.1 only through a tunnel of its own, as it would reach `bazaar serve`
 * (DESIGN.md § Agents from outside); `serve-assessor`, whose participants are elsewhere, listens
 * where they can reach it and hands out URLs under its public URL.
 */
import type { ToolSurface } from "../../environments/kernel/surface.ts";
import type { McpHttpHost } from "./http.ts";
import type { EpisodeLink } from "./waiting.ts";

/** The server's version in MCP's initialize (bazaar's). */
const SERVER_VERSION = "0.1.0";

/** Where the episodes' MCP host listens, and the origin agents are told to reach it at. */
export interface EpisodeHost {
  host: string;
  /** 0: a free port. */
  port: number;
  /** An origin (`https://assessor.example.com:9100`) where the host is reached from elsewhere. */
  publicUrl?: string;
}

export const LOOPBACK_EPISODES: EpisodeHost = { host: "127.0.0.1", port: 0 };

interface Shared {
  key: string;
  ready: Promise<{ host: McpHttpHost; http: typeof import("./http.ts"); mcp: typeof import("./mcp.ts") }>;
  users: number;
}

/** One host per place it listens (a process's runs usually share the loopback one). */
const hosts = new Map<string, Shared>();
/** Hosts being closed: a new one on the same fixed port waits until the old one lets go of it. */
const closing = new Map<string, Promise<void>>();

function acquire(where: EpisodeHost): Shared {
  const key = `${where.host} ${where.port} ${where.publicUrl ?? ""}`;
  let s = hosts.get(key);
  if (!s) {
    const ready = (async () => {
      await closing.get(key);
      const [http, mcp] = await Promise.all([import("./http.ts"), import("./mcp.ts")]);
      return { host: await http.McpHttpHost.start(where.host, where.port, where.publicUrl), http, mcp };
    })();
    ready.catch(() => {});
    s = { key, ready, users: 0 };
    hosts.set(key, s);
  }
  s.users++;
  return s;
}

function release(s: Shared): void {
  s.users--;
  if (s.users > 0) return;
  if (hosts.get(s.key) === s) hosts.delete(s.key);
  const closed = s.ready.then(({ host }) => host.close()).catch(() => {});
  closing.set(s.key, closed);
  closed.then(() => {
    if (closing.get(s.key) === closed) closing.delete(s.key);
  });
}

/**
 * Starts the host `where` names now and keeps it up until `release` (idempotent): a server that runs
 * one run after another (`serve-assessor`) learns at its start that it can listen there, and its
 * runs' episodes share the one host. Rejects when the host cannot listen (the port is taken).
 */
export async function holdEpisodeHost(where: EpisodeHost): Promise<{ url: string; release(): void }> {
  const s = acquire(where);
  try {
    const { host } = await s.ready;
    let held = true;
    return {
      url: host.url("/"),
      release: () => {
        if (!held) return;
        held = false;
        release(s);
      },
    };
  } catch (err) {
    release(s);
    throw err;
  }
}

/** An episode's endpoint: its URL, and `close` (idempotent) that drops the route and its sessions. */
export interface EpisodeEndpoint {
  url: string;
  close(): void;
}

/** Opens the endpoint of `link`'s episode: its tools, `get_task`, the task as MCP instructions. */
export async function openEndpoint(
  link: EpisodeLink,
  surface: ToolSurface,
  where: EpisodeHost = LOOPBACK_EPISODES,
): Promise<EpisodeEndpoint> {
  const s = acquire(where);
  let ready: Awaited<Shared["ready"]>;
  try {
    ready = await s.ready;
  } catch (err) {
    release(s);
    throw err;
  }
  const { host, http, mcp } = ready;
  const route = `/episode/${http.newSecret()}`;
  host.addRoute(route, {
    newSession: () => ({
      server: mcp.episodeServer(surface, { episode: async () => link }, link.task.text, SERVER_VERSION),
      closed: () => {},
    }),
  });
  let closed = false;
  return {
    url: host.url(route),
    close: () => {
      if (closed) return;
      closed = true;
      host
        .removeRoute(route)
        .catch(() => {})
        .finally(() => release(s));
    },
  };
}
