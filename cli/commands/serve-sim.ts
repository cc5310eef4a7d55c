import type { Command } from "commander";
import { DIALECTS } from "../../agents/serve-sim/dialects.ts";
import type { ServeSimFlags } from "../actions/serve-sim.ts";
import type { Output } from "../output.ts";

export function registerServeSim(program: Command, out: Output): void {
  program
    .command("serve-sim")
    .description("serve the simulated shoppers as an OpenAI-compatible model server (models sim-<preset>)")
    .option("--port <n>", "port to listen on (0 picks a free one)", "8089")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--latency-ms <n>", "latency added before every response", "0")
    .option("--rate-429 <p>", "probability of an injected 429 (with retry-after)", "0")
    .option("--rate-500 <p>", "probability of an injected 500", "0")
    .option("--rate-timeout <p>", "probability of a request held --timeout-ms, then dropped", "0")
    .option("--rate-malformed <p>", "probability of a 200 with malformed JSON", "0")
    .option("--rate-off-format <p>", "probability of a reply that names no option", "0")
    .option("--timeout-ms <n>", "how long a simulated timeout holds the request", "30000")
    .option("--retry-after <s>", "retry-after seconds sent with 429s", "1")
    .option("--seed <seed>", "seed of the fault stream and the simulated decisions", "0")
    .option(
      "--rate-drop <p>",
      "share of distinct requests answered 500 on each of their first --drop-attempts arrivals (a provider failing through every retry)",
      "0",
    )
    .option("--drop-attempts <n>", "arrivals of a dropped request that fail before it is answered", "6")
    .option("--api-key <key>", "answer 401 to every request without this bearer key, as a provider does")
    .option(
      "--dialect <server>",
      `answer with a server's documented quirks: ${DIALECTS.join(", ")} (tool calls as text, reasoning_content, usage missing, object arguments, finish_reason variants)`,
      "openai",
    )
    .option(
      "--limit-rpm <n>",
      "a rate limit: requests a minute, as a token bucket; beyond it 429 with OpenAI's x-ratelimit-* and retry-after headers (POST /_sim/limits changes it while serving)",
    )
    .option(
      "--limit-tpm <n>",
      "a rate limit in tokens a minute (the prompt, about 4 characters a token, plus max_tokens)",
    )
    .option(
      "--limit-burst-seconds <s>",
      "seconds of the limit a bucket holds (600 a minute: 10 at once)",
      "1",
    )
    .option(
      "--no-rate-headers",
      "say nothing of the limit: no x-ratelimit-* headers, no retry-after on its 429s",
    )
    .option(
      "--latency-knee <n>",
      "latency that grows with load: with more than n requests in flight, --latency-ms times their number over n",
    )
    .option(
      "--prompt-cache",
      "report prompt-cache hits (usage.prompt_tokens_details.cached_tokens) for repeated message prefixes",
    )
    .option("--batch-delay-ms <n>", "batch API: time from creating a batch to its lines being answered", "0")
    .option(
      "--batch-fail-rate <p>",
      "batch API: share of lines answered 500 in the error file (drawn afresh at each submission)",
      "0",
    )
    .option(
      "--batch-expire <n,…>",
      "batch API: ordinals of the batches that expire half done (1 = the first batch created)",
    )
    .action(async (o: ServeSimFlags) => {
      await (await import("../actions/serve-sim.ts")).serveSim(o, out);
    });
}
