/**
 * A llama.cpp server's slot, played in front of an OpenAI-compatible upstream (serve-sim): requests
 * pass through, but a chat completion whose prompt is longer than the slot is answered HTTP 200 with
 * an empty body — what a real `llama-server` did with a prompt over `-c` / `-np`. Like llama.cpp it
 * says its slot at `GET /props` and counts prompts at `POST /tokenize` (one token per character
 * here, the same measure it judges requests by); it has no `/apply-template`. `slot` may be changed
 * while it runs (Infinity lets everything through).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SlotProxy {
  url: string;
  /** Tokens (characters) a prompt may have; longer ones get the empty 200. */
  slot: number;
  /** Chat completions answered with an empty body, and passed on. */
  emptied: number;
  passed: number;
  close(): Promise<void>;
}

/** A request's prompt as the proxy measures it: the messages' texts and the tools, one per line. */
function promptChars(body: string): number {
  try {
    const req = JSON.parse(body) as { messages?: { content?: unknown }[]; tools?: unknown[] };
    const texts = (req.messages ?? []).map((m) =>
      typeof m.content === "string" ? m.content : m.content == null ? "" : JSON.stringify(m.content),
    );
    return [...texts, ...(req.tools ? [JSON.stringify(req.tools)] : [])].join("\n").length;
  } catch {
    return 0;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      text += c;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

export async function startSlotProxy(opts: {
  upstream: string;
  slot: number;
  slots?: number;
}): Promise<SlotProxy> {
  const upstream = new URL(opts.upstream.replace(/\/v1\/?$/, ""));
  const state = { slot: opts.slot, emptied: 0, passed: 0 };
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = req.url ?? "/";
      if (req.method === "GET" && url === "/props") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            default_generation_settings: { n_ctx: state.slot },
            total_slots: opts.slots ?? 4,
          }),
        );
        return;
      }
      if (req.method === "POST" && url === "/tokenize") {
        const content = (JSON.parse(body) as { content?: string }).content ?? "";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ tokens: Array.from({ length: content.length }, () => 1) }));
        return;
      }
      if (req.method === "POST" && url.endsWith("/chat/completions") && promptChars(body) > state.slot) {
        state.emptied++;
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": "0" });
        res.end();
        return;
      }
      if (url.endsWith("/chat/completions")) state.passed++;
      const headers = { ...req.headers, host: upstream.host };
      delete headers["content-length"];
      const out = http.request(
        { host: upstream.hostname, port: upstream.port, path: url, method: req.method, headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      out.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get slot() {
      return state.slot;
    },
    set slot(x: number) {
      state.slot = x;
    },
    get emptied() {
      return state.emptied;
    },
    get passed() {
      return state.passed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
