/**
 * The LLM settings of a run from its command-line values (llm-options.ts): checked, with the key read
 * from the environment or an .env file, and the response cache the store attaches later.
 */
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { z } from "zod";
import type { CachedResponse, CacheStats, ResponseCache } from "../agents/llm/cache.ts";
import { loadModelRules } from "../agents/llm/model-params.ts";
import { parseBaseUrls } from "../agents/llm/pool/base-urls.ts";
import { registerSecret } from "../agents/llm/secrets.ts";
import type { LlmContext } from "../agents/registry.ts";
import { UserError } from "../environments/kernel/errors.ts";
import type { LlmOptions } from "./llm-options.ts";
import { choiceOf, nonNegativeInt, parseOption, positiveInt } from "./options.ts";

const finite = z.coerce.number({ error: "expected a number" }).refine(Number.isFinite, "expected a number");

/** Reads the key from the environment or the named .env file; it is kept in memory only. */
function apiKeyFrom(envFile: string | undefined): string | undefined {
  let key = process.env.OPENAI_API_KEY;
  if (envFile) {
    let text: string;
    try {
      text = readFileSync(envFile, "utf8");
    } catch {
      throw new UserError(`cannot read the env file ${envFile}`, "check the path given to --env-file");
    }
    key = parseEnv(text).OPENAI_API_KEY ?? key;
  }
  registerSecret(key);
  return key;
}

/**
 * A cache whose backing store is attached later: agents are built (and every option checked) before
 * the store is opened, so bad input never writes a store file.
 */
export class DeferredCache implements ResponseCache {
  target: ResponseCache | undefined;
  get(key: string): CachedResponse | undefined {
    return this.target?.get(key);
  }
  put(key: string, model: string, value: CachedResponse): void {
    this.target?.put(key, model, value);
  }
  stats(): CacheStats {
    return this.target?.stats() ?? { entries: 0, byModel: [] };
  }
  clear(model?: string): number {
    return this.target?.clear(model) ?? 0;
  }
}

export function llmContextFrom(o: LlmOptions, cache: ResponseCache): LlmContext {
  const opt = <T>(name: string, schema: z.ZodType<T>, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, schema, v);
  const urls = o.baseUrl === undefined ? undefined : parseBaseUrls(o.baseUrl);
  if (urls && urls.length > 1 && o.batch)
    throw new UserError(
      "--batch sends to one endpoint; give one --base-url",
      `drop --batch to spread the calls over the ${urls.length} replicas, or name one of them`,
    );
  return {
    settings: {
      baseURL: urls?.[0],
      ...(urls && urls.length > 1 ? { replicas: urls } : {}),
      temperature: opt("temperature", finite.pipe(z.number().min(0).max(2)), o.temperature),
      topP: opt("top-p", finite.pipe(z.number().gt(0).max(1)), o.topP),
      maxTokens: opt("max-tokens", nonNegativeInt, o.maxTokens),
      seed: opt("model-seed", z.coerce.number().int(), o.modelSeed),
      reasoningEffort: opt(
        "reasoning-effort",
        choiceOf(["minimal", "low", "medium", "high"] as const),
        o.reasoningEffort,
      ),
      answerMode: parseOption("answer-mode", choiceOf(["tools", "text"] as const), o.answerMode),
      toolChoice: opt("tool-choice", choiceOf(["auto", "required"] as const), o.toolChoice),
      timeoutMs: parseOption("timeout-ms", positiveInt, o.timeoutMs),
      maxRetries: parseOption("max-retries", z.coerce.number().int().nonnegative(), o.maxRetries),
      requestsPerMinute: opt("rpm", finite.pipe(z.number().positive()), o.rpm),
      tokensPerMinute: opt("tpm", finite.pipe(z.number().positive()), o.tpm),
      concurrency: parseOption("model-concurrency", positiveInt, o.modelConcurrency),
      adaptiveConcurrency: o.fixedConcurrency !== true,
      useCache: o.cache,
      ...(o.breakerCooldownMs === undefined
        ? {}
        : { breakerCooldownMs: parseOption("breaker-cooldown-ms", nonNegativeInt, o.breakerCooldownMs) }),
    },
    apiKey: apiKeyFrom(o.envFile),
    cache,
    modelRules: o.modelRules === undefined ? [] : loadModelRules(o.modelRules),
    notes: new Set<string>(),
  };
}
