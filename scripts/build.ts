/**
 * Compiles the CLI to JavaScript in dist/ (run by `npm ci` through `prepare`, and first by `npm test`),
 * so that no TypeScript is compiled when bazaar runs. One esbuild bundle of bazaar's own sources,
 * split at every dynamic `import()`: a command loads the chunks it reaches and no others. Packages
 * stay outside the bundle (loaded from node_modules as they are), and the worker threads' modules
 * are entries of their own beside the CLI's.
 *
 * dist/build-info.json names every source file the bundle was built from with its hash, so that a
 * test can tell when the compiled CLI is older than the sources (test/scripts/build.test.ts).
 *
 *   npm run build
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const DIST = path.join(ROOT, "dist");
export const BUILD_INFO = path.join(DIST, "build-info.json");

/** The compiled entries: the CLI, and the modules worker threads start (see kernel/worker.ts). */
export const ENTRIES = {
  bazaar: "cli/main.ts",
  "llm-worker": "agents/llm/worker.ts",
  "postgres-worker": "environments/store/postgres/worker.ts",
  "view-worker": "cli/view/worker.ts",
} as const;

/**
 * The browser app of `bazaar view` (cli/view/ui/), compiled into dist/view/: the app, the charts (Vega,
 * loaded when a page has a figure) and the stylesheet. Classic scripts, not modules: a bundle
 * opened from file:// can load those.
 */
export const UI_ENTRIES = {
  app: "cli/view/ui/main.tsx",
  charts: "cli/view/ui/charts.ts",
  "app-style": "cli/view/ui/style.css",
} as const;
export const UI_DIST = path.join(DIST, "view");

/** Packages left to node_modules, loaded from there as they are (see buildCli). */
export const EXTERNAL = ["better-sqlite3", "pg", "pg-cursor", "ink", "react", "react/*", "vega", "vega-lite"];

export interface BuildInfo {
  /** Each of bazaar's source files in the bundle (relative to the repository) and its SHA-256. */
  sources: Record<string, string>;
  /** The packages bundled into each file of dist/ (what loading that file loads). */
  packages: Record<string, string[]>;
  /** Every file this build wrote to dist/. */
  outputs: string[];
}

/** The package a node_modules path belongs to (`@stdlib/math-base-special-erfc`, `zod`). */
export function packageOf(file: string): string | null {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? null;
}

export function hashFile(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The source files whose content differs from what dist/ was built from (empty: up to date). */
export function staleSources(info: BuildInfo, root = ROOT): string[] {
  return Object.entries(info.sources)
    .filter(([rel, hash]) => {
      try {
        return hashFile(path.join(root, rel)) !== hash;
      } catch {
        return true; // deleted or unreadable since the build
      }
    })
    .map(([rel]) => rel);
}

/** The browser app: one esbuild run for the browser, minified; its sources join the build's list. */
async function buildUi(): Promise<{ sources: Record<string, string>; outputs: string[] }> {
  rmSync(UI_DIST, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: UI_ENTRIES,
    outdir: UI_DIST,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["chrome110", "firefox110", "safari16"],
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    entryNames: "[name]",
    legalComments: "linked",
    metafile: true,
    logLevel: "warning",
  });
  // app-style.css is the stylesheet the page links as app.css.
  renameSync(path.join(UI_DIST, "app-style.css"), path.join(UI_DIST, "app.css"));
  const sources: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs).sort())
    if (packageOf(input) === null) sources[input] = hashFile(path.join(ROOT, input));
  return { sources, outputs: readdirSync(UI_DIST).map((f) => `view/${f}`) };
}

export async function buildCli(): Promise<{ files: number; sources: number }> {
  // The files of the build before this one stay (see prune): a bazaar process started before this
  // build may still import one of its chunks.
  const previous = existsSync(BUILD_INFO)
    ? ((JSON.parse(readFileSync(BUILD_INFO, "utf8")) as Partial<BuildInfo>).outputs ?? [])
    : [];
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: DIST,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages go into the bundle too: a chunk each group instead of hundreds of files to resolve
    // and read (@stdlib is a tree of tiny CommonJS modules; LangChain and the OpenAI client a tree of
    // ES modules: bundled, an LLM run starts 0.3 s of CPU sooner). Left to node_modules (EXTERNAL):
    // the native addons, and the terminal UI and figure libraries, which only `--watch`, `watch` and
    // `--report` load and which read files of their own at run time.
    external: EXTERNAL,
    jsx: "automatic",
    // The bundled CommonJS packages call require() for Node's own modules: give every chunk one.
    banner: {
      js: 'import { createRequire as bazaarRequire } from "node:module"; const require = bazaarRequire(import.meta.url);',
    },
    // Flat: a worker's module is found beside the chunk that starts it (kernel/worker.ts).
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  const sources: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    // The bundled packages come with the lockfile; the rest is ours (the .json data files included).
    if (packageOf(input) === null) sources[input] = hashFile(path.join(ROOT, input));
  }
  const packages: Record<string, string[]> = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const inside = new Set(Object.keys(output.inputs).map(packageOf));
    inside.delete(null);
    packages[path.relative(DIST, path.join(ROOT, file))] = [...inside].sort() as string[];
  }
  const ui = await buildUi();
  Object.assign(sources, ui.sources);
  const outputs = [
    ...Object.keys(result.metafile.outputs).map((f) => path.relative(DIST, path.join(ROOT, f))),
    ...ui.outputs,
  ];
  const info: BuildInfo = { sources, packages, outputs };
  writeFileSync(BUILD_INFO, `${JSON.stringify(info, null, 1)}\n`);
  prune(new Set([...outputs, ...previous, path.basename(BUILD_INFO), path.basename(UI_DIST)]));
  return { files: outputs.length, sources: Object.keys(sources).length };
}

/**
 * Deletes what neither this build nor the one before wrote. Chunks are named by their content, so a
 * rebuild writes new ones beside the old: a process that started on the previous build and loads a
 * chunk lazily (the analysis at the end of a run, say) finds it still there.
 */
function prune(keep: ReadonlySet<string>): void {
  for (const f of readdirSync(DIST))
    if (!keep.has(f)) rmSync(path.join(DIST, f), { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  const { files, sources } = await buildCli();
  console.log(
    `dist/: ${sources} sources compiled into ${files} files in ${Math.round(performance.now() - t0)} ms`,
  );
}
