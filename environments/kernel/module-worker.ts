/**
 * A worker thread that runs one of bazaar's own modules, under the compiled CLI and from the sources
 * alike. Compiled (dist/, what `bazaar` runs), the module is an entry of its own beside the chunk that
 * starts it (scripts/build.ts lists them); from the sources (vitest, tsx), the thread registers tsx
 * first — workers inherit neither the CLI's registration nor, on Node 20, an `--import` of it — and
 * then loads the TypeScript file. Both by absolute URL, so that it works from any directory.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

export interface WorkerModule {
  /** The module's source, relative to the caller (`./worker.ts`). */
  source: string;
  /** Its compiled entry's name in dist/ (`llm-worker`: dist/llm-worker.js). */
  compiled: string;
}

/** Starts `module` in a new thread; `caller` is the starting module's `import.meta.url`. */
export function startModuleWorker(caller: string, module: WorkerModule, options: WorkerOptions = {}): Worker {
  if (!caller.endsWith(".ts")) return new Worker(new URL(`./${module.compiled}.js`, caller), options);
  const api = createRequire(import.meta.url).resolve("tsx/esm/api");
  const tsxApi = pathToFileURL(api.replace(/\.cjs$/, ".mjs")).href;
  const entry = new URL(module.source, caller).href;
  const source = `import(${JSON.stringify(tsxApi)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { ...options, eval: true });
}
