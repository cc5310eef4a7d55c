/**
 * The OpenAI wire format the server writes: chat completions (text or a `choose` tool call), the
 * model list and error bodies. Token counts are estimates, ceil(characters / 4), enough for usage
 * accounting and rate limiters to have something realistic to count.
 */
import type { Decision } from "./decide.ts";
import type { SimReply } from "./plugin.ts";
import { CHOOSE_TOOL, type RequestProblem } from "./request.ts";

/** Plausible answers that name no option: what an injected off-format fault says instead. */
export const OFF_FORMAT_TEXTS = [
  "Both hotels look like solid choices; it really depends on whether you care more about price or location.",
  "I'd go with the one that has the better guest rating, since reviews matter most for a single night.",
  "Based on the details provided, the more affordable hotel seems like the sensible pick.",
  "Happy to help! Could you tell me a bit more about your budget and what matters most to you?",
];

export function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** A prompt's tokens as `usage.prompt_tokens` reports them — and as the rate limit counts them. */
export function promptTokensOf(promptChars: number, toolChars: number): number {
  return tokens(promptChars + toolChars);
}

export function errorBody(p: RequestProblem): string {
  return JSON.stringify({ error: { message: p.message, type: p.type, param: p.param, code: p.code } });
}

export function modelList(names: readonly string[], created: number): string {
  return JSON.stringify({
    object: "list",
    data: names.map((id) => ({ id, object: "model", created, owned_by: "bazaar-serve-sim" })),
  });
}

/** One reasoning sentence and the final answer line the `cot` prompt asks for. */
function chainOfThoughtText(letter: string): string {
  return (
    `Weighing price, guest rating and amenities, Option ${letter} offers the best overall value for one night.\n` +
    `Answer: ${letter}`
  );
}

interface WireChoice {
  index: number;
  message: { role: "assistant"; content: string | null; tool_calls?: unknown[]; refusal: null };
  logprobs: null;
  finish_reason: "stop" | "tool_calls" | "length";
}

/** A reply that calls one function (the id comes from the decision digest: stable across retries). */
function toolCallChoice(
  index: number,
  decision: Decision,
  name: string,
  argsObject: unknown,
): { choice: WireChoice; chars: number } {
  const args = JSON.stringify(argsObject);
  const call = {
    id: `call_${decision.digest.slice(0, 24)}${index > 0 ? `_${index}` : ""}`,
    type: "function",
    function: { name, arguments: args },
  };
  return {
    choice: {
      index,
      message: { role: "assistant", content: null, tool_calls: [call], refusal: null },
      logprobs: null,
      finish_reason: "tool_calls",
    },
    chars: name.length + args.length,
  };
}

/** A reply with several function calls; each id is the single-call id with `_c<j>` after the first. */
function toolCallsChoice(
  index: number,
  decision: Decision,
  calls: readonly { tool: string; args: Record<string, unknown> }[],
): { choice: WireChoice; chars: number } {
  const base = `call_${decision.digest.slice(0, 24)}${index > 0 ? `_${index}` : ""}`;
  let chars = 0;
  const toolCalls = calls.map((c, j) => {
    const args = JSON.stringify(c.args);
    chars += c.tool.length + args.length;
    return {
      id: j === 0 ? base : `${base}_c${j}`,
      type: "function",
      function: { name: c.tool, arguments: args },
    };
  });
  return {
    choice: {
      index,
      message: { role: "assistant", content: null, tool_calls: toolCalls, refusal: null },
      logprobs: null,
      finish_reason: "tool_calls",
    },
    chars,
  };
}

function textChoice(index: number, content: string): { choice: WireChoice; chars: number } {
  return {
    choice: {
      index,
      message: { role: "assistant", content, refusal: null },
      logprobs: null,
      finish_reason: "stop",
    },
    chars: content.length,
  };
}

function choiceFor(
  reply: SimReply,
  index: number,
  decision: Decision,
  toolMode: boolean,
  callableTools: readonly string[],
): { choice: WireChoice; chars: number } {
  if (reply.kind === "calls") {
    return reply.calls.length > 0 && reply.calls.every((c) => callableTools.includes(c.tool))
      ? toolCallsChoice(index, decision, reply.calls)
      : textChoice(index, reply.text);
  }
  if (reply.kind === "action") {
    return callableTools.includes(reply.tool)
      ? toolCallChoice(index, decision, reply.tool, reply.args)
      : textChoice(index, reply.text);
  }
  if (reply.kind === "letter" && toolMode)
    return toolCallChoice(index, decision, CHOOSE_TOOL, { option: reply.letter });
  if (reply.kind === "text") return textChoice(index, reply.text);
  // Tools offered (any of the environment's, not only choice's `choose`): a reply without a call.
  if (reply.kind === "message") return textChoice(index, callableTools.length > 0 ? reply.text : reply.line);
  return textChoice(index, decision.chainOfThought ? chainOfThoughtText(reply.letter) : reply.letter);
}

export interface CompletionInput {
  id: string;
  model: string;
  created: number;
  decision: Decision;
  toolMode: boolean;
  callableTools: readonly string[];
  toolChars: number;
  /** Injected off-format fault: every choice says this instead of choosing. */
  offFormat: string | null;
  /**
   * The request's output cap in tokens (null: none): a text reply longer than it is cut there with
   * `finish_reason` "length", as a model server stops generating at the cap.
   */
  maxTokens: number | null;
  /** Prompt characters a provider's prompt cache would have held (`prompt-cache.ts`); null: not said. */
  cachedPromptChars?: number | null;
}

/** A text choice stopped at `maxTokens` (≈ 4 characters a token, as `tokens` counts them). */
function capped(r: { choice: WireChoice; chars: number }, maxTokens: number | null) {
  const content = r.choice.message.content;
  if (maxTokens === null || content === null || tokens(content.length) <= maxTokens) return r;
  const cut = content.slice(0, Math.max(0, maxTokens) * 4);
  return {
    choice: { ...r.choice, message: { ...r.choice.message, content: cut }, finish_reason: "length" as const },
    chars: cut.length,
  };
}

export function completionBody(c: CompletionInput): string {
  const choices: WireChoice[] = new Array(c.decision.replies.length);
  let completionChars = 0;
  c.decision.replies.forEach((reply, i) => {
    const r = capped(
      choiceFor(
        c.offFormat === null ? reply : { kind: "text", text: c.offFormat },
        i,
        c.decision,
        c.toolMode,
        c.callableTools,
      ),
      c.maxTokens,
    );
    choices[i] = r.choice;
    completionChars += r.chars;
  });
  const promptTokens = promptTokensOf(c.decision.promptChars, c.toolChars);
  const completionTokens = tokens(completionChars);
  return JSON.stringify({
    id: c.id,
    object: "chat.completion",
    created: c.created,
    model: c.model,
    choices,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(c.cachedPromptChars === undefined || c.cachedPromptChars === null
        ? {}
        : {
            prompt_tokens_details: {
              cached_tokens: Math.min(promptTokens, Math.floor(c.cachedPromptChars / 4)),
            },
          }),
    },
    system_fingerprint: "fp_bazaar_sim",
  });
}
