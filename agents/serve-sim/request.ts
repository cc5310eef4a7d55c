/**
 * Reading an OpenAI chat-completion request. Validation is hand-written (no schema library): it runs
 * once per request on the hot path and checks only what the simulated model relies on. Anything the
 * server does not use (max_tokens, top_p, stream_options, user, …) is accepted and ignored, as
 * OpenAI-compatible servers commonly do.
 */

export interface WireToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface WireMessage {
  role: string;
  /** A string, an array of content parts, or null (an assistant turn that only called tools). */
  content?: unknown;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface ChatRequest {
  model: string;
  messages: WireMessage[];
  seed: number | null;
  temperature: number | null;
  n: number;
  /** Whether the reply should be a `choose` tool call (offered and not switched off by tool_choice). */
  toolMode: boolean;
  /** The functions the reply may call, given `tools` and `tool_choice` (other environments' tools). */
  callableTools: string[];
  /** Characters of tool definitions, for the prompt-token estimate. */
  toolChars: number;
  /** The output cap asked for (`max_tokens`, or `max_completion_tokens`), in tokens; null without one. */
  maxTokens: number | null;
  /** `tool_choice` as sent: "auto", "required", "none", a named function ("function"), or absent. */
  toolChoice: "auto" | "required" | "none" | "function" | null;
}

/** A request the server refuses: HTTP status, OpenAI error body fields. */
export interface RequestProblem {
  status: number;
  message: string;
  type: string;
  code: string | null;
  param: string | null;
}

export const CHOOSE_TOOL = "choose";
const MAX_CHOICES = 128;

function invalid(message: string, param: string | null, code: string | null = null): RequestProblem {
  return { status: 400, message, type: "invalid_request_error", code, param };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The texts of a message: its string content, or each of its text parts apart; none for null. */
export function wireTexts(m: WireMessage): string[] {
  const c = m.content;
  if (typeof c === "string") return [c];
  if (!Array.isArray(c)) return [];
  const texts: string[] = [];
  for (const part of c) {
    if (isObject(part) && part.type === "text" && typeof part.text === "string") texts.push(part.text);
  }
  return texts;
}

/** The text of a message: its string content, or its text parts joined; "" for null. */
export function messageText(m: WireMessage): string {
  return wireTexts(m).join("");
}

/** Characters of a request's messages: what its prompt's tokens are counted from (`tokens`). */
export function promptChars(messages: readonly WireMessage[]): number {
  return messages.reduce((a, m) => a + messageText(m).length, 0);
}

function checkMessages(raw: unknown): RequestProblem | null {
  if (!Array.isArray(raw) || raw.length === 0)
    return invalid("'messages' must be a non-empty array", "messages");
  for (let i = 0; i < raw.length; i++) {
    const m = raw[i];
    if (!isObject(m) || typeof m.role !== "string") {
      return invalid(`'messages[${i}]' must be an object with a string 'role'`, `messages[${i}]`);
    }
    const c = m.content;
    if (c !== undefined && c !== null && typeof c !== "string" && !Array.isArray(c)) {
      return invalid(
        `'messages[${i}].content' must be a string or an array of parts`,
        `messages[${i}].content`,
      );
    }
  }
  return null;
}

function toolNames(tools: unknown): string[] | RequestProblem {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) return invalid("'tools' must be an array", "tools");
  const names: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i];
    const fn = isObject(t) ? t.function : undefined;
    if (!isObject(t) || t.type !== "function" || !isObject(fn) || typeof fn.name !== "string") {
      return invalid(`'tools[${i}]' must be {type: "function", function: {name, …}}`, `tools[${i}]`);
    }
    names.push(fn.name);
  }
  return names;
}

/** Whether to answer with a `choose` tool call, from the tools offered and `tool_choice`. */
function chooseToolMode(names: string[], toolChoice: unknown): boolean | RequestProblem {
  if (toolChoice === undefined || toolChoice === null || toolChoice === "auto" || toolChoice === "required") {
    return names.includes(CHOOSE_TOOL);
  }
  if (toolChoice === "none") return false;
  if (isObject(toolChoice) && isObject(toolChoice.function) && typeof toolChoice.function.name === "string") {
    const forced = toolChoice.function.name;
    if (!names.includes(forced)) {
      return invalid(`'tool_choice' names function '${forced}', which is not in 'tools'`, "tool_choice");
    }
    // A forced function other than `choose` is one the simulated shopper cannot fill in: it answers in text.
    return forced === CHOOSE_TOOL;
  }
  return invalid(
    "'tool_choice' must be 'none', 'auto', 'required' or {type: 'function', function: {name}}",
    "tool_choice",
  );
}

function optionalNumber(body: Record<string, unknown>, key: string): number | null | RequestProblem {
  const v = body[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v)) return invalid(`'${key}' must be a number`, key);
  return v;
}

/**
 * Checks a parsed request body. Returns the request, or the 400 it earns. The model name is not
 * checked here: the caller knows which models exist and answers 404 for others.
 */
export function readChatRequest(body: unknown): ChatRequest | RequestProblem {
  if (!isObject(body)) return invalid("the request body must be a JSON object", null);
  if (typeof body.model !== "string" || body.model === "") {
    return invalid("you must provide a model parameter", "model");
  }
  const bad = checkMessages(body.messages);
  if (bad) return bad;
  if (body.stream === true) {
    return invalid("streaming is not supported by serve-sim: send stream: false (or leave it out)", "stream");
  }
  const format = body.response_format;
  if (isObject(format) && format.type !== "text") {
    return invalid(
      `response_format ${JSON.stringify(format.type)} is not supported by serve-sim: its models answer in ` +
        "text or with a 'choose' tool call (for structured output use function calling)",
      "response_format",
    );
  }
  const seed = optionalNumber(body, "seed");
  if (isProblem(seed)) return seed;
  const temperature = optionalNumber(body, "temperature");
  if (isProblem(temperature)) return temperature;
  const n = optionalNumber(body, "n") ?? 1;
  if (isProblem(n)) return n;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CHOICES) {
    return invalid(`'n' must be a whole number from 1 to ${MAX_CHOICES}`, "n");
  }
  const maxTokens = optionalNumber(body, "max_tokens") ?? optionalNumber(body, "max_completion_tokens");
  if (isProblem(maxTokens)) return maxTokens;
  const names = toolNames(body.tools);
  if (isProblem(names)) return names;
  const toolMode = chooseToolMode(names, body.tool_choice);
  if (isProblem(toolMode)) return toolMode;
  const choice = body.tool_choice as unknown;
  const callableTools =
    choice === "none"
      ? []
      : isObject(choice) && isObject(choice.function) && typeof choice.function.name === "string"
        ? [choice.function.name]
        : names;
  return {
    model: body.model,
    messages: body.messages as WireMessage[],
    seed,
    temperature,
    n,
    toolMode,
    callableTools,
    toolChars: names.length > 0 ? JSON.stringify(body.tools).length : 0,
    maxTokens,
    toolChoice:
      choice === undefined || choice === null
        ? null
        : isObject(choice)
          ? "function"
          : (choice as "auto" | "required" | "none"),
  };
}

export function isProblem(x: unknown): x is RequestProblem {
  return isObject(x) && typeof x.status === "number" && typeof x.message === "string";
}
