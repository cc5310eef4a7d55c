/**
 * A successful HTTP answer to a chat-completion request that is not a chat completion — an empty
 * body, a body that is not JSON, JSON without `choices`, a choice without a message — is the server's
 * failure, not the model's answer (DESIGN.md § Failures are not answers), and so is a tool call
 * that names no function. llama.cpp's server answers 200 with an empty body when a prompt does not
 * fit its slot's context; left to LangChain such an answer ends in a TypeError inside it ("reading
 * 'message'"), which used to be stored as the model's non-response. It is caught at the wire
 * instead, before LangChain sees it, and thrown as `NotAChatCompletion`: retried like a 5xx, and a
 * failed trial when it persists.
 */

/** The error's name, read by shape where it arrives wrapped (the OpenAI SDK's connection error). */
export const NOT_A_COMPLETION = "NotAChatCompletion";

export type NotACompletionKind = "empty" | "not JSON" | "no choices" | "no message" | "no function";

export class NotAChatCompletion extends Error {
  override readonly name = NOT_A_COMPLETION;
  /** What the server sent, in a few words ("the server answered 200 with an empty body"). */
  readonly label: string;
  constructor(
    readonly status: number,
    readonly kind: NotACompletionKind,
    /** The start of the body, where it has one (shown in the message, never in the label). */
    excerpt?: string,
  ) {
    const label = `the server answered ${status} with ${WHAT[kind]}`;
    super(excerpt ? `${label}: ${excerptOf(excerpt)}` : label);
    this.label = label;
  }

  /**
   * Without the body: the OpenAI SDK reads what its fetch threw as a timeout when the text says
   * "timed out" — and a proxy's error page often does.
   */
  override toString(): string {
    return `${this.name}: ${this.label}`;
  }
}

const WHAT: Record<NotACompletionKind, string> = {
  empty: "an empty body",
  "not JSON": "a body that is not JSON",
  "no choices": "JSON that is not a chat completion (no choices)",
  "no message": "a chat completion whose choice has no message",
  "no function": "a chat completion whose tool call names no function",
};

/** The body's start, on one line: enough to recognise an HTML error page or a proxy's text. */
function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

/**
 * The parsed completion of a 2xx answer's body, or the `NotAChatCompletion` it is. A choice whose
 * message says nothing (no content, no tool calls) is still a completion: that empty answer is the
 * model's.
 */
export function readCompletion(status: number, text: string): Record<string, unknown> | NotAChatCompletion {
  if (text.trim() === "") return new NotAChatCompletion(status, "empty");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new NotAChatCompletion(status, "not JSON", text);
  }
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (
    !body ||
    typeof body !== "object" ||
    Array.isArray(body) ||
    !Array.isArray(choices) ||
    choices.length === 0
  )
    return new NotAChatCompletion(status, "no choices", text);
  for (const c of choices) {
    const message = (c as { message?: unknown } | null)?.message;
    if (!message || typeof message !== "object") return new NotAChatCompletion(status, "no message", text);
    // A call the model wrote badly (arguments that are not JSON) is its answer; a call without a
    // function to name is no call at all, and LangChain cannot read it.
    const calls = (message as { tool_calls?: unknown }).tool_calls;
    if (calls !== undefined && calls !== null) {
      const named = (x: unknown) =>
        typeof (x as { function?: { name?: unknown } } | null)?.function?.name === "string";
      if (!Array.isArray(calls) || !calls.every(named))
        return new NotAChatCompletion(status, "no function", text);
    }
  }
  return body as Record<string, unknown>;
}

/** The `NotAChatCompletion` an error is or wraps (the OpenAI SDK wraps what its fetch threw). */
export function notACompletionIn(
  err: unknown,
): { message: string; label: string; kind: NotACompletionKind | undefined } | null {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    const x = e as { name?: unknown; message?: unknown; label?: unknown; kind?: unknown; cause?: unknown };
    if (x.name === NOT_A_COMPLETION && typeof x.message === "string")
      return {
        message: x.message,
        label: typeof x.label === "string" ? x.label : x.message,
        kind: typeof x.kind === "string" && x.kind in WHAT ? (x.kind as NotACompletionKind) : undefined,
      };
    e = x.cause;
  }
  return null;
}
