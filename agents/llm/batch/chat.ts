/**
 * The chat model of a batch turn: ChatOpenAI itself, built by the same function as the live
 * caller's (`chat-model.ts`: the same model-family fields), whose HTTP goes to a batch
 * instead of the network. So a batch line's body is exactly what ChatOpenAI would send live, and the
 * batch's answer is turned into an AIMessage by ChatOpenAI's own parsing, the server's dialect read
 * at the wire as live (`normalizingFetch`). A test holds the bodies of both builds equal.
 */
import type { ChatInvoker } from "../caller.ts";
import { openAIChat } from "../chat-model.ts";
import type { LlmSettings } from "../settings.ts";

/**
 * A batch may take the provider's whole 24-hour window and some: the request waits for it, so the
 * per-request timeout is the window plus a margin (an aborted run stops waiting at once).
 */
export const BATCH_TURN_TIMEOUT_MS = 26 * 60 * 60 * 1000;

export function batchChat(
  settings: LlmSettings,
  apiKey: string | undefined,
  fetch: typeof globalThis.fetch,
): ChatInvoker {
  return openAIChat(settings, apiKey, {
    baseURL: settings.baseURL,
    timeoutMs: BATCH_TURN_TIMEOUT_MS,
    fetch,
  }) as unknown as ChatInvoker;
}
