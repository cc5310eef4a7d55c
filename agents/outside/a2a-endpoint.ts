/**
 * The private MCP endpoint of one `a2a:` episode: a route `/episode/<secret>` on a Streamable HTTP
 * host on 127.0.0.1 shared by the process's episodes (started by the first, closed when the last is
 * done) — exactly what an `exec:` program gets (exec.ts), so an agent plays through the tools it
 * would use anywhere. The URL is the only credential, valid for its episode only; it goes to the
 * agent in the opening message and nowhere else (it is not stored).
 *
 * The host is the agent's way in: an agent on another machine reaches 127.0.0.1 only through a
 * tunnel of its own, as it would reach `bazaar serve` (DESIGN.md § Agents from outside).
 */
import type { ToolSurface } from "../../environments/kernel/surface.ts";
import type { McpHttpHost } from "./http.ts";
import type { EpisodeLink } from "./waiting.ts";

/** The server's version in MCP's initialize (bazaar's). */
const SERVER_VERSION = "0.1.0";

interface Shared {
  ready: Promise<{ host: McpHttpHost; http: typeof import("./http.ts"); mcp: typeof import("./mcp.ts") }>;
  users: number;
}

let shared: Shared | null = null;

function acquire(): Shared {
  if (!shared) {
    const ready = (async () => {
      const [http, mcp] = await Promise.all([import("./http.ts"), import("./mcp.ts")]);
      return { host: await http.McpHttpHost.start("127.0.0.1", 0), http, mcp };
    })();
    ready.catch(() => {});
    shared = { ready, users: 0 };
  }
  shared.users++;
  return shared;
}

function release(s: Shared): void {
  s.users--;
  if (s.users > 0) return;
  if (shared === s) shared = null;
  s.ready.then(({ host }) => host.close()).catch(() => {});
}

/** An episode's endpoint: its URL, and `close` (idempotent) that drops the route and its sessions. */
export interface EpisodeEndpoint {
  url: string;
  close(): void;
}

/** Opens the endpoint of `link`'s episode: its tools, `get_task`, the task as MCP instructions. */
export async function openEndpoint(link: EpisodeLink, surface: ToolSurface): Promise<EpisodeEndpoint> {
  const s = acquire();
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
