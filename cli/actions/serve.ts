/**
 * `bazaar serve <env>`: the run of `run <env>` with one agent slot played by an outside agent over
 * MCP (`mcp:<name>`). Each MCP session plays the next unfinished trial, claimed at its first tool
 * call under the run's leases, so sessions, several servers, or a server beside `run` never play a
 * trial twice. The rest — store, resume, live view, summary, analysis — is the run's own.
 */
import { SessionHub } from "../../agents/outside/sessions.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { environmentNamed, shopSurfaceName, surfaceEnvironment } from "../../environments/registry.ts";
import { parseOption, positiveInt } from "../options.ts";
import type { Output } from "../output.ts";
import type { EnvironmentCli } from "../run/index.ts";
import { type RunOptions, runEnvironment } from "./run.ts";

export interface ServeOptions extends RunOptions {
  agentName: string;
  role: string;
  maxAbandons: string;
  port: string;
  host: string;
  token?: string;
  stdio?: boolean;
  keepOpen?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The agent option of the role the outside agent plays (`--agent`, or `--buyer`/`--seller`). */
function slotOf(env: string, role: string): { role: string; option: string } {
  const roles = environmentNamed(env).roles;
  if (roles.length === 1) return { role: roles[0] as string, option: "agent" };
  if (!roles.includes(role))
    throw new UserError(`--role: ${env} has no role "${role}"`, `the roles are ${roles.join(", ")}`);
  return { role, option: role };
}

export async function serveEnvironment(envCli: EnvironmentCli, o: ServeOptions, out: Output): Promise<void> {
  if (!NAME.test(o.agentName))
    throw new UserError(
      `--agent-name "${o.agentName}": letters, digits, dot, dash and underscore only (up to 64)`,
      "e.g. --agent-name my-agent",
    );
  const slot = slotOf(envCli.name, o.role);
  if (o[slot.option] !== undefined)
    throw new UserError(
      `--${slot.option} is the outside agent in serve: it is named by --agent-name`,
      `drop --${slot.option} ${String(o[slot.option])}`,
    );
  const { z } = await import("zod");
  const port = parseOption("port", z.coerce.number().int().min(0).max(65_535), o.port);
  const maxAbandons = parseOption("max-abandons", positiveInt, o.maxAbandons);
  // The live dashboard draws on stdout, which --stdio gives to the MCP channel.
  if (o.stdio && o.watch)
    throw new UserError(
      "--watch draws on stdout, which --stdio uses for MCP",
      "serve over HTTP to watch, or drop --watch",
    );
  if (!o.stdio && !LOOPBACK.has(o.host) && !o.token)
    throw new UserError(
      `serving on ${o.host} (off loopback) needs --token`,
      "give --token <secret> (every request must then carry Authorization: Bearer <secret>), or serve on 127.0.0.1",
    );
  // With --stdio, stdout is the MCP channel: everything bazaar says goes to stderr.
  const said: Output = o.stdio ? { log: (l) => out.error(l), error: (l) => out.error(l) } : out;
  const spec = `mcp:${o.agentName}`;
  const hub = new SessionHub(o.stdio === true, maxAbandons);
  const version = (await import("../version.ts")).VERSION;
  const { episodeServer, serveInstructions } = await import("../../agents/outside/mcp.ts");
  const { surfaceOf } = await import("../../environments/kernel/surface.ts");
  // A shop whose listings take offers gives the outside shopper the offer tool too; one with a
  // client, message_client.
  const offers = envCli.name === "shop" && o.negotiable !== undefined && Number(o.negotiable) > 0;
  const client = envCli.name === "shop" && o.client !== undefined;
  const surface = surfaceOf(
    surfaceEnvironment(envCli.name === "shop" ? shopSurfaceName({ offers, client }) : envCli.name),
    slot.role,
  );
  const newSession = () => {
    const s = hub.session();
    return {
      server: episodeServer(surface, s.episodes, serveInstructions(surface), version),
      closed: s.closed,
    };
  };
  let host: import("../../agents/outside/http.ts").McpHttpHost | null = null;
  let stdio: { close(): Promise<void> } | null = null;
  try {
    await runEnvironment(envCli, { ...o, [slot.option]: spec }, said, {
      link: hub.link,
      admit: hub.admit,
      ready: async (plan, left) => {
        const n = (x: number) => x.toLocaleString("en-US");
        if (o.stdio) {
          const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
          const session = newSession();
          const transport = new StdioServerTransport();
          // The client closed stdin: its episode in play fails (played again later), and the run stops.
          const ended = () => {
            session.closed();
            process.emit("SIGTERM");
          };
          process.stdin.once("end", ended);
          await session.server.connect(transport);
          stdio = {
            close: async () => {
              process.stdin.off("end", ended);
              session.closed();
              await session.server.close();
              process.stdin.destroy();
            },
          };
          said.error(
            `serving run ${plan.runId} to ${spec} on stdio: ${n(left)} trial${left === 1 ? "" : "s"} to play (of ${n(plan.total)} in the run)`,
          );
          return;
        }
        const { McpHttpHost } = await import("../../agents/outside/http.ts");
        try {
          host = await McpHttpHost.start(o.host, port);
        } catch (err) {
          const code = (err as { code?: string }).code;
          throw new UserError(
            `cannot listen on ${o.host}:${port}: ${code === "EADDRINUSE" ? "the port is in use" : err instanceof Error ? err.message : String(err)}`,
            "choose another --port (0 picks a free one)",
          );
        }
        host.addRoute("/mcp", { ...(o.token ? { token: o.token } : {}), newSession });
        said.error(
          `serving run ${plan.runId} to ${spec} at ${host.url("/mcp")} (MCP, Streamable HTTP${o.token ? ", bearer token" : ""}): ${n(left)} trial${left === 1 ? "" : "s"} to play (of ${n(plan.total)} in the run); each session plays the next one`,
        );
      },
      again: async (result) => result.stored < result.target,
    });
    hub.close("the run is complete: every trial is stored");
    if (o.keepOpen && !o.stdio) {
      said.error("the run is complete; staying up (--keep-open) until stopped");
      await new Promise<void>((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
      });
    }
  } finally {
    hub.close("the server is stopping");
    await (stdio as { close(): Promise<void> } | null)?.close();
    await (host as import("../../agents/outside/http.ts").McpHttpHost | null)?.close();
  }
}
