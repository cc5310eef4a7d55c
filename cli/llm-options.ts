import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import type { Command } from "commander";
import { z } from "zod";
import type { CachedResponse, CacheStats, ResponseCache } from "../agents/llm/cache.ts";
import { loadModelRules } from "../agents/llm/model-params.ts";
import { parseBaseUrls } from "../agents/llm/pool/base-urls.ts";
import { registerSecret } from "../agents/llm/secrets.ts";
import type { LlmContext } from "../agents/registry.ts";
import { UserError } from "../environments/kernel/errors.ts";
import { choiceOf, parseOption, positiveInt } from "./options.ts";

/** The model options every command that runs LLM agents takes. */
export interface LlmOptions {
  baseUrl?: string;
  temperature?: string;
  topP?: string;
  maxTokens?: string;
  modelSeed?: string;
  reasoningEffort?: string;
  answerMode: string;
  timeoutMs: string;
  maxRetries: string;
  rpm?: string;
  tpm?: string;
  modelConcurrency: string;
  cache: boolean;
  preflight: boolean;
  modelRules?: string;
  envFile?: string;
  /** `run --batch`: refused with an endpoint pool (a batch goes to one endpoint). */
  batch?: boolean;
}

export function addLlmOptions(cmd: Command): Command {
  return cmd
    .option(
      "--base-url <url>",
      "OpenAI-compatible endpoint for openai:<model> agents (vLLM, Ollama, serve-sim…); a,b,c or @pool.json: an endpoint pool (each request to the replica with the fewest in flight)",
    )
    .option("--temperature <t>", "sampling temperature for LLM agents")
    .option("--top-p <p>", "nucleus sampling for LLM agents")
    .option("--max-tokens <n>", "answer length cap for LLM agents")
    .option("--model-seed <n>", "sampling seed sent with every call (plus the replicate index)")
    .option("--reasoning-effort <level>", "minimal, low, medium or high, for models that reason")
    .option(
      "--answer-mode <mode>",
      "tools (function calls) or text (the paper's plain-text protocol)",
      "text",
    )
    .option("--timeout-ms <ms>", "per-request timeout", "60000")
    .option("--max-retries <n>", "retries on 429/5xx/timeouts, with backoff honouring retry-after", "5")
    .option("--rpm <n>", "requests per minute per model")
    .option("--tpm <n>", "tokens per minute per model")
    .option("--model-concurrency <n>", "requests in flight per model (per replica of an endpoint pool)", "16")
    .option("--no-cache", "ask the model even when the store holds this exact answer")
    .option(
      "--no-preflight",
      "skip the check, before the first trial, that every endpoint answers, takes the key and serves the model",
    )
    .option("--env-file <file>", "read OPENAI_API_KEY from this .env file")
    .option(
      "--model-rules <file>",
      "JSON rules for what a model family accepts (settings not sent, where the token cap goes); they come before the built-in ones",
    );
}

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
      maxTokens: opt("max-tokens", positiveInt, o.maxTokens),
      seed: opt("model-seed", z.coerce.number().int(), o.modelSeed),
      reasoningEffort: opt(
        "reasoning-effort",
        choiceOf(["minimal", "low", "medium", "high"] as const),
        o.reasoningEffort,
      ),
      answerMode: parseOption("answer-mode", choiceOf(["tools", "text"] as const), o.answerMode),
      timeoutMs: parseOption("timeout-ms", positiveInt, o.timeoutMs),
      maxRetries: parseOption("max-retries", z.coerce.number().int().nonnegative(), o.maxRetries),
      requestsPerMinute: opt("rpm", finite.pipe(z.number().positive()), o.rpm),
      tokensPerMinute: opt("tpm", finite.pipe(z.number().positive()), o.tpm),
      concurrency: parseOption("model-concurrency", positiveInt, o.modelConcurrency),
      useCache: o.cache,
    },
    apiKey: apiKeyFrom(o.envFile),
    cache,
    modelRules: o.modelRules === undefined ? [] : loadModelRules(o.modelRules),
    notes: new Set<string>(),
  };
}
