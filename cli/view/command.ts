/**
 * `bazaar view`: serves the store's runs to a browser until interrupted (Ctrl-C), or with --bundle
 * writes some runs as a static site and exits. Off loopback without a token it refuses to start.
 */
import { spawn } from "node:child_process";
import { UserError } from "../../environments/kernel/errors.ts";
import { Store } from "../../environments/store/index.ts";
import { nonNegativeInt, parseOption } from "../options.ts";
import type { Output } from "../output.ts";
import { shownStore } from "../store-option.ts";
import { writeBundle } from "./bundle.ts";
import { ViewData } from "./data.ts";
import { isLoopback, startServer } from "./server.ts";

export interface ViewOptions {
  store: string;
  port: string;
  host: string;
  token?: string;
  open?: boolean;
  bundle?: string;
}

export const DEFAULT_PORT = 8787;

/** The page of the first run named, or the runs page. */
function pagePath(data: ViewData, runs: readonly string[]): string {
  const first = runs[0];
  if (first === undefined) return "";
  const row = data.runRow(first);
  return `${row.parts ? "markets" : "runs"}/${encodeURIComponent(first)}`;
}

function openBrowser(url: string, out: Output): void {
  const cmd = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(cmd, [url], { stdio: "ignore", detached: true });
    child.on("error", () => out.error(`could not open a browser (${cmd}): open ${url} yourself`));
    child.unref();
  } catch {
    out.error(`could not open a browser: open ${url} yourself`);
  }
}

/** A running viewer: where it is, and how to stop it (tests and the command both use this). */
export interface RunningView {
  url: string;
  data: ViewData;
  close(): Promise<void>;
}

export async function serveView(runs: readonly string[], o: ViewOptions): Promise<RunningView> {
  const port = parseOption("port", nonNegativeInt, o.port);
  const token = o.token ?? process.env.BAZAAR_VIEW_TOKEN ?? null;
  if (!isLoopback(o.host) && !token)
    throw new UserError(
      `--host ${o.host} is off loopback: anyone who reaches it could read the store`,
      "add --token <secret> (or set BAZAAR_VIEW_TOKEN), or leave --host at 127.0.0.1",
    );
  if (token !== null && token.length < 8)
    throw new UserError("--token: at least 8 characters", "use a random string, e.g. `openssl rand -hex 16`");
  const store = Store.open(o.store, { create: false, readonly: true });
  let data: ViewData | null = null;
  try {
    data = new ViewData(store, o.store);
    for (const id of runs) data.summary(id);
    const { server, url } = await startServer(data, { host: o.host, port, token });
    // The runs named first are analysed at once: their pages show the result sooner.
    for (const id of runs) data.analysis(id);
    const d = data;
    return {
      url,
      data: d,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await d.close();
        store.close();
      },
    };
  } catch (err) {
    await data?.close();
    store.close();
    throw err;
  }
}

export async function viewCommand(runs: string[], o: ViewOptions, out: Output): Promise<void> {
  if (o.bundle !== undefined) {
    const store = Store.open(o.store, { create: false, readonly: true });
    const data = new ViewData(store, o.store);
    try {
      const ids = runs.length > 0 ? runs : data.runs().runs.map((r) => r.id);
      for (const id of ids) data.summary(id);
      out.error(
        `writing ${ids.length} run${ids.length === 1 ? "" : "s"} of ${shownStore(o.store)} to ${o.bundle}:`,
      );
      const { files } = await writeBundle(data, ids, o.bundle, (l) => out.error(l));
      out.log(
        `wrote ${files.toLocaleString("en-US")} files to ${o.bundle}: open ${o.bundle}/index.html in a browser (offline, from disk or any static host)`,
      );
    } finally {
      await data.close();
      store.close();
    }
    return;
  }
  const view = await serveView(runs, o);
  const token = o.token ?? process.env.BAZAAR_VIEW_TOKEN;
  const page = `${view.url}${pagePath(view.data, runs)}`;
  const address = token ? `${page}?token=${encodeURIComponent(token)}` : page;
  out.log(`bazaar view: ${shownStore(o.store)} at ${address}`);
  out.log("read-only; Ctrl-C stops it");
  if (o.open) openBrowser(address, out);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await view.close();
}
