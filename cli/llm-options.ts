import { type Command, Option } from "commander";

/** The model options every command that runs LLM agents takes. */
export interface LlmOptions {
  baseUrl?: string;
  temperature?: string;
  topP?: string;
  maxTokens?: string;
  modelSeed?: string;
  reasoningEffort?: string;
  answerMode: string;
  toolChoice?: string;
  timeoutMs: string;
  maxRetries: string;
  rpm?: string;
  tpm?: string;
  modelConcurrency: string;
  /** `--fixed-concurrency`: hold `--model-concurrency` instead of finding the endpoint's limit. */
  fixedConcurrency?: boolean;
  cache: boolean;
  preflight: boolean;
  modelRules?: string;
  envFile?: string;
  breakerCooldownMs?: string;
  /** `run --batch`: refused with an endpoint pool (a batch goes to one endpoint). */
  batch?: boolean;
}

export function addLlmOptions(cmd: Command): Command {
  return (
    cmd
      .option(
        "--base-url <url>",
        "OpenAI-compatible endpoint for openai:<model> agents (vLLM, Ollama, serve-sim…); a,b,c or @pool.json: an endpoint pool (each request to the replica with the fewest in flight)",
      )
      .option("--temperature <t>", "sampling temperature for LLM agents")
      .option("--top-p <p>", "nucleus sampling for LLM agents")
      .option(
        "--max-tokens <n>",
        "output cap of each model call, in tokens (default: the environment's, below; 0 sends none)",
      )
      .option("--model-seed <n>", "sampling seed sent with every call (plus the replicate index)")
      .option("--reasoning-effort <level>", "minimal, low, medium or high, for models that reason")
      .option(
        "--answer-mode <mode>",
        "tools (function calls) or text (the paper's plain-text protocol)",
        "text",
      )
      .option(
        "--tool-choice <mode>",
        "tools mode: required (the model must call a tool) or auto (it may answer in text) (default: the environment's, below)",
      )
      .option("--timeout-ms <ms>", "per-request timeout", "60000")
      .option("--max-retries <n>", "retries on 429/5xx/timeouts, with backoff honouring retry-after", "5")
      .option("--rpm <n>", "requests per minute per model: a hard cap, whatever the server allows")
      .option("--tpm <n>", "tokens per minute per model: a hard cap, whatever the server allows")
      .option(
        "--model-concurrency <n>",
        "most requests in flight per model (per replica of an endpoint pool); within it the number adapts to the server's rate limit and latency",
        "16",
      )
      .option(
        "--fixed-concurrency",
        "keep --model-concurrency requests in flight: no adapting to the server's rate-limit headers, 429s or latency",
      )
      .option("--no-cache", "ask the model even when the store holds this exact answer")
      .option(
        "--no-preflight",
        "skip the check, before the first trial, that every endpoint answers, takes the key and serves the model",
      )
      .option("--env-file <file>", "read OPENAI_API_KEY from this .env file")
      .option(
        "--model-rules <file>",
        "JSON rules for what a model family accepts (settings not sent, where the token cap goes); they come before the built-in ones",
      )
      // How long a model pauses after its circuit breaker opens (30 s; tests shorten it).
      .addOption(new Option("--breaker-cooldown-ms <ms>").hideHelp())
  );
}
