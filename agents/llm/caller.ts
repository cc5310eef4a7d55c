import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { bazaarBug } from "../../environments/kernel/errors.ts";
import { AgentFailure } from "../../environments/kernel/failures.ts";
import { createRng, type Rng } from "../../environments/kernel/rng.ts";
import { emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import type { AttemptReport } from "./adaptive.ts";
import { type CachedResponse, cacheKey, type ResponseCache } from "./cache.ts";
import { notACompletionIn } from "./completion-check.ts";
import { type CallEvents, type CallGate, encodeError, LocalGate } from "./gate.ts";
import { httpRequester } from "./http.ts";
import { chatModelModule, langchainMessages } from "./langchain.ts";
import { describeSlot, type SlotContext, slotContextOnce } from "./llamacpp.ts";
import { ATTEMPT_HEADER, AttemptObserver } from "./observe.ts";
import { poolIdentity } from "./pool/replicas.ts";
import {
  backoffMs,
  type Classified,
  classifyError,
  RequestRefused,
  type RetryPolicy,
  sleep,
} from "./resilience.ts";
import { redact } from "./secrets.ts";
import type { LlmSettings } from "./settings.ts";
import type { ActionTool } from "./tools.ts";

/** A message as it enters the cache key: role, text, tool calls (names and arguments, not ids). */
function wireMessage(m: BaseMessage): Record<string, unknown> {
  const ai = m as AIMessage;
  return {
    role: m.getType(),
    content: m.content,
    toolCalls: ai.tool_calls?.map((c) => ({ name: c.name, args: c.args })) ?? [],
  };
}

export function toAIMessage(r: CachedResponse, AI: typeof AIMessage): AIMessage {
  return new AI({
    content: r.content,
    // Kept, for a cached answer too: an answer stopped at the cap ("length") is not a finished one.
    response_metadata: r.finishReason === null ? {} : { finish_reason: r.finishReason },
    tool_calls: r.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      args: c.args,
      type: "tool_call" as const,
    })),
  });
}

type OpenAIChatBuilder = Awaited<ReturnType<typeof chatModelModule>>["openAIChat"];

/** The one method of a LangChain chat model the caller uses (ChatOpenAI, or fakeModel() in tests). */
export interface ChatInvoker {
  invoke(messages: BaseMessage[], options?: Record<string, unknown>): Promise<AIMessage | BaseMessage>;
}

export interface CallResult {
  message: AIMessage;
  usage: Usage;
}

/**
 * Calls one model with caching, de-duplication of identical concurrent requests, rate limiting,
 * retries and the circuit breaker (the shared parts through a `CallGate`). Only successes are
 * cached. A call that will not succeed throws what it means (`failureFor`), its message key-free.
 */
export class ModelCaller {
  /** The injected chat model (tests), or none: ChatOpenAI clients are made on first use. */
  private readonly injectedChat: ChatInvoker | undefined;
  /** The clients, one per replica of an endpoint pool (one without a pool), made on first use. */
  private readonly replicaChats: (ChatInvoker | undefined)[] = [];
  private readonly apiKey: string | undefined;
  readonly gate: CallGate;
  private readonly jitter: Rng;
  private readonly retry: RetryPolicy;
  /** Status and rate-limit headers of each attempt, read at the client's fetch. */
  private readonly observer = new AttemptObserver();

  constructor(
    readonly settings: LlmSettings,
    apiKey: string | undefined,
    cache: ResponseCache | undefined,
    private readonly events: CallEvents = {},
    chat?: ChatInvoker,
    gate?: CallGate,
  ) {
    this.apiKey = apiKey;
    this.injectedChat = chat;
    this.gate = gate ?? new LocalGate(settings, cache, events);
    this.jitter = createRng(`jitter|${settings.model}`);
    this.retry = { maxRetries: settings.maxRetries, baseDelayMs: 250, maxDelayMs: 30_000 };
  }

  /** The client of the replica a pool's gate granted (the one endpoint's without a pool). */
  private chatFor(replica: number | undefined, openAIChat: OpenAIChatBuilder): ChatInvoker {
    if (this.injectedChat) return this.injectedChat;
    const i = replica ?? 0;
    let chat = this.replicaChats[i];
    if (!chat) {
      chat = openAIChat(this.settings, this.apiKey, {
        baseURL: this.settings.replicas?.[i] ?? this.settings.baseURL,
        timeoutMs: this.settings.timeoutMs,
        fetch: this.observer.fetch,
      }) as unknown as ChatInvoker;
      this.replicaChats[i] = chat;
    }
    return chat;
  }

