/**
 * `bazaar serve <env>`: the run of `run <env>` with one agent slot played by an outside agent over
 * MCP (`mcp:<name>`). Each MCP session plays the next unfinished trial, claimed at its first tool
 * call under the run's leases, so sessions, several servers, or a server beside `run` never play a
 * trial twice. The rest — store, resume, live view, summary, analysis — is the run's own.
 *
 * Two roles are played inside other agents' episodes rather than as their own: a shop's seller
 * (`serve shop --negotiable <r> --role seller`) answers each negotiation the shoppers open, one MCP
 * session a negotiation, several of an episode at once; a market's seller (`serve market`) plays the
 * adopters' seller turns, one session a turn, between rounds of buyer episodes. Their episodes come
 * when the run reaches them, so no session is waited for before a trial starts.
 */
import { SessionHub } from "../../agents/outside/sessions.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { SHOP_SELLER, shopSurfaceName } from "../../environments/registry.ts";
import { SERVED } from "../commands/served.ts";
import { parseOption, positiveInt } from "../options.ts";
import type { Output } from "../output.ts";
import type { EnvironmentCli } from "../run/index.ts";
import { type RunOptions, runEnvironment, type ServeHooks } from "./run.ts";

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
/** The shoppers a served shop seller meets unless `--agent` names others: one that haggles with several sellers at once. */
export const SERVED_SELLER_SHOPPERS = "sim:seller-playing-haggler";

/** The slot the outside agent plays in a served run. */
interface ServedSlot {
  /** The option (its attribute, and its flag) of `run <env>` that names the slot's agents. */
  option: string;
  flag: string;
  /** The tool surface the agent is given (by name) and its role there. */
  surface: string;
  role: string;
  /**
   * Its episodes come inside the run's own (a shop's negotiations, a market's seller turns), so no
   * trial waits for a session before it starts.
   */
  inside: boolean;
  /** What one MCP session plays, for the line that says where to connect. */
  session: string;
}

