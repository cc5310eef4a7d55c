/**
 * OpenAI-compatible servers answer in dialects (serve-sim reproduces them: `agents/serve-sim/dialects.ts`).
 * The agent reads every one of them the same way by normalizing each chat-completion answer at the
 * wire, before LangChain parses it — so LangChain always sees OpenAI's own shape:
 *
 * - tool calls written as text in `content` when the request offered tools (vLLM without a tool
 *   parser: Hermes `<tool_call>{"name":…,"arguments":…}</tool_call>`; Qwen-style XML
 *   `<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>` as LM Studio
 *   sometimes returns; or the bare JSON object) become `tool_calls`, for tools the request offered only;
 * - tool-call `arguments` sent as an object (LM Studio / llama.cpp) or as "" become a JSON string;
 * - reasoning written into `content` as `<think>…</think>` (Ollama's thinking models, DeepSeek-R1
 *   distills) moves out of the answer into `reasoning_content`, where DeepSeek and vLLM put it;
 * - a tool call without an id, or with "" (llama.cpp's server), gets a stable made-up one
 *   (`call_<hash>` of the completion's id, its place, name and arguments — the same for the same
 *   answer, distinct between answers): the thread answers it as a tool message under
 *   that id, and sends the id back with the assistant message — never a user message in its stead;
 * - `finish_reason` "stop" on a message that calls tools becomes "tool_calls".
 * A missing `usage` is left missing (the agent records zero tokens).
 */
import { createHash } from "node:crypto";
import { NotAChatCompletion, readCompletion } from "./completion-check.ts";

interface ToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: unknown };
}

interface Choice {
  message?: { content?: unknown; tool_calls?: ToolCall[] | null; reasoning_content?: unknown };
  finish_reason?: string | null;
}

const HERMES = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const XML_FUNCTION = /<function=([\w.-]+)>([\s\S]*?)<\/function>/;
const XML_PARAMETER = /<parameter=([\w.-]+)>\s*([\s\S]*?)\s*<\/parameter>/g;
const THINK = /^\s*<think>([\s\S]*?)<\/think>\s*/;

/** A parameter value as written: JSON where it parses (numbers, booleans), the text otherwise. */
function value(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function callFrom(text: string): { name: string; args: Record<string, unknown> } | null {
  const xml = XML_FUNCTION.exec(text);
  if (xml) {
    const args: Record<string, unknown> = {};
    for (const p of xml[2]!.matchAll(XML_PARAMETER)) args[p[1]!] = value(p[2]!);
    return { name: xml[1]!, args };
  }
  try {
    const o = JSON.parse(text) as { name?: unknown; arguments?: unknown; parameters?: unknown };
    const args = o.arguments ?? o.parameters ?? {};
    if (typeof o.name !== "string") return null;
    const parsed = typeof args === "string" ? (JSON.parse(args) as unknown) : args;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? { name: o.name, args: parsed as Record<string, unknown> }
      : null;
  } catch {
    return null;
  }
}

/** A tool call's id where the server gave none: the same for the same call of the same answer. */
function madeUpId(completion: unknown, index: number, name: unknown, args: unknown): string {
  const text = `${String(completion ?? "")}\u0000${index}\u0000${String(name)}\u0000${String(args)}`;
  return `call_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
}

/** Tool calls written as text, for offered tools only; null when the text is not (only) that. */
function textToolCalls(content: string, offered: ReadonlySet<string>): ToolCall[] | null {
  const blocks = [...content.matchAll(HERMES)].map((m) => m[1]!);
  const candidates = blocks.length > 0 ? blocks : [content.trim()];
  const calls: ToolCall[] = [];
  for (const text of candidates) {
    const call = callFrom(text);
    if (!call || !offered.has(call.name)) return null;
    const id = `call_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    calls.push({ id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } });
  }
  return calls.length > 0 ? calls : null;
}

/** Normalizes one parsed completion in place; `offered` are the tool names the request offered. */
export function normalizeCompletion(
  body: { id?: unknown; choices?: Choice[] },
  offered: ReadonlySet<string>,
): void {
  for (const choice of body.choices ?? []) {
    const m = choice.message;
    if (!m) continue;
    if (typeof m.content === "string") {
      const think = THINK.exec(m.content);
      if (think) {
        m.content = m.content.slice(think[0].length);
        if (typeof m.reasoning_content !== "string" || m.reasoning_content === "")
          m.reasoning_content = think[1]!.trim();
      }
    }
    const calls = m.tool_calls ?? [];
    calls.forEach((c, i) => {
      if (!c.function) return;
      const a = c.function.arguments;
      if (a === "" || a === undefined || a === null) c.function.arguments = "{}";
      else if (typeof a === "object") c.function.arguments = JSON.stringify(a);
      if (typeof c.id !== "string" || c.id === "")
        c.id = madeUpId(body.id, i, c.function.name, c.function.arguments);
    });
    if (calls.length === 0 && offered.size > 0 && typeof m.content === "string" && m.content.trim() !== "") {
      const fromText = textToolCalls(m.content, offered);
      if (fromText) {
        m.tool_calls = fromText;
        m.content = null;
      }
    }
    if ((m.tool_calls?.length ?? 0) > 0 && choice.finish_reason === "stop")
      choice.finish_reason = "tool_calls";
  }
}

function offeredTools(init: RequestInit | undefined): Set<string> {
  if (typeof init?.body !== "string") return new Set();
  try {
    const tools = (JSON.parse(init.body) as { tools?: { function?: { name?: unknown } }[] }).tools ?? [];
    return new Set(tools.map((t) => t.function?.name).filter((n): n is string => typeof n === "string"));
  } catch {
    return new Set();
  }
}

function streamed(init: RequestInit | undefined): boolean {
  return typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body);
}

/**
 * A `fetch` for the OpenAI client that normalizes chat-completion answers (JSON, not streams);
 * every other request and answer passes through untouched. A successful answer that is not a chat
 * completion (an empty body, no JSON, no choices, a choice without a message) is thrown as
 * `NotAChatCompletion` (completion-check.ts): the server's failure, never the model's answer.
 */
export function normalizingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!res.ok || !url.endsWith("/chat/completions") || streamed(init)) return res;
    const body = readCompletion(res.status, await res.text());
    if (body instanceof NotAChatCompletion) throw body;
    normalizeCompletion(body as { choices?: Choice[] }, offeredTools(init));
    // Read as JSON whatever type the server gave it (the SDK hands any other type on as text).
    const headers = new Headers(res.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    return new Response(JSON.stringify(body), { status: res.status, statusText: res.statusText, headers });
  };
}
