import { z } from "zod";
import { DIALECTS } from "../../agents/serve-sim/dialects.ts";
import { type SimServer, startSimServer } from "../../agents/serve-sim/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { choiceOf, nonNegativeInt, parseOption, positiveInt } from "../options.ts";
import type { Output } from "../output.ts";

export interface ServeSimFlags {
  port: string;
  host: string;
  latencyMs: string;
  rate429: string;
  rate500: string;
  rateTimeout: string;
  rateMalformed: string;
  rateOffFormat: string;
  timeoutMs: string;
  retryAfter: string;
  seed: string;
  rateDrop: string;
  dialect: string;
  dropAttempts: string;
  apiKey?: string;
  /** The rate limit (`--limit-*`, `--no-rate-headers`), latency under load, the prompt cache. */
  limitRpm?: string;
  limitTpm?: string;
  limitBurstSeconds?: string;
  rateHeaders?: boolean;
  latencyKnee?: string;
  promptCache?: boolean;
  /** The batch API's flags (absent: no delay, no faults). */
  batchDelayMs?: string;
  batchFailRate?: string;
  batchExpire?: string;
}

const rate = z.coerce
  .number({ error: "expected a number" })
  .min(0, "expected a probability in [0, 1]")
  .max(1, "expected a probability in [0, 1]");
const port = z.coerce
  .number({ error: "expected a number" })
  .int("expected a whole number")
  .min(0, "expected a port from 0 to 65535")
  .max(65535, "expected a port from 0 to 65535");
const host = z.string().trim().min(1, "expected a host name or address");

/** `--batch-expire 1,3`: the ordinals of the batches that expire. */
function ordinals(raw: string | undefined): number[] {
  if (raw === undefined) return [];
  return raw
    .split(",")
    .map((part) => parseOption("batch-expire", z.coerce.number().int().min(1), part.trim()));
}

const perMinute = z.coerce
  .number({ error: "expected a number" })
  .refine(Number.isFinite, "expected a number")
  .pipe(z.number().positive("expected a number above 0"));

/** `--limit-rpm`, `--limit-tpm` and the rest: the server's rate limit (none without a limit). */
function limitsOf(o: ServeSimFlags) {
  const rpm = o.limitRpm === undefined ? undefined : parseOption("limit-rpm", perMinute, o.limitRpm);
  const tpm = o.limitTpm === undefined ? undefined : parseOption("limit-tpm", perMinute, o.limitTpm);
  return {
    ...(rpm === undefined ? {} : { rpm }),
    ...(tpm === undefined ? {} : { tpm }),
    burstSeconds: parseOption("limit-burst-seconds", perMinute, o.limitBurstSeconds ?? "1"),
    headers: o.rateHeaders !== false,
  };
}

function seedValue(raw: string): number | string {
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/** Validated server options from the command-line flags; throws UserError naming the bad flag. */
export function serveSimOptions(o: ServeSimFlags) {
  const faults = {
    rate429: parseOption("rate-429", rate, o.rate429),
    rate500: parseOption("rate-500", rate, o.rate500),
    rateTimeout: parseOption("rate-timeout", rate, o.rateTimeout),
    rateMalformedJson: parseOption("rate-malformed", rate, o.rateMalformed),
    rateOffFormat: parseOption("rate-off-format", rate, o.rateOffFormat),
  };
  const total = Object.values(faults).reduce((a, b) => a + b, 0);
  if (total > 1 + 1e-9) {
    throw new UserError(`the --rate-* options sum to ${Number(total.toFixed(6))}, more than 1`);
  }
  return {
    port: parseOption("port", port, o.port),
    host: parseOption("host", host, o.host),
    latencyMs: parseOption("latency-ms", nonNegativeInt, o.latencyMs),
    timeoutMs: parseOption("timeout-ms", nonNegativeInt, o.timeoutMs),
    retryAfterSeconds: parseOption("retry-after", nonNegativeInt, o.retryAfter),
    seed: seedValue(o.seed),
    faults,
    drop: {
      rate: parseOption("rate-drop", rate, o.rateDrop),
      attempts: parseOption("drop-attempts", nonNegativeInt, o.dropAttempts),
    },
    ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
    dialect: parseOption("dialect", choiceOf(DIALECTS), o.dialect),
    limits: limitsOf(o),
    ...(o.latencyKnee === undefined
      ? {}
      : { latencyKnee: parseOption("latency-knee", positiveInt, o.latencyKnee) }),
    promptCache: o.promptCache === true,
    batch: {
      delayMs: parseOption("batch-delay-ms", nonNegativeInt, o.batchDelayMs ?? "0"),
      failRate: parseOption("batch-fail-rate", rate, o.batchFailRate ?? "0"),
      expire: ordinals(o.batchExpire),
    },
  };
}

/**
 * Starts the server, prints the listening line, and resolves once `stop` fires and the server has
 * closed. The command wires `stop` to SIGINT/SIGTERM; tests pass their own.
 */
export async function runServeSim(o: ServeSimFlags, out: Output, stop: AbortSignal): Promise<SimServer> {
  const options = serveSimOptions(o);
  let server: SimServer;
  try {
    server = await startSimServer(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new UserError(
        `port ${options.port} on ${options.host} is already in use`,
        "choose another --port (0 picks a free one)",
      );
    }
    if (code === "EACCES")
      throw new UserError(`no permission to listen on port ${options.port} on ${options.host}`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
      throw new UserError(`cannot listen on host ${options.host}: ${code}`);
    }
    throw err;
  }
  out.log(`serve-sim listening on ${server.url} (models: ${server.models.join(", ")})`);
  const l = server.limits();
  if (l.rpm !== null || l.tpm !== null)
    out.error(
      `rate limit: ${[l.rpm === null ? "" : `${l.rpm} requests`, l.tpm === null ? "" : `${l.tpm} tokens`].filter(Boolean).join(", ")} a minute${l.headers ? "" : ", not said in headers"} (GET/POST ${server.url.replace(/\/v1$/, "")}/_sim/limits)`,
    );
  if (!stop.aborted)
    await new Promise<void>((resolve) => stop.addEventListener("abort", () => resolve(), { once: true }));
  await server.close();
  const s = server.stats();
  out.error(`serve-sim stopped after ${s.requests.toLocaleString("en-US")} chat completion request(s)`);
  return server;
}

/** `bazaar serve-sim`: serves until SIGINT or SIGTERM. */
export async function serveSim(o: ServeSimFlags, out: Output): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await runServeSim(o, out, controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
