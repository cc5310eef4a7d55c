/**
 * One line of a batch input file, answered as serve-sim answers the same request made live: the same
 * validation (a 400 or a 404 for what the request itself earns), the same simulated model and
 * decision (a hash of the server seed, the model and the request), the same completion body in the
 * same dialect. So a batch run and a live run of the same requests store the same trials.
 *
 * Output lines follow OpenAI's batch output format:
 *   {"id": "batch_req_…", "custom_id": "…", "response": {"status_code": 200, "request_id": "…",
 *    "body": {…chat completion…}}, "error": null}
 * A request that earned an HTTP error keeps its status and error body in `response`; a request the
 * batch never ran (expired, cancelled) has `response: null` and `error: {code, message}`.
 */
import { createHash } from "node:crypto";
import type { SimModels } from "./decide.ts";
import { type Dialect, inDialect, lazyToolCall } from "./dialects.ts";
import { isProblem, type RequestProblem, readChatRequest } from "./request.ts";
import { completionBody, errorBody } from "./wire.ts";

/** A validated line of an input file: its id and its request body, still as text. */
export interface InputLine {
  customId: string;
  body: Record<string, unknown>;
}

/** What one line came to: the output or the error file, and the line's JSON text. */
export interface AnsweredLine {
  ok: boolean;
  text: string;
}

/** Why a request never ran, as OpenAI writes it into the error file. */
export const NOT_RUN = {
  batch_expired: "This request could not be executed before the completion window expired.",
  batch_cancelled: "This request was not executed because the batch was cancelled.",
} as const;
export type NotRunCode = keyof typeof NOT_RUN;

/**
 * Whether the `attempt`-th submission of a line fails (a 500 line): a fresh draw per submission, from
 * the server seed, so a retried line can succeed and runs with the same seed fail alike. The draw
 * reads the line's request, not its custom id: a client's ids may carry what differs between
 * otherwise equal runs (bazaar's are cache keys, which hold the base URL and so the server's port).
 */
export function failsThisTime(seed: string, line: InputLine, attempt: number, rate: number): boolean {
  if (rate <= 0) return false;
  const request = JSON.stringify(line.body);
  const h = createHash("sha256").update(`${seed}\0batch-fail\0${request}\0${attempt}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < rate;
}

export class LineAnswerer {
  private next = 0;

  constructor(
    private readonly models: SimModels,
    private readonly dialect: Dialect,
  ) {}

  private ids(): { id: string; requestId: string } {
    const n = ++this.next;
    return { id: `batch_req_sim${n}`, requestId: `req_sim${n}` };
  }

  private withResponse(customId: string, status: number, body: string): AnsweredLine {
    const { id, requestId } = this.ids();
    return {
      ok: status === 200,
      text: `{"id":${JSON.stringify(id)},"custom_id":${JSON.stringify(customId)},"response":{"status_code":${status},"request_id":${JSON.stringify(requestId)},"body":${body}},"error":null}`,
    };
  }

  private refused(customId: string, p: RequestProblem): AnsweredLine {
    return this.withResponse(customId, p.status, errorBody(p));
  }

  /** The answer to one request line, or the error it earned (`fail`: an injected 500). */
  async answer(line: InputLine, fail: boolean): Promise<AnsweredLine> {
    const request = readChatRequest(line.body);
    if (isProblem(request)) return this.refused(line.customId, request);
    if (!this.models.has(request.model)) {
      const message = `The model '${request.model}' does not exist on serve-sim. Valid models: ${this.models.names.join(", ")}`;
      return this.refused(line.customId, {
        status: 404,
        message,
        type: "invalid_request_error",
        code: "model_not_found",
        param: "model",
      });
    }
    if (fail) {
      return this.refused(line.customId, {
        status: 500,
        message: "The server had an error while processing your request (a batch line serve-sim fails).",
        type: "server_error",
        code: "server_error",
        param: null,
      });
    }
    const decision = await this.models.decide(request);
    const lazy = lazyToolCall(this.dialect, request.toolChoice, decision.digest);
    const { id } = this.ids();
    const body = inDialect(
      this.dialect,
      completionBody({
        id: `chatcmpl-${id}`,
        model: request.model,
        created: Math.floor(Date.now() / 1000),
        decision,
        toolMode: request.toolMode && !lazy,
        callableTools: lazy ? [] : request.callableTools,
        toolChars: request.toolChars,
        offFormat: null,
        maxTokens: request.maxTokens,
      }),
    );
    return this.withResponse(line.customId, 200, body);
  }

  /** The error-file line of a request the batch never ran. */
  notRun(customId: string, code: NotRunCode): AnsweredLine {
    const { id } = this.ids();
    return {
      ok: false,
      text: JSON.stringify({
        id,
        custom_id: customId,
        response: null,
        error: { code, message: NOT_RUN[code] },
      }),
    };
  }
}
