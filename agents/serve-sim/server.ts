/**
 * `startSimServer`: an OpenAI-compatible HTTP server (node:http, keep-alive) whose models are
 * bazaar's simulated shoppers. Per request it does only what a model server must: read the body,
 * parse it, make one decision, write one JSON answer. Latency and held (timed-out) requests use
 * timers, never CPU, so thousands of requests can wait at once.
 *
 *   GET  /v1/models              the served models (`sim-<preset>`), OpenAI list format
 *   GET  /v1/models/<id>         one of them, or 404
 *   POST /v1/chat/completions    a text reply or a `choose` tool call, OpenAI wire format
 *   GET  /_sim/stats             the SimStats counters as JSON
 *   GET  /_sim/limits            the rate limit now (`limits.ts`)
 *   POST /_sim/limits            changes it: {"rpm": 300, "tpm": null, "burstSeconds": 1, "headers": false}
 *   /v1/files, /v1/batches       the batch API over the same models (`batches.ts`)
 *
 * The Authorization header is ignored unless the server was started with a key (`apiKey`); nothing
 * is logged.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createBatchApi } from "./batches.ts";
import { SimModels } from "./decide.ts";
import { DIALECTS, inDialect, lazyToolCall } from "./dialects.ts";
import { type Fault, FaultStream } from "./faults.ts";
import { parseLimitsChange, RateLimits } from "./limits.ts";
import { PromptCache } from "./prompt-cache.ts";
import { isProblem, promptChars, type RequestProblem, readChatRequest } from "./request.ts";
import {
  NO_FAULTS,
  SIM_OUTCOMES,
  type SimOutcome,
  type SimServer,
  type SimServerOptions,
  type SimStats,
} from "./types.ts";
import { completionBody, errorBody, modelList, OFF_FORMAT_TEXTS, promptTokensOf } from "./wire.ts";

const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The body of bazaar's preflight probe (agents/llm/preflight.ts): one "ping", one token. */
const PROBE = /^\{"model":"[^"]*","messages":\[\{"role":"user","content":"ping"\}\],"max_tokens":1\}$/;
const SENT_FIELDS = [
  "temperature",
  "top_p",
  "max_tokens",
  "max_completion_tokens",
  "seed",
  "reasoning_effort",
];
const JSON_HEADERS = { "content-type": "application/json" } as const;

