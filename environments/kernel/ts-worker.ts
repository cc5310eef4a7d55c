/**
 * The source of a worker thread that runs a TypeScript module: it registers tsx for the thread
 * (workers inherit neither the CLI's registration nor, on Node 20, an `--import` of it) and then
 * loads the module. Both by absolute URL, so that it works from any directory, under the CLI and
 * under vitest alike. Start it with `new Worker(tsWorkerSource(url), { eval: true })`.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export function tsWorkerSource(entry: URL): string {
  const api = createRequire(import.meta.url).resolve("tsx/esm/api");
  const tsxApi = pathToFileURL(api.replace(/\.cjs$/, ".mjs")).href;
  return `import(${JSON.stringify(tsxApi)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`;
}
