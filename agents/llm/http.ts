/**
 * The few plain HTTP requests bazaar makes beside the model client's own: the preflight's checks and
 * a llama.cpp server's `/props` and `/tokenize` (llamacpp.ts).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** A minimal HTTP exchange: status and body text. */
export type Requester = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
) => Promise<{ status: number; text: string }>;

/**
 * One request on a connection of its own, closed after it: a kept-alive socket (as `fetch` keeps)
 * would hold the command's process open for seconds after the run has ended.
 */
export const httpRequester: Requester = (url, init) =>
  new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      u,
      {
        method: init.method,
        headers: { ...init.headers, connection: "close" },
        agent: false,
        timeout: init.timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < 1_000_000) text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { name: "TimeoutError" })));
    req.on("error", reject);
    req.end(init.body);
  });