/** `--seller-negotiator` → `sellerNegotiator` (commander's attribute name). */
function attributeOf(flag: string): string {
  return flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `sellerNegotiator` → `--seller-negotiator`. */
function flagOf(attribute: string): string {
  return `--${attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The slot `--role` names, with what the role needs of the run's options checked. */
function servedSlot(env: string, o: ServeOptions): ServedSlot {
  const served = SERVED[env];
  if (!served)
    throw new UserError(`bazaar serve has no ${env} runs`, `serve one of: ${Object.keys(SERVED).join(", ")}`);
  const roles = Object.keys(served.roles);
  const role = served.roles[o.role];
  if (!role) {
    const why = served.unserved?.[o.role];
    throw new UserError(
      why ? `--role ${o.role}: ${why}` : `--role: ${env} has no role "${o.role}"`,
      `the roles served in ${env} are ${roles.join(", ")}`,
    );
  }
  const slot = { option: attributeOf(role.option), flag: role.option, inside: false, session: "one trial" };
  if (env === "market")
    return { ...slot, surface: "market", role: role.plays!, inside: true, session: "one seller turn" };
  if (env !== "shop") return { ...slot, surface: env, role: o.role };
  const offers = o.negotiable !== undefined && Number(o.negotiable) > 0;
  if (o.role === "shopper")
    return { ...slot, surface: shopSurfaceName({ offers, client: o.client !== undefined }), role: "shopper" };
  // A share that is not a number is the planner's to refuse (it says how); none, or 0, is ours.
  if (o.negotiable === undefined || Number(o.negotiable) === 0)
    throw new UserError(
      "serve shop --role seller: the outside agent answers offers, and no listing takes them",
      "add --negotiable <share> (e.g. --negotiable 0.5): that share of each task's listings takes offers",
    );
  if (o.stdio)
    throw new UserError(
      "serve shop --role seller cannot use --stdio: a shopper may negotiate with several sellers at once, one MCP session each, and stdio carries one",
      "serve over HTTP (drop --stdio)",
    );
  return { ...slot, surface: SHOP_SELLER, role: "seller", inside: true, session: "one negotiation" };
}

/** An `mcp:` spec in another slot would share the served agent's sessions: refused, saying so. */
function refuseOtherMcp(o: ServeOptions, slot: ServedSlot): void {
  for (const [key, value] of Object.entries(o)) {
    if (key === slot.option || typeof value !== "string") continue;
    if (value.split(",").some((s) => s.trim().startsWith("mcp:")))
      throw new UserError(
        `${flagOf(key)} ${value}: an mcp: agent is the one served, named by --agent-name`,
        "bazaar serve serves one agent in one role (--role); name the run's other agents as rule:, sim:, openai:, exec: or module: agents",
      );
  }
}

/** The options checked before anything starts: the name, the slot, where to listen. */
async function checked(envCli: EnvironmentCli, o: ServeOptions) {
  if (!NAME.test(o.agentName))
    throw new UserError(
      `--agent-name "${o.agentName}": letters, digits, dot, dash and underscore only (up to 64)`,
      "e.g. --agent-name my-agent",
    );
  const slot = servedSlot(envCli.name, o);
  if (o[slot.option] !== undefined)
    throw new UserError(
      `${slot.flag} is the outside agent in serve: it is named by --agent-name`,
      `drop ${slot.flag} ${String(o[slot.option])}`,
    );
  refuseOtherMcp(o, slot);
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
  return { slot, port, maxAbandons };
}

type McpHttpHost = import("../../agents/outside/http.ts").McpHttpHost;

/** Where the served agent connects: an HTTP endpoint, or this process's stdin/stdout. */
class Endpoint {
  private host: McpHttpHost | null = null;
  private stdio: { close(): Promise<void> } | null = null;

  constructor(
    private readonly o: ServeOptions,
    private readonly port: number,
    private readonly newSession: () => {
      server: import("@modelcontextprotocol/sdk/server/index.js").Server;
      closed(): void;
    },
  ) {}

  /** Starts listening; what to say after "serving … to mcp:<name>". */
  async open(): Promise<string> {
    if (this.o.stdio) {
      const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
      const session = this.newSession();
      // The client closed stdin: its episode in play fails (played again later), and the run stops.
      const ended = () => {
        session.closed();
        process.emit("SIGTERM");
      };
      process.stdin.once("end", ended);
      await session.server.connect(new StdioServerTransport());
      this.stdio = {
        close: async () => {
          process.stdin.off("end", ended);
          session.closed();
          await session.server.close();
          process.stdin.destroy();
        },
      };
      return "on stdio";
    }
    const { McpHttpHost } = await import("../../agents/outside/http.ts");
    try {
      this.host = await McpHttpHost.start(this.o.host, this.port);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new UserError(
        `cannot listen on ${this.o.host}:${this.port}: ${code === "EADDRINUSE" ? "the port is in use" : err instanceof Error ? err.message : String(err)}`,
        "choose another --port (0 picks a free one)",
      );
    }
    this.host.addRoute("/mcp", {
      ...(this.o.token ? { token: this.o.token } : {}),
      newSession: this.newSession,
    });
    return `at ${this.host.url("/mcp")} (MCP, Streamable HTTP${this.o.token ? ", bearer token" : ""})`;
  }

  async close(): Promise<void> {
    await this.stdio?.close();
    await this.host?.close();
  }
}

const n = (x: number) => x.toLocaleString("en-US");
const plural = (x: number, word: string) => `${n(x)} ${word}${x === 1 ? "" : "s"}`;

export async function serveEnvironment(envCli: EnvironmentCli, o: ServeOptions, out: Output): Promise<void> {
  const { slot, port, maxAbandons } = await checked(envCli, o);
  // With --stdio, stdout is the MCP channel: everything bazaar says goes to stderr.
  const said: Output = o.stdio ? { log: (l) => out.error(l), error: (l) => out.error(l) } : out;
  const spec = `mcp:${o.agentName}`;
  const hub = new SessionHub(o.stdio === true, maxAbandons);
  const version = (await import("../version.ts")).VERSION;
  const { episodeServer, serveInstructions } = await import("../../agents/outside/mcp.ts");
  const { surfaceOf } = await import("../../environments/kernel/surface.ts");
  const { surfaceEnvironment } = await import("../../environments/registry.ts");
  const surface = surfaceOf(surfaceEnvironment(slot.surface), slot.role);
  const endpoint = new Endpoint(o, port, () => {
    const s = hub.session();
    return {
      server: episodeServer(surface, s.episodes, serveInstructions(surface), version),
      closed: s.closed,
    };
  });
  const each = `each session plays ${slot.session}`;
  // A served role played inside others' episodes: the run's trials start as they would, and the
  // served agent's episodes wait for sessions when the run reaches them.
  const admission = slot.inside ? { admit: async () => () => {} } : { admit: hub.admit };
  const again = async (result: { stored: number; target: number }) => result.stored < result.target;
  try {
    if (envCli.name === "market") {
      const { runMarketCommand } = await import("./run-market.ts");
      await runMarketCommand({ ...o, [slot.option]: spec }, said, {
        link: hub.link,
        ready: async (marketId, turns) => {
          const where = await endpoint.open();
          said.error(
            `serving market ${marketId} to ${spec} ${where}: ${plural(turns, "adopter seller turn")} in the market, between its rounds of buyer episodes; ${each}`,
          );
        },
        again,
      });
    } else {
      const shoppers =
        slot.surface === SHOP_SELLER && o.agent === undefined ? { agent: SERVED_SELLER_SHOPPERS } : {};
      const hooks: ServeHooks = {
        link: hub.link,
        ...admission,
        ready: async (plan, left) => {
          const where = await endpoint.open();
          const what = slot.inside
            ? `the seller of every listing that takes offers, in ${plural(left, "trial")} to play (of ${n(plan.total)} in the run)`
            : `${plural(left, "trial")} to play (of ${n(plan.total)} in the run)`;
          said.error(`serving run ${plan.runId} to ${spec} ${where}: ${what}; ${each}`);
        },
        again,
      };
      await runEnvironment(envCli, { ...o, ...shoppers, [slot.option]: spec }, said, hooks);
    }
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
    await endpoint.close();
  }
}
