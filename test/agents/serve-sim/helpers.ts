import http from "node:http";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import type { ChoiceTask, PromptVariant } from "../../../environments/choice/types.ts";
import type { Message } from "../../../environments/kernel/types.ts";

export const CHOOSE_TOOL_DEF = {
  type: "function",
  function: {
    name: "choose",
    description: "Book one of the options by its letter.",
    parameters: { type: "object", properties: { option: { type: "string" } }, required: ["option"] },
  },
} as const;

/** Binary tasks (both display orders of each pair) rendered in `variant`. */
export function binaryTasks(pairs: number, variant: PromptVariant = "plain", seed = 7): ChoiceTask[] {
  return buildChoiceTasks(
    { seed, pairs, pairAppearances: 1, triples: 0, fives: 0, variant },
    DEFAULT_HOTEL_POOL,
  );
}

export function messagesFor(task: ChoiceTask): Message[] {
  return renderChoiceMessages(task.options, task.variant);
}

export interface Posted {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: wire bodies are checked field by field in the tests
  json: any;
}

export async function post(url: string, body: unknown, path = "/chat/completions"): Promise<Posted> {
  const res = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * The same POST over node:http with a keep-alive agent: about three times cheaper than fetch when
 * client and server share one process, which keeps the statistical tests (thousands of requests) fast.
 * Rejects when the server drops the connection (a simulated timeout).
 */
export function postFast(url: string, body: unknown, path = "/chat/completions"): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + path,
      {
        method: "POST",
        agent: keepAlive,
        headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("error", reject);
        res.on("end", () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The letter a text or tool-call completion chose, or null. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed completion body
export function chosenLetter(json: any): string | null {
  const message = json?.choices?.[0]?.message;
  const call = message?.tool_calls?.[0];
  if (call) return (JSON.parse(call.function.arguments) as { option: string }).option;
  return typeof message?.content === "string" && /^[A-Z]$/.test(message.content) ? message.content : null;
}

/** `bazaar serve-sim`'s flags at their defaults, as commander hands them to the action. */
export const SERVE_SIM_FLAGS = {
  port: "0",
  host: "127.0.0.1",
  latencyMs: "0",
  rate429: "0",
  rate500: "0",
  rateTimeout: "0",
  rateMalformed: "0",
  rateOffFormat: "0",
  timeoutMs: "30000",
  retryAfter: "1",
  seed: "0",
  rateDrop: "0",
  dropAttempts: "6",
  dialect: "openai",
};
