/**
 * The A2A messages of an episode, as bazaar writes them and reads the agent's back (SDK types,
 * protocol v1.0: the client's compatibility layer writes them in v0.3's wire format where the agent
 * speaks that).
 *
 * The opening message carries what the agent's user says first — the client's first message in a
 * shop with a client, else the task's text (the environment's instructions, then the request) — as a
 * text part, and the episode's private MCP endpoint as a data part:
 *
 *   {"bazaar": {"mcpUrl": "http://127.0.0.1:…/episode/<secret>",
 *               "tools": [{name, description, inputSchema}, …],
 *               "trial": {"key", "replicate", "env", "role"},
 *               "instructions": "<the environment's system prompt for the role>"}}
 *
 * `instructions` is there because with a client the text is only the person's words: the rules of
 * the environment (what a booking is, the step budget) reach the agent there, in the MCP server's
 * instructions and through `get_task`. Later messages are the user's replies, text only, in the same
 * task.
 */
import { randomUUID } from "node:crypto";
import { type Message, type Part, Role, type Task, TaskState } from "@a2a-js/sdk";
import type { SurfaceTool } from "../../environments/kernel/surface.ts";

/** The data part's key. */
export const DATA_KEY = "bazaar";

/** What the data part of the opening message holds under `bazaar`. */
export interface OpeningData {
  mcpUrl: string;
  tools: SurfaceTool[];
  trial: { key: string; replicate: number; env: string; role: string };
  instructions: string;
}

function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

function dataPart(value: unknown): Part {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: "application/json",
  };
}

function userMessage(parts: Part[], taskId = "", contextId = ""): Message {
  return {
    messageId: randomUUID(),
    // Empty on the opening: the agent opens a new context (and task) for the episode.
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function openingMessage(text: string, data: OpeningData): Message {
  return userMessage([textPart(text), dataPart({ [DATA_KEY]: data })]);
}

/** The user's next message in the episode's task. */
export function replyMessage(text: string, taskId: string, contextId: string): Message {
  return userMessage([textPart(text)], taskId, contextId);
}

/** The text of a message: its text parts, one after another (other parts are not words to anyone). */
export function textOf(message: Message | undefined): string {
  if (!message) return "";
  return (message.parts ?? [])
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** What a task's artifacts say in text (an agent may put its last words there rather than in its status). */
export function artifactText(task: Pick<Task, "artifacts">): string {
  return (task.artifacts ?? [])
    .flatMap((a) => a.parts ?? [])
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/**
 * The states a task may be in after an exchange: waiting for the user's words (`input`), for
 * credentials (`auth`, which bazaar cannot give mid-run), ended, or still working.
 */
export const STATES = {
  input: TaskState.TASK_STATE_INPUT_REQUIRED,
  auth: TaskState.TASK_STATE_AUTH_REQUIRED,
  ended: new Set<TaskState>([
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
  ]),
  working: new Set<TaskState>([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]),
} as const;

/** A state as the protocol names it in v0.3 (and in bazaar's messages): `input-required`, `failed`. */
export function stateName(state: TaskState): string {
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
      return "submitted";
    case TaskState.TASK_STATE_WORKING:
      return "working";
    case TaskState.TASK_STATE_COMPLETED:
      return "completed";
    case TaskState.TASK_STATE_FAILED:
      return "failed";
    case TaskState.TASK_STATE_CANCELED:
      return "canceled";
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return "input-required";
    case TaskState.TASK_STATE_REJECTED:
      return "rejected";
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return "auth-required";
    default:
      return `unknown (${String(state)})`;
  }
}
