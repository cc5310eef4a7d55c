/**
 * `module:<file>[#export]`: a JS or TS module run in bazaar's process (DESIGN.md § Agents from
 * outside). The export played (the default export, or the named one after `#`) is one of:
 *
 * - an **Agent** (an object with `act`, the kernel's interface): it plays every episode natively,
 *   `act(observation, ctx) → { action }`, keyed by `ctx.trialKey` if it keeps state;
 * - an **Agent factory**, a function `(ctx) => Agent` (or a promise of one), called once per episode
 *   at its first turn with `{ env, role, tools, task, trialKey, replicate }` (`tools`: the surface's
 *   tools with their JSON Schemas; `task`: the system prompt and request); its agent plays that
 *   episode natively and is dropped at its end (`endEpisode` is passed on). Where a role holds
 *   several conversations an episode (a shop seller, one per negotiation), each gets its own;
 * - a **LangGraph graph** (an object with `invoke` and no `act`, a compiled graph with a `messages`
 *   state): run on each episode with the tools as LangChain tools in `configurable.tools`;
 * - a **graph factory**, when the module also exports `bazaarGraph = true`: a function
 *   `(tools, ctx) => graph` (or a promise of one) called once per episode with the episode's tools
 *   as LangChain tools, whose graph then runs the episode (module-graph.ts).
 *
 * The file is read when the spec is resolved (its hash enters the identity; a missing file is the
 * user's to fix before anything runs); the module itself, tsx and LangChain load at the first turn.
 * A module that does not load, lacks the export, exports something else or whose factory throws stops
 * the run (a configuration failure, with what to fix).
 *
 * Identity: `{ kind: "module", path, sha256, export }` (path relative to the working directory), plus
 * `--agent-version`. Only the file itself is hashed: when code it imports changes, pass a new
 * `--agent-version`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../../environments/kernel/errors.ts";
import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { SurfaceTask, SurfaceTool, ToolSurface } from "../../environments/kernel/surface.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { conversationOf } from "./conversation.ts";
import { GraphAgent, type GraphContext, type GraphLike, isGraphLike } from "./module-graph.ts";
import {
  importModule,
  isTypeScript,
  JS_EXTENSIONS,
  type LangChainCore,
  langchainFor,
  TS_EXTENSIONS,
  tsxApiUrl,
} from "./module-load.ts";
import type { OutsideOptions, OutsidePlayer } from "./types.ts";

/** What an Agent factory is given, once per episode. */
export interface ModuleAgentContext {
  env: string;
  role: string;
  /** The environment's tools for this role (names, descriptions, JSON Schemas of the arguments). */
  tools: SurfaceTool[];
  /** The episode's task: the system prompt and the request a native agent sees first. */
  task: SurfaceTask;
  trialKey: string;
  replicate: number;
}

/** The module export that says its function exports are graph factories. */
export const GRAPH_MARKER = "bazaarGraph";

/** `file#export` → the file and the export's name (`default` without one). */
export function parseModuleSpec(rest: string): { file: string; exportName: string } {
  const i = rest.lastIndexOf("#");
  if (i > 0 && /^[A-Za-z_$][\w$]*$/.test(rest.slice(i + 1)))
    return { file: rest.slice(0, i), exportName: rest.slice(i + 1) };
  return { file: rest, exportName: "default" };
}

/** `module:<file>[#export]`: a JS/TS module run in process. */
export function modulePlayer(
  spec: string,
  rest: string,
  surface: ToolSurface,
  options: OutsideOptions,
): OutsidePlayer {
  const { file, exportName } = parseModuleSpec(rest.trim());
  const cwd = options.cwd ?? process.cwd();
  const abs = path.resolve(cwd, file);
  const ext = path.extname(abs);
  if (![...JS_EXTENSIONS, ...TS_EXTENSIONS].includes(ext as never))
    throw new UserError(
      `agent "${spec}": ${file} is not a JavaScript or TypeScript module`,
      `module: takes a .js, .mjs, .cjs, .ts, .mts or .cts file, e.g. module:./my-agent.ts`,
    );
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(
      code === "ENOENT"
        ? `agent "${spec}": there is no file ${abs}`
        : `agent "${spec}": cannot read ${abs} (${(err as Error).message})`,
      `module: takes the path of a JS or TS file, relative to this directory (${cwd}), e.g. module:./my-agent.ts`,
    );
  }
  if (isTypeScript(abs) && tsxApiUrl(abs, cwd) === null)
    throw new UserError(
      `agent "${spec}": a TypeScript module needs tsx to load, and none is installed`,
      "npm install --save-dev tsx (beside your module), or compile the module to .js",
    );
  const rel = path.relative(cwd, abs).split(path.sep).join("/");
  const identity = {
    kind: "module",
    path: rel,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    export: exportName,
    ...(options.agentVersion ? { version: options.agentVersion } : {}),
  };
  return {
    label: spec,
    identity,
    agent: new ModuleAgent(spec, abs, rel, exportName, surface, options),
  };
}