  async call(
    messages: BaseMessage[],
    tools: ActionTool[] | undefined,
    replicate: number,
    signal?: AbortSignal,
  ): Promise<CallResult> {
    const s = this.settings;
    // Every call carries a seed, offset by the replicate: replicates are independent samples even
    // from a server that is deterministic per request (serve-sim, or a model at temperature 0).
    const seed = s.sendSeed ? (s.seed ?? 0) + replicate : undefined;
    const key = cacheKey({
      // A pool is one endpoint: the key names the pool, never the replica that answers.
      baseURL: s.replicas ? poolIdentity(s.replicas) : s.baseURL,
      model: s.model,
      messages: messages.map(wireMessage),
      tools: tools ?? null,
      toolChoice: tools ? (s.toolChoice ?? "auto") : null,
      params: {
        temperature: s.temperature ?? null,
        topP: s.topP ?? null,
        maxTokens: s.maxTokens ?? null,
        seed: seed ?? null,
        reasoningEffort: s.reasoningEffort ?? null,
      },
      replicate,
    });
    const { AIMessage } = await langchainMessages();
    const known = await this.gate.claim(key);
    // An answer from bazaar's own cache (or an identical request's) costs nothing: no call, no tokens.
    if (known) return { message: toAIMessage(known, AIMessage), usage: { ...emptyUsage(), cacheHits: 1 } };
    const started = Date.now();
    let result: { response: CachedResponse; calls: number };
    try {
      result = await this.withRetries(messages, tools, seed, signal);
    } catch (err) {
      this.gate.settle(key, encodeError(err)); // identical requests waiting throw what it means
      throw err;
    }
    this.gate.settle(key, { response: result.response });
    return {
      message: toAIMessage(result.response, AIMessage),
      usage: { ...this.usageOf(result.response, Date.now() - started), calls: result.calls },
    };
  }

  /**
   * Where a server answered a completion with an empty body: the slot size, if it is a llama.cpp
   * server (whose empty answer means a prompt longer than a slot). Asked only of a real endpoint.
   */
  private async slotNote(url: string, err: unknown): Promise<SlotContext | null> {
    if (this.injectedChat || notACompletionIn(err)?.kind !== "empty") return null;
    return slotContextOnce(url, this.apiKey, httpRequester);
  }

  private usageOf(r: CachedResponse, latencyMs: number): Usage {
    return {
      ...emptyUsage(),
      inputTokens: r.usage.inputTokens,
      ...(r.usage.cachedInputTokens ? { cachedInputTokens: r.usage.cachedInputTokens } : {}),
      outputTokens: r.usage.outputTokens,
      reasoningTokens: r.usage.reasoningTokens,
      latencyMs,
      ...(r.finishReason === "length" ? { cutAtCap: 1 } : {}),
    };
  }

  private async withRetries(
    messages: BaseMessage[],
    tools: ActionTool[] | undefined,
    seed: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ response: CachedResponse; calls: number }> {
    // What a token budget counts a request at: its prompt and the answer it may have.
    const estimate = Math.ceil(promptChars(messages) / 4) + (this.settings.maxTokens || 256);
    const { openAIChat } = await chatModelModule();
    // The replica the last attempt went to: a retry goes to another when the pool has one.
    let last: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const release = await this.gate.acquire(estimate, signal, last);
      last = release.replica;
      const url = last === undefined ? this.settings.baseURL : this.settings.replicas![last]!;
      let chat: ReturnType<typeof this.chatFor>;
      try {
        chat = this.chatFor(last, openAIChat);
      } catch (err) {
        release("aborted"); // the slot back: nothing was sent
        throw err;
      }
      let ai: AIMessage;
      // The OpenAI SDK adds an abort listener to the signal of every request and never removes it:
      // give it a signal of its own per attempt, so the run's signal does not collect them.
      const attemptSignal = signal && new AbortController();
      const onAbort = () => attemptSignal?.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) onAbort();
      const attemptId = this.injectedChat ? undefined : this.observer.begin();
      const sentAt = performance.now();
      // What the limiter learns of the attempt: latency, status, the server's rate-limit headers.
      const report = (status: number | undefined): AttemptReport => {
        const seen = attemptId === undefined ? undefined : this.observer.take(attemptId);
        const code = status ?? seen?.status;
        return {
          latencyMs: performance.now() - sentAt,
          ...(code === undefined ? {} : { status: code }),
          ...(seen?.limits ? { limits: seen.limits } : {}),
        };
      };
      try {
        ai = (await chat.invoke(messages, {
          signal: attemptSignal?.signal,
          ...(seed === undefined ? {} : { seed }),
          ...(tools ? { tools, tool_choice: this.settings.toolChoice ?? "auto" } : {}),
          ...(attemptId === undefined ? {} : { options: { headers: { [ATTEMPT_HEADER]: attemptId } } }),
        })) as AIMessage;
      } catch (err) {
        if (signal?.aborted) {
          if (attemptId !== undefined) this.observer.take(attemptId);
          release("aborted");
          throw err;
        }
        const c = classifyError(err);
        const reason = redact(c.summary);
        release({ failure: reason }, report(c.status));
        if (!c.retryable || attempt >= this.retry.maxRetries)
          throw failureFor(this.settings, url, c, reason, attempt + 1, err, await this.slotNote(url, err));
        const delayMs = backoffMs(attempt, this.retry, this.jitter, c.retryAfterSeconds);
        this.events.onRetry?.({ model: this.settings.model, attempt: attempt + 1, delayMs, reason });
        await sleep(delayMs, signal);
        continue;
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
      release("success", report(undefined));
      return { response: fromAIMessage(ai), calls: attempt + 1 };
    }
  }
}

