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
import { readFileSync, rmSync, writeFileSync } from "node:fs";
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
} as const;

export interface BuildInfo {
  /** Each bundled source file (relative to the repository) and the SHA-256 of its content. */
  sources: Record<string, string>;
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

export async function buildCli(): Promise<{ files: number; sources: number }> {
  rmSync(DIST, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: DIST,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    // Flat: a worker's module is found beside the chunk that starts it (kernel/worker.ts).
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  const sources: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    // Packages are external; what is left is ours (the .json data files included).
    sources[input] = hashFile(path.join(ROOT, input));
  }
  const info: BuildInfo = { sources };
  writeFileSync(BUILD_INFO, `${JSON.stringify(info, null, 1)}\n`);
  return { files: Object.keys(result.metafile.outputs).length, sources: Object.keys(sources).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  const { files, sources } = await buildCli();
  console.log(
    `dist/: ${sources} sources compiled into ${files} files in ${Math.round(performance.now() - t0)} ms`,
  );
}