/** The agent a module plays as, once loaded. */
type Player = Agent<unknown, unknown>;

/**
 * A `module:` agent: loads its module at the first turn of any episode and then plays as what the
 * export is (an agent, per-episode agents, or a graph).
 */
export class ModuleAgent implements Agent<unknown, unknown> {
  private loading: Promise<Player> | undefined;
  private player: Player | undefined;

  constructor(
    readonly id: string,
    private readonly file: string,
    private readonly rel: string,
    private readonly exportName: string,
    private readonly surface: ToolSurface,
    private readonly options: OutsideOptions,
  ) {}

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<unknown>> {
    const player = this.player ?? (await this.load());
    return player.act(observation, ctx);
  }

  endEpisode(ctx: AgentContext, outcome?: unknown): void | Promise<void> {
    return this.player?.endEpisode?.(ctx, outcome);
  }

  private load(): Promise<Player> {
    this.loading ??= this.resolvePlayer().then((p) => {
      this.player = p;
      return p;
    });
    return this.loading;
  }

  private configuration(message: string, hint?: string): AgentFailure {
    return new AgentFailure("configuration", `module ${this.rel}: ${message}`, hint);
  }

  private async resolvePlayer(): Promise<Player> {
    let ns: Record<string, unknown>;
    try {
      ns = await importModule(this.file, this.options.cwd ?? process.cwd());
    } catch (err) {
      throw this.configuration(
        `it did not load: ${err instanceof Error ? err.message : String(err)}`,
        `try loading it alone: node ${isTypeScript(this.file) ? "--import tsx " : ""}${this.rel}`,
      );
    }
    const { names, lookup } = exportsOf(ns);
    const exported = lookup(this.exportName);
    if (exported === undefined || exported === null)
      throw this.configuration(
        `it has no ${this.exportName === "default" ? "default export" : `export "${this.exportName}"`}`,
        names.length
          ? `its exports: ${names.join(", ")} (name one after #: module:${this.rel}#${names.find((n) => n !== "default") ?? names[0]})`
          : "export an Agent, an Agent factory, or a LangGraph graph",
      );
    const graphMarked = lookup(GRAPH_MARKER) === true;
    if (typeof exported === "function") {
      if (graphMarked) return this.graphAgent(exported as GraphFactory);
      return new FactoryAgent(this.id, exported as AgentFactory, this.surface, (m, h) =>
        this.configuration(m, h),
      );
    }
    if (typeof exported === "object") {
      if (typeof (exported as { act?: unknown }).act === "function") return exported as Player;
      if (typeof (exported as { invoke?: unknown }).invoke === "function")
        return this.graphAgent(async () => exported as GraphLike);
    }
    throw this.configuration(
      `its export "${this.exportName}" is not an Agent (an object with act), an Agent factory (a function), or a LangGraph graph (an object with invoke)`,
    );
  }