/** Characters of a request's messages (a token estimate's base: about four to a token). */
function promptChars(messages: BaseMessage[]): number {
  let n = 0;
  for (const m of messages)
    n += typeof m.content === "string" ? m.content.length : JSON.stringify(m.content).length;
  return n;
}

/**
 * What a call that will not succeed means (DESIGN.md § Failures are not answers): a rejected key or
 * an unknown model is the run's configuration (it stops the run); a failure that outlived every retry
 * (timeouts, 5xx, rate limits, broken connections, a 200 that is not a chat completion) is the
 * infrastructure's (the trial is failed and runs again later); a request the server refused on its
 * merits (a 400 for this request) is the model's answer to it; and an error raised on this side
 * with no answer behind it is bazaar's own bug (the run stops, the trial unplayed).
 */
function failureFor(
  s: LlmSettings,
  url: string,
  c: Classified,
  reason: string,
  attempts: number,
  err: unknown,
  slot: SlotContext | null,
): Error {
  const tried = `after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  if (c.status === 401 || c.status === 403)
    return new AgentFailure(
      "configuration",
      `${url} rejected the API key for ${s.model} (${reason})`,
      "set OPENAI_API_KEY (or --env-file) to a key this endpoint accepts",
    );
  if (c.noQuota)
    return new AgentFailure(
      "configuration",
      `the account behind the API key has no quota left for ${s.model} at ${url} (${reason})`,
      "add credit to the account (or set another key), then run the same command again",
    );
  if (c.status === 404)
    return new AgentFailure(
      "configuration",
      `model ${s.model} is not served at ${url} (${reason})`,
      "check the model name after openai: and --base-url (GET <base-url>/models lists what a server serves)",
    );
  if (c.origin === "client") return bazaarBug(s.model, reason, err);
  if (!c.retryable) return new RequestRefused(`${s.model}: ${reason} (${tried})`);
  if (slot)
    return new AgentFailure(
      "infrastructure",
      `${s.model}: ${reason} (${tried}) — the llama.cpp server at ${url} answers so a prompt longer than a slot, and ${describeSlot(slot)}`,
      "start llama-server with a larger -c or fewer slots (-np) so that a slot holds the longest prompt, then run the same command again",
      c.label,
    );
  return new AgentFailure("infrastructure", `${s.model}: ${reason} (${tried})`, undefined, c.label);
}

export function fromAIMessage(ai: AIMessage): CachedResponse {
  const content = typeof ai.content === "string" ? ai.content : JSON.stringify(ai.content);
  const meta = ai.usage_metadata;
  return {
    content,
    toolCalls: (ai.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
    usage: {
      inputTokens: meta?.input_tokens ?? 0,
      outputTokens: meta?.output_tokens ?? 0,
      reasoningTokens: meta?.output_token_details?.reasoning ?? 0,
      // The provider's prompt-cache hits (`prompt_tokens_details.cached_tokens`), where it says.
      ...(meta?.input_token_details?.cache_read
        ? { cachedInputTokens: meta.input_token_details.cache_read }
        : {}),
    },
    finishReason: (ai.response_metadata?.finish_reason as string | undefined) ?? null,
  };
}
