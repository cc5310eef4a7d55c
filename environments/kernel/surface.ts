/**
 * One environment's tool surface for one role (DESIGN.md § Agents from outside): the tools an agent
 * may call (names, descriptions, JSON Schemas made from the environment's zod actions), how a call
 * becomes an action of the machine, what a call returns (the environment's next messages, as the
 * next observation would show them), and the text that says the episode is over. bazaar's LangGraph
 * agent binds these tools; an outside agent reaches the same ones over MCP. Nothing here knows who
 * calls.
 */
import { z } from "zod";
import type { Message } from "./types.ts";

/** A tool as a function-calling API or MCP lists it. */
export interface SurfaceTool {
  name: string;
  description: string;
  /** JSON Schema (draft-07) of the arguments. */
  inputSchema: Record<string, unknown>;
}

/** The task as a native agent sees it at its first turn: the system prompt and the request. */
export interface SurfaceTask {
  /** The system prompt (empty when the environment sends none). */
  instructions: string;
  /** The request: every opening message that is not the system prompt, in order. */
  request: string;
  /** Both, as one text (what `get_task` and `BAZAAR_TASK` give). */
  text: string;
  /** The opening messages themselves (OpenAI roles). */
  messages: Message[];
}

/** What a tool call returns to the agent that made it. */
export interface CallResult {
  text: string;
  /** The environment refused the call (invalid arguments, an unknown tool, an unusable answer). */
  isError: boolean;
  /** The episode is over: this result carries its outcome, and later calls change nothing. */
  over: boolean;
  /**
   * The environment's structured view after the call (what simulated agents read), for clients that
   * want it besides the text; absent once the episode is over.
   */
  view?: unknown;
}

/** What an environment adds to the generic surface: how its episode's end and refusals read. */
export interface SurfaceHooks<Outcome = unknown, View = unknown> {
  /**
   * The last result of an episode: that it is over, with the outcome as `role` may know it. `view`
   * is the role's last view: which of its conversations this is, where a role holds several (a shop
   * seller's negotiation of each listing).
   */
  outcomeText(outcome: Outcome, role: string, view?: View): string;
  /** Whether the observation after a call shows the call refused (an invalid call, a re-ask). */
  refused?(view: View): boolean;
}

/** The tool that gives the task again; it is not a step of the episode. */
export const GET_TASK_TOOL = "get_task";

export interface ToolSurface {
  env: string;
  role: string;
  /** The environment's tools (never `get_task`, which the MCP layer adds). */
  tools: SurfaceTool[];
  /** The action a call stands for: the tool's name is the action's type, its arguments the rest. */
  actionOf(name: string, args: Record<string, unknown>): Record<string, unknown>;
  taskOf(opening: readonly Message[]): SurfaceTask;
  /** A call's result: the environment's messages to the agent after it (echoes of the agent left out). */
  resultOf(fresh: readonly Message[], view: unknown): CallResult;
  /** The last call's result when the episode ended on it (`view`: the caller's last view). */
  endedResult(outcome: unknown, view?: unknown): CallResult;
}

/**
 * The tools of an action union: every member whose `type` is not "reply" becomes a tool named by
 * that type, taking the other fields. "reply" is the plain-text protocol and needs no tool. So the
 * rules an environment validates and the tools an agent is offered can never drift apart.
 */
export function toolsOfActions(actionSchema: z.ZodDiscriminatedUnion): SurfaceTool[] {
  const tools: SurfaceTool[] = [];
  for (const option of actionSchema.options) {
    if (!(option instanceof z.ZodObject)) continue;
    const typeField = option.shape.type;
    if (!(typeField instanceof z.ZodLiteral)) continue;
    const name = String(typeField.value);
    if (name === "reply") continue;
    const inputSchema = z.toJSONSchema(option.omit({ type: true }), { target: "draft-7" }) as Record<
      string,
      unknown
    >;
    delete inputSchema.$schema;
    tools.push({ name, description: option.description ?? name, inputSchema });
  }
  return tools;
}

/** What a surface is made from: an environment's name, actions and hooks (`EnvironmentDef`). */
export interface SurfaceSource {
  name: string;
  actionSchema: z.ZodDiscriminatedUnion;
  // biome-ignore lint/suspicious/noExplicitAny: every environment's outcome type
  surface?: SurfaceHooks<any>;
}

const surfaces = new WeakMap<SurfaceSource, Map<string, ToolSurface>>();

/** The surface of `env` for `role` (built once per environment and role). */
export function surfaceOf(env: SurfaceSource, role: string): ToolSurface {
  let byRole = surfaces.get(env);
  if (!byRole) {
    byRole = new Map();
    surfaces.set(env, byRole);
  }
  let surface = byRole.get(role);
  if (!surface) {
    surface = buildSurface(env, role);
    byRole.set(role, surface);
  }
  return surface;
}

function buildSurface(env: SurfaceSource, role: string): ToolSurface {
  const hooks = env.surface as SurfaceHooks | undefined;
  const tools = toolsOfActions(env.actionSchema);
  return {
    env: env.name,
    role,
    tools,
    actionOf: (name, args) => ({ ...args, type: name }),
    taskOf(opening) {
      const system = opening.filter((m) => m.role === "system").map((m) => m.content);
      const rest = opening.filter((m) => m.role !== "system").map((m) => m.content);
      const instructions = system.join("\n\n");
      const request = rest.join("\n\n");
      return {
        instructions,
        request,
        text: instructions ? `${instructions}\n\n${request}` : request,
        messages: opening.map((m) => ({ ...m })),
      };
    },
    resultOf(fresh, view) {
      const text = fresh
        .filter((m) => m.role !== "assistant")
        .map((m) => m.content)
        .join("\n\n");
      return { text, isError: hooks?.refused?.(view) ?? false, over: false, view };
    },
    endedResult(outcome, view) {
      const text = hooks ? hooks.outcomeText(outcome, role, view) : "The episode is over.";
      return { text, isError: false, over: true };
    },
  };
}
