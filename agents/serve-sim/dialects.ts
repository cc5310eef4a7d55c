/**
 * Server dialects: the documented ways common OpenAI-compatible servers differ from OpenAI's own
 * chat-completion answers, reproduced so the LLM agent is tested against each offline
 * (`serve-sim --dialect …`). A dialect rewrites the standard answer `completionBody` wrote:
 *
 * - `vllm` — vLLM served without `--enable-auto-tool-choice`/`--tool-call-parser`: the model's tool
 *   call comes back as Hermes-style text in `content` (`<tool_call>{"name":…,"arguments":…}</tool_call>`),
 *   `tool_calls` empty and `finish_reason` "stop"; `reasoning_content` present (null) beside content;
 *   `usage.prompt_tokens_details` null.
 * - `ollama` — Ollama's OpenAI-compatible API: tool calls with `finish_reason` "stop" (as it did
 *   before returning "tool_calls"), content "" rather than null, `system_fingerprint` "fp_ollama";
 *   thinking models put their reasoning in `<think>…</think>` at the start of `content`.
 * - `deepseek` — DeepSeek's API: the reasoner's chain of thought in `reasoning_content` beside the
 *   answer, its tokens counted in `completion_tokens` and in `completion_tokens_details.reasoning_tokens`,
 *   and the prompt-cache counters `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`.
 * - `lmstudio` — LM Studio (llama.cpp) builds that send tool-call `arguments` as a JSON object, not a
 *   string, and answer without `usage`.
 * - `llamacpp` — llama.cpp's `llama-server`: tool calls with an empty `id`; tool calls constrained by
 *   a grammar only lazily under `tool_choice: "auto"`, so the model answers in text about half the
 *   time unless the tool is `required` (`lazyToolCall`); `GET /v1/models` answers without checking the
 *   key, and any model name is served by the one model it has loaded (the server's part).
 *
 * Every dialect stops a text reply at the request's output cap with `finish_reason` "length"
 * (`completionBody`).
 */
export const DIALECTS = ["openai", "vllm", "ollama", "deepseek", "lmstudio", "llamacpp"] as const;
export type Dialect = (typeof DIALECTS)[number];

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string | Record<string, unknown> };
}

interface WireMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: WireToolCall[];
  reasoning_content?: string | null;
  refusal?: null;
}

interface Completion {
  choices: { message: WireMessage; finish_reason: string }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: unknown;
    completion_tokens_details?: { reasoning_tokens: number };
    prompt_cache_hit_tokens?: number;
    prompt_cache_miss_tokens?: number;
  };
  system_fingerprint?: string;
}

const THOUGHT = "The user wants me to weigh the options and answer in the format they asked for.";

function args(call: WireToolCall): Record<string, unknown> {
  const a = call.function.arguments;
  return typeof a === "string" ? (JSON.parse(a) as Record<string, unknown>) : a;
}

function rewrite(dialect: Exclude<Dialect, "openai">, c: Completion): void {
  for (const choice of c.choices) {
    const m = choice.message;
    const calls = m.tool_calls ?? [];
    switch (dialect) {
      case "vllm":
        if (calls.length > 0) {
          m.content = calls
            .map(
              (t) =>
                `<tool_call>\n${JSON.stringify({ name: t.function.name, arguments: args(t) })}\n</tool_call>`,
            )
            .join("\n");
          m.tool_calls = [];
          choice.finish_reason = "stop";
        }
        m.reasoning_content = null;
        break;
      case "ollama":
        if (calls.length > 0) {
          m.content = "";
          choice.finish_reason = "stop";
        } else if (m.content !== null) m.content = `<think>\n${THOUGHT}\n</think>\n\n${m.content}`;
        break;
      case "deepseek":
        m.reasoning_content = THOUGHT;
        break;
      case "lmstudio":
        for (const t of calls) t.function.arguments = args(t);
        break;
      case "llamacpp":
        for (const t of calls) t.id = "";
        break;
    }
  }
  if (dialect === "vllm" && c.usage) c.usage.prompt_tokens_details = null;
  if (dialect === "ollama") c.system_fingerprint = "fp_ollama";
  if (dialect === "deepseek" && c.usage) {
    const reasoning = Math.ceil(THOUGHT.length / 4) * c.choices.length;
    c.usage.completion_tokens += reasoning;
    c.usage.total_tokens += reasoning;
    c.usage.completion_tokens_details = { reasoning_tokens: reasoning };
    c.usage.prompt_cache_hit_tokens = 0;
    c.usage.prompt_cache_miss_tokens = c.usage.prompt_tokens;
  }
  if (dialect === "lmstudio") delete c.usage;
}

/**
 * Whether the dialect's server lets the model answer in text although tools were offered: llama.cpp
 * applies its tool-call grammar lazily under `tool_choice` "auto" (or none given), so a small model
 * often writes text instead; "required" forces the call. Half the requests, by the decision's digest.
 */
export function lazyToolCall(dialect: Dialect, toolChoice: string | null, digest: string): boolean {
  return (
    dialect === "llamacpp" &&
    (toolChoice === "auto" || toolChoice === null) &&
    Number.parseInt(digest.slice(0, 2), 16) % 2 === 1
  );
}

/** The completion body as the dialect's server would write it. */
export function inDialect(dialect: Dialect, body: string): string {
  if (dialect === "openai") return body;
  const c = JSON.parse(body) as Completion;
  rewrite(dialect, c);
  return JSON.stringify(c);
}