function problem(status: number, message: string, type: string, code: string | null): RequestProblem {
  return { status, message, type, code, param: null };
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function nonNegative(name: string, value: number): number {
  if (!(value >= 0) || !Number.isFinite(value))
    throw new RangeError(`serve-sim: ${name} must be ≥ 0, got ${value}`);
  return value;
}

export async function startSimServer(options: SimServerOptions = {}): Promise<SimServer> {
  const host = options.host ?? "127.0.0.1";
  const latencyMs = nonNegative("latencyMs", options.latencyMs ?? 0);
  const timeoutMs = nonNegative("timeoutMs", options.timeoutMs ?? 30_000);
  const retryAfter = String(nonNegative("retryAfterSeconds", options.retryAfterSeconds ?? 1));
  const seed = String(options.seed ?? 0);
  const latencyKnee = options.latencyKnee;
  if (latencyKnee !== undefined && !(latencyKnee >= 1))
    throw new RangeError(`serve-sim: latencyKnee must be ≥ 1, got ${latencyKnee}`);
  const limits = new RateLimits(options.limits);
  const promptCache = options.promptCache ? new PromptCache() : null;
  const faults = new FaultStream({ ...NO_FAULTS, ...options.faults }, seed);
  const dialect = options.dialect ?? "openai";
  if (!DIALECTS.includes(dialect)) throw new RangeError(`serve-sim: unknown dialect ${dialect}`);
  const drop = options.drop ?? { rate: 0, attempts: 0 };
  if (!(drop.rate >= 0 && drop.rate <= 1))
    throw new RangeError(`serve-sim: drop rate must be in [0, 1], got ${drop.rate}`);
  nonNegative("drop attempts", drop.attempts);
  // Arrivals so far of each dropped request body (only dropped ones are counted).
  const dropArrivals = new Map<string, number>();
  const isDropped = (text: string): boolean => {
    if (drop.rate === 0) return false;
    const h = createHash("sha256").update(seed).update("\0").update(text).digest();
    if (h.readUInt32BE(0) / 2 ** 32 >= drop.rate) return false;
    const seen = dropArrivals.get(text) ?? 0;
    dropArrivals.set(text, seen + 1);
    return seen < drop.attempts;
  };
  const authorized = (req: http.IncomingMessage): boolean =>
    options.apiKey === undefined || req.headers.authorization === `Bearer ${options.apiKey}`;
  const models = new SimModels(seed);
  const started = Math.floor(Date.now() / 1000);
  const modelsBody = modelList(models.names, started);
  const batchApi = createBatchApi({ models, dialect, seed, options: options.batch });

  const counts: Omit<SimStats, "batches"> = {
    requests: 0,
    probes: 0,
    byModel: Object.fromEntries(models.names.map((m) => [m, 0])),
    byOutcome: Object.fromEntries(SIM_OUTCOMES.map((o) => [o, 0])) as Record<SimOutcome, number>,
    sent: {},
    inFlight: 0,
    maxInFlight: 0,
  };
  let completions = 0;
  // Latency and hang timers still running; cleared on close so nothing outlives the server.
  const timers = new Set<NodeJS.Timeout>();

  function later(res: http.ServerResponse, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    res.once("close", () => {
      clearTimeout(t);
      timers.delete(t);
    });
  }

  function write(
    res: http.ServerResponse,
    status: number,
    body: string,
    headers?: Record<string, string>,
  ): void {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS);
    res.end(body);
  }

  function send(
    res: http.ServerResponse,
    status: number,
    body: string,
    headers?: Record<string, string>,
  ): void {
    // Past the knee, as a server with that many slots: the latency grows with the requests in flight.
    const ms = latencyKnee === undefined ? latencyMs : latencyMs * Math.max(1, counts.inFlight / latencyKnee);
    if (ms > 0) later(res, ms, () => write(res, status, body, headers));
    else write(res, status, body, headers);
  }

  function refuse(res: http.ServerResponse, p: RequestProblem): void {
    counts.byOutcome["bad-request"]++;
    send(res, p.status, errorBody(p));
  }

  async function complete(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    text: string,
    fault: Fault | null,
    probe: boolean,
  ) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      const why = err instanceof Error ? `: ${err.message}` : "";
      return refuse(
        res,
        problem(400, `could not parse the request body as JSON${why}`, "invalid_request_error", null),
      );
    }
    const asked = readChatRequest(body);
    if (isProblem(asked)) return refuse(res, asked);
    // llama-server answers any model name with the one model it has loaded.
    const request =
      dialect === "llamacpp" && !models.has(asked.model) ? { ...asked, model: models.names[0]! } : asked;
    if (!models.has(request.model)) {
      const message = `The model '${request.model}' does not exist on serve-sim. Valid models: ${models.names.join(", ")}`;
      return refuse(res, {
        ...problem(404, message, "invalid_request_error", "model_not_found"),
        param: "model",
      });
    }
    if (!probe) {
      counts.byModel[request.model] = (counts.byModel[request.model] ?? 0) + 1;
      for (const field of SENT_FIELDS)
        if ((body as Record<string, unknown>)[field] !== undefined)
          counts.sent[field] = (counts.sent[field] ?? 0) + 1;
      // Requests answering tool calls with tool messages (not user messages in their stead).
      if (request.messages.some((m) => m.role === "tool"))
        counts.sent.tool_results = (counts.sent.tool_results ?? 0) + 1;
    }
    // The rate limit counts what OpenAI counts: the request, and its prompt plus the answer it may have.
    let rateHeaders: Record<string, string> | undefined;
    if (!probe && limits.active) {
      const admitted = limits.admit(
        promptTokensOf(promptChars(request.messages), request.toolChars) + (request.maxTokens ?? 0),
        request.model,
      );
      if (!admitted.ok) {
        counts.byOutcome.limited++;
        // At once, as providers refuse: a refused request costs the server no inference.
        return write(
          res,
          429,
          errorBody(problem(429, admitted.message, admitted.kind, "rate_limit_exceeded")),
          admitted.headers,
        );
      }
      rateHeaders = admitted.headers;
    }
    if (!probe && isDropped(text)) {
      counts.byOutcome.dropped++;
      const message = "The server had an error while processing your request (a request serve-sim drops).";
      return send(res, 500, errorBody(problem(500, message, "server_error", "server_error")));
    }
    if (fault === "429") {
      counts.byOutcome["429"]++;
      const message = `Rate limit reached for ${request.model} (simulated by serve-sim). Please try again in ${retryAfter}s.`;
      return send(res, 429, errorBody(problem(429, message, "requests", "rate_limit_exceeded")), {
        "retry-after": retryAfter,
      });
    }
    if (fault === "500") {
      counts.byOutcome["500"]++;
      const message = "The server had an error while processing your request (simulated by serve-sim).";
      return send(res, 500, errorBody(problem(500, message, "server_error", "server_error")));
    }
    if (fault === "timeout") {
      counts.byOutcome.timeout++;
      return later(res, timeoutMs, () => req.socket.destroy());
    }
    const decision = await models.decide(request);
    const offFormat =
      fault === "off-format"
        ? (OFF_FORMAT_TEXTS[
            Number.parseInt(decision.digest.slice(0, 8), 16) % OFF_FORMAT_TEXTS.length
          ] as string)
        : null;
    const lazy = lazyToolCall(dialect, request.toolChoice, decision.digest);
    let out = completionBody({
      id: `chatcmpl-sim${++completions}`,
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      decision,
      toolMode: request.toolMode && !lazy,
      callableTools: lazy ? [] : request.callableTools,
      toolChars: request.toolChars,
      offFormat,
      maxTokens: request.maxTokens,
      cachedPromptChars:
        promptCache && !probe ? promptCache.cachedChars(request.model, request.messages) : null,
    });
    out = inDialect(dialect, out);
    // A strict prefix of a JSON object is never valid JSON.
    if (fault === "malformed") out = out.slice(0, Math.floor(out.length / 2));
    if (!probe) counts.byOutcome[fault ?? "ok"]++;
    send(res, 200, out, rateHeaders);
  }

  function onCompletion(req: http.IncomingMessage, res: http.ServerResponse): void {
    counts.inFlight++;
    if (counts.inFlight > counts.maxInFlight) counts.maxInFlight = counts.inFlight;
    res.once("close", () => {
      counts.inFlight--;
    });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) {
        return refuse(
          res,
          problem(413, `request body over ${MAX_BODY_BYTES} bytes`, "invalid_request_error", null),
        );
      }
      const text =
        chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
      // bazaar's preflight proves a key with this one-token request: counted apart and never faulted,
      // so that a test counts the calls of its trials and a fault stream is the trials' own.
      const probe = text.length < 200 && PROBE.test(text);
      if (probe) counts.probes++;
      else counts.requests++;
      const fault = probe ? null : faults.next();
      complete(req, res, text, fault, probe).catch((err: unknown) => {
        counts.byOutcome["500"]++;
        const message = `serve-sim failed: ${err instanceof Error ? err.message : String(err)}`;
        send(res, 500, errorBody(problem(500, message, "server_error", "server_error")));
      });
    });
  }

  function onRequest(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    // llama-server checks the key on completions, not on its model list.
    const open =
      path === "/_sim/stats" ||
      path === "/_sim/limits" ||
      (dialect === "llamacpp" && req.method === "GET" && path.startsWith("/v1/models"));
    if (!authorized(req) && !open) {
      req.resume();
      counts.byOutcome.unauthorized++;
      const message = "Incorrect API key provided (serve-sim was started with --api-key).";
      return send(res, 401, errorBody(problem(401, message, "invalid_request_error", "invalid_api_key")));
    }
    if (req.method === "POST" && path === "/v1/chat/completions") return onCompletion(req, res);
    if (path === "/_sim/limits" && (req.method === "GET" || req.method === "POST")) return onLimits(req, res);
    if (batchApi.handle(req, res, path, q < 0 ? "" : url.slice(q + 1))) return;
    req.resume(); // drain any body so the connection can be reused
    if (req.method === "GET" && path === "/v1/models") return send(res, 200, modelsBody);
    if (req.method === "GET" && path.startsWith("/v1/models/")) {
      const id = decodeURIComponent(path.slice("/v1/models/".length));
      if (models.has(id))
        return send(
          res,
          200,
          JSON.stringify({ id, object: "model", created: started, owned_by: "bazaar-serve-sim" }),
        );
      const message = `The model '${id}' does not exist on serve-sim. Valid models: ${models.names.join(", ")}`;
      return send(res, 404, errorBody(problem(404, message, "invalid_request_error", "model_not_found")));
    }
    if (req.method === "GET" && path === "/_sim/stats") return write(res, 200, JSON.stringify(snapshot()));
    const message = `serve-sim has no endpoint ${req.method ?? "?"} ${path}`;
    send(res, 404, errorBody(problem(404, message, "invalid_request_error", "unknown_url")));
  }

  /** `GET /_sim/limits` says the rate limit; `POST` changes it (a JSON body of `SimLimitsChange`). */
  function onLimits(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method === "GET") {
      req.resume();
      write(res, 200, JSON.stringify(limits.get()));
      return;
    }
    let text = "";
    let tooLong = false;
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      // A limits change is a few fields: a longer body is refused as such, not read cut short.
      if (text.length + chunk.length > 10_000) tooLong = true;
      else text += chunk;
    });
    req.on("end", () => {
      const change = tooLong
        ? 'the body is longer than 10,000 characters; expected JSON like {"rpm": 600}'
        : parseLimitsChange(text);
      let refused = typeof change === "string" ? change : null;
      if (typeof change !== "string") {
        try {
          limits.set(change);
        } catch (err) {
          refused = (err as Error).message;
        }
      }
      if (refused !== null) write(res, 400, errorBody(problem(400, refused, "invalid_request_error", null)));
      else write(res, 200, JSON.stringify(limits.get()));
    });
  }

  function snapshot(): SimStats {
    return {
      ...counts,
      byModel: { ...counts.byModel },
      byOutcome: { ...counts.byOutcome },
      sent: { ...counts.sent },
      batches: batchApi.stats(),
    };
  }

  const server = http.createServer({ keepAlive: true, noDelay: true }, onRequest);
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 0, host, backlog: 1024 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${formatHost(host)}:${port}/v1`,
    port,
    models: [...models.names],
    stats: snapshot,
    limits: () => limits.get(),
    setLimits: (change) => limits.set(change),
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        batchApi.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