  private async graphAgent(factory: GraphFactory): Promise<Player> {
    let core: LangChainCore;
    try {
      core = await langchainFor(this.file);
    } catch (err) {
      throw this.configuration(
        `LangChain did not load: ${err instanceof Error ? err.message : String(err)}`,
        "npm install @langchain/core @langchain/langgraph beside the module",
      );
    }
    const graphOf = async (tools: unknown[], ctx: GraphContext): Promise<GraphLike> => {
      let graph: unknown;
      try {
        graph = await factory(tools, ctx);
      } catch (err) {
        throw this.configuration(
          `its graph factory threw: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (!isGraphLike(graph))
        throw this.configuration(
          "its graph factory returned no graph (an object with invoke, such as a compiled StateGraph)",
        );
      return graph;
    };
    return new GraphAgent(this.id, this.surface, core, graphOf, this.options.episodeTimeoutMs);
  }
}

/**
 * A module's exports by name. A CommonJS module arrives as its `module.exports` in `default`: its
 * properties are read as exports too, and one compiled from ES syntax (TypeScript in a CommonJS
 * package: `__esModule`) is read as the exports object it is, its `default` the default export.
 */
function exportsOf(ns: Record<string, unknown>): {
  names: string[];
  lookup(name: string): unknown;
} {
  const d = ns.default as Record<string, unknown> | undefined;
  const wrapped = typeof d === "object" || typeof d === "function" ? d : undefined;
  const esModule = wrapped?.__esModule === true;
  const exports = esModule ? { ...wrapped } : ns;
  delete exports.__esModule;
  return {
    names: Object.keys(exports)
      .filter((k) => k !== GRAPH_MARKER)
      .sort(),
    lookup: (name) => (name in exports ? exports[name] : esModule ? undefined : wrapped?.[name]),
  };
}

type AgentFactory = (ctx: ModuleAgentContext) => unknown;
type GraphFactory = (tools: unknown[], ctx: GraphContext) => unknown;

/**
 * An Agent factory's agents: one per episode, made at its first turn, dropped at its end — one per
 * conversation where a role holds several (a shop seller's negotiations), as links are.
 */
class FactoryAgent implements Agent<unknown, unknown> {
  /** Per trial, its conversations' agents. */
  private readonly agents = new Map<string, Map<string, Player | Promise<Player>>>();

  constructor(
    readonly id: string,
    private readonly factory: AgentFactory,
    private readonly surface: ToolSurface,
    private readonly configuration: (message: string, hint?: string) => AgentFailure,
  ) {}

  act(observation: Observation<unknown>, ctx: AgentContext): Acted<unknown> | Promise<Acted<unknown>> {
    let byConversation = this.agents.get(ctx.trialKey);
    if (!byConversation) {
      byConversation = new Map();
      this.agents.set(ctx.trialKey, byConversation);
    }
    const conversation = conversationOf(observation.messages);
    let agent = byConversation.get(conversation);
    if (!agent) {
      agent = this.make(observation, ctx);
      byConversation.set(conversation, agent);
    }
    return agent instanceof Promise
      ? agent.then((a) => a.act(observation, ctx))
      : agent.act(observation, ctx);
  }

  async endEpisode(ctx: AgentContext, outcome?: unknown): Promise<void> {
    const entries = this.agents.get(ctx.trialKey);
    this.agents.delete(ctx.trialKey);
    for (const entry of entries?.values() ?? []) {
      const agent = await Promise.resolve(entry).catch(() => null);
      await agent?.endEpisode?.(ctx, outcome);
    }
  }

  private make(observation: Observation<unknown>, ctx: AgentContext): Player | Promise<Player> {
    const made = (() => {
      try {
        return this.factory({
          env: this.surface.env,
          role: this.surface.role,
          tools: this.surface.tools,
          task: this.surface.taskOf(observation.messages),
          trialKey: ctx.trialKey,
          replicate: ctx.replicate,
        });
      } catch (err) {
        throw this.threw(err);
      }
    })();
    if (made instanceof Promise)
      return made.then(
        (a) => this.checked(a),
        (err) => {
          throw this.threw(err);
        },
      );
    return this.checked(made);
  }

  private threw(err: unknown): AgentFailure {
    return this.configuration(`its agent factory threw: ${err instanceof Error ? err.message : String(err)}`);
  }

  private checked(agent: unknown): Player {
    if (agent && typeof (agent as { act?: unknown }).act === "function") return agent as Player;
    if (agent && typeof (agent as { invoke?: unknown }).invoke === "function")
      throw this.configuration(
        "its factory returned a graph, not an Agent",
        `export const ${GRAPH_MARKER} = true; from the module so that bazaar calls it with the episode's tools`,
      );
    throw this.configuration("its agent factory returned no Agent (an object with act)");
  }
}
