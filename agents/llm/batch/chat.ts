/**
 * The chat model of a batch turn: ChatOpenAI itself, built as the live caller builds it
 * (`caller.ts`, `ModelCaller.openAI`: the same model-family fields), whose HTTP goes to a batch
 * instead of the network. So a batch line's body is exactly what ChatOpenAI would send live, and the
 * batch's answer is turned into an AIMessage by ChatOpenAI's own parsing, the server's dialect read
 * at the wire as live (`normalizingFetch`). A test holds the bodies of both builds equal.
 */
import { ChatOpenAI } from "@langchain/openai";
import type { ChatInvoker } from "../caller.ts";
import { normalizingFetch } from "../dialects.ts";
import type { LlmSettings } from "../settings.ts";

/**
 * A batch may take the provider's whole 24-hour window and some: the request waits for it, so the
 * per-request timeout is the window plus a margin (an aborted run stops waiting at once).
 */
export const BATCH_TURN_TIMEOUT_MS = 26 * 60 * 60 * 1000;

/** The models @langchain/openai 1.5 treats as reasoning models (its `isReasoningModel`), as caller.ts. */
function langChainReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || (model.startsWith("gpt-5") && !model.startsWith("gpt-5-chat"));
}

export function batchChat(
  settings: LlmSettings,
  apiKey: string | undefined,
  fetch: typeof globalThis.fetch,
): ChatInvoker {
  // As caller.ts: where our model rules say a field LangChain would not send, it goes as a kwarg.
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
    configuration: { baseURL: settings.baseURL, fetch: normalizingFetch(fetch) },
    temperature: settings.temperature,
    topP: settings.topP,
    maxTokens,
    timeout: BATCH_TURN_TIMEOUT_MS,
    maxRetries: 0,
    useResponsesApi: false,
    ...(settings.reasoningEffort && known ? { reasoning: { effort: settings.reasoningEffort } } : {}),
    ...(Object.keys(kwargs).length > 0 ? { modelKwargs: kwargs } : {}),
  }) as unknown as ChatInvoker;
}
