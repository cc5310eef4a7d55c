/**
 * The ChatOpenAI an LLM agent talks through, built in one place for live calls (`caller.ts`) and
 * batch turns (`batch/chat.ts`), so that a batch line's body is exactly what the live request would
 * have been: the same model-family fields, the same dialect reading at the wire.
 */
import { ChatOpenAI } from "@langchain/openai";
import { normalizingFetch } from "./dialects.ts";
import type { LlmSettings } from "./settings.ts";

/** The models @langchain/openai 1.5 treats as reasoning models (its `isReasoningModel`). */
function langChainReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || (model.startsWith("gpt-5") && !model.startsWith("gpt-5-chat"));
}

export function openAIChat(
  settings: LlmSettings,
  apiKey: string | undefined,
  o: { baseURL: string; timeoutMs: number | undefined; fetch?: typeof globalThis.fetch },
): ChatOpenAI {
  // LangChain sends max_completion_tokens and reasoning_effort only to models it knows as
  // reasoning models, and drops reasoning_effort for any other: where our rules (model-params.ts)
  // say otherwise, the field goes in as a model kwarg, so what is sent is what the rules say.
  const known = langChainReasoningModel(settings.model);
  const kwargs: Record<string, unknown> = {};
  let maxTokens = settings.maxTokens;
  const field = settings.maxTokensField ?? (known ? "max_completion_tokens" : "max_tokens");
  if (maxTokens !== undefined && field !== (known ? "max_completion_tokens" : "max_tokens")) {
    kwargs[field] = maxTokens;
    maxTokens = undefined;
  }
  if (settings.reasoningEffort && !known) kwargs.reasoning_effort = settings.reasoningEffort;
  return new ChatOpenAI({
    model: settings.model,
    apiKey: apiKey ?? "not-needed",
    // Every server's dialect is read as OpenAI's own (dialects.ts).
    configuration: { baseURL: o.baseURL, fetch: normalizingFetch(o.fetch) },
    temperature: settings.temperature,
    topP: settings.topP,
    maxTokens,
    timeout: o.timeoutMs,
    // Retries are ours (they honour retry-after and feed the circuit breaker), not the SDK's.
    maxRetries: 0,
    useResponsesApi: false,
    ...(settings.reasoningEffort && known ? { reasoning: { effort: settings.reasoningEffort } } : {}),
    ...(Object.keys(kwargs).length > 0 ? { modelKwargs: kwargs } : {}),
  });
}
