/**
 * An episode's tool surface as an MCP server (the official TypeScript SDK's low-level `Server`):
 * the environment's tools plus `get_task`, the task as the prompt `task`, and the task (or, before a
 * trial is claimed, how to get it) as the server's `instructions`. Arguments are not validated here:
 * they go to the machine as they came, so a malformed call is refused (a tool error) and counted as
 * an invalid call exactly as it would be natively.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { GET_TASK_TOOL, type SurfaceTask, type ToolSurface } from "../../environments/kernel/surface.ts";
import type { EpisodeLink } from "./waiting.ts";

/** What one MCP session plays: its episode, found at its first call (claimed then, for `serve`). */
export interface SessionEpisodes {
  /** The episode to answer this call in, or the text that says why there is none (run complete). */
  episode(tool: string): Promise<EpisodeLink | { none: string }>;
}

const TASK_PROMPT = "task";

let shared: AjvJsonSchemaValidator | undefined;
/** One validator for every session's server: each new one compiles Ajv afresh (~1 ms a session). */
function validator(): AjvJsonSchemaValidator {
  shared ??= new AjvJsonSchemaValidator();
  return shared;
}

function getTaskTool(surface: ToolSurface) {
  return {
    name: GET_TASK_TOOL,
    description: `The task of this ${surface.env} episode: the instructions and the request, as text. Not a step: it may be called any time.`,
    inputSchema: { type: "object" as const, properties: {} },
  };
}

/** The `_meta` key of the environment's structured view in a call's result (`CallResult.view`). */
export const VIEW_META = "bazaar/view";
/** The `_meta` key that says the episode is over. */
export const OVER_META = "bazaar/over";
/** The `_meta` key of the trial a result belongs to: its key and replicate. */
export const TRIAL_META = "bazaar/trial";
/** The `_meta` key of `get_task`'s task apart: instructions (the system prompt), request, messages. */
export const TASK_META = "bazaar/task";

function textResult(text: string, isError: boolean, meta?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: "text", text }],
    ...(isError ? { isError: true } : {}),
    ...(meta ? { _meta: meta } : {}),
  };
}

/** The MCP server of one session. `instructions`: the task when it is known at initialize. */
export function episodeServer(
  surface: ToolSurface,
  episodes: SessionEpisodes,
  instructions: string,
  version: string,
): Server {
  const server = new Server(
    { name: `bazaar-${surface.env}`, version },
    { capabilities: { tools: {}, prompts: {} }, instructions, jsonSchemaValidator: validator() },
  );
  const tools = [
    ...surface.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    getTaskTool(surface),
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const ep = await episodes.episode(req.params.name);
    if ("none" in ep) return textResult(ep.none, true);
    const result = await ep.call(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>);
    return textResult(result.text, result.isError, {
      [OVER_META]: result.over,
      [TRIAL_META]: { key: ep.trialKey, replicate: ep.replicate },
      ...(req.params.name === GET_TASK_TOOL
        ? {
            [TASK_META]: {
              instructions: ep.task.instructions,
              request: ep.task.request,
              messages: ep.task.messages,
            },
          }
        : {}),
      ...(result.view !== undefined ? { [VIEW_META]: result.view } : {}),
    });
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{ name: TASK_PROMPT, description: `The task of this ${surface.env} episode, as messages.` }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    if (req.params.name !== TASK_PROMPT) throw new Error(`unknown prompt "${req.params.name}"`);
    const ep = await episodes.episode(GET_TASK_TOOL);
    if ("none" in ep) return { messages: [{ role: "user", content: { type: "text", text: ep.none } }] };
    return { description: `The ${surface.env} task`, messages: promptMessages(ep.task) };
  });
  return server;
}

/** MCP prompts have user and assistant roles only: the system prompt goes first as a user message. */
function promptMessages(task: SurfaceTask) {
  return task.messages.map((m) => ({
    role: m.role === "assistant" ? ("assistant" as const) : ("user" as const),
    content: { type: "text" as const, text: m.content },
  }));
}

/** The instructions of a session whose trial is not claimed yet (`serve`). */
export function serveInstructions(surface: ToolSurface): string {
  return (
    `A bazaar ${surface.env} episode (role: ${surface.role}). Your first tool call — get_task gives ` +
    "the task and takes no step — starts the episode; each later call is one step, and its result is " +
    "what the environment shows next. The last result says the episode is over, with its outcome."
  );
}
