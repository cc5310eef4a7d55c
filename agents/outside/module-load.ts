/**
 * Loading a `module:` agent's file, and the LangChain it was written against. Nothing here is
 * imported statically: the user's module, tsx (for a TypeScript file) and LangChain (for a graph)
 * load when the first episode starts (DESIGN.md § Start-up).
 *
 * - A `.js`/`.mjs`/`.cjs` file is imported as it is.
 * - A `.ts`/`.mts`/`.cts` file is imported through tsx's `tsImport` (`tsx/esm/api`), found beside
 *   bazaar first and then from the module's folder and the working directory: the compiled CLI is
 *   plain node, so it cannot import TypeScript by itself. tsx is a dev dependency of bazaar, so an
 *   installed bazaar may not bring it; a user without it is told to install it (or compile to .js).
 * - LangChain's tools and messages come from the copy the module itself resolves (its
 *   `node_modules`, the ES build), so the tools bazaar hands a graph are of the graph's own
 *   LangChain; bazaar's own copy is the fallback. LangChain recognises tools and messages by shape,
 *   so the two copies work together either way.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const TS_EXTENSIONS = [".ts", ".mts", ".cts"] as const;
export const JS_EXTENSIONS = [".js", ".mjs", ".cjs"] as const;

export function isTypeScript(file: string): boolean {
  return (TS_EXTENSIONS as readonly string[]).includes(path.extname(file));
}

/** Where tsx's programmatic API is, as a URL to import, or null when none is installed. */
export function tsxApiUrl(moduleFile: string, cwd: string): string | null {
  for (const base of [import.meta.url, moduleFile, path.join(cwd, "package.json")]) {
    try {
      const api = createRequire(base).resolve("tsx/esm/api");
      return pathToFileURL(api.replace(/\.cjs$/, ".mjs")).href;
    } catch {
      // not installed there
    }
  }
  return null;
}

type Namespace = Record<string, unknown>;

const imported = new Map<string, Promise<Namespace>>();

/**
 * The module's exports, imported once per process (a spec named in two slots, a buyer and a
 * seller, shares one instance of the module).
 */
export function importModule(file: string, cwd: string): Promise<Namespace> {
  let p = imported.get(file);
  if (!p) {
    p = load(file, cwd);
    imported.set(file, p);
  }
  return p;
}

async function load(file: string, cwd: string): Promise<Namespace> {
  const url = pathToFileURL(file).href;
  if (!isTypeScript(file)) return (await import(url)) as Namespace;
  const api = tsxApiUrl(file, cwd);
  if (!api) throw new Error("loading a TypeScript module needs tsx, and none is installed");
  const tsx = (await import(api)) as {
    tsImport(specifier: string, parent: string): Promise<Namespace>;
  };
  return tsx.tsImport(url, import.meta.url);
}

/** The conditions Node's ES module loader matches in a package's `exports`. */
const ESM_CONDITIONS = new Set(["node", "import", "module-sync", "default"]);

function exportTarget(entry: unknown): string | null {
  if (typeof entry === "string") return entry;
  if (Array.isArray(entry)) {
    for (const e of entry) {
      const t = exportTarget(e);
      if (t) return t;
    }
    return null;
  }
  if (entry && typeof entry === "object") {
    for (const [condition, value] of Object.entries(entry)) {
      if (!ESM_CONDITIONS.has(condition)) continue;
      const t = exportTarget(value);
      if (t) return t;
    }
  }
  return null;
}

/**
 * The URL of `pkg`'s `subpath` export (`./tools`) as an ES module importing it from `from` would
 * load it, or null when `from` cannot resolve the package. (`import.meta.resolve` takes no parent
 * on Node 20, and `require.resolve` gives the CommonJS build.)
 */
export function resolveEsmExport(pkg: string, subpath: string, from: string): string | null {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve(`${pkg}/package.json`);
  } catch {
    return null;
  }
  try {
    const exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: Record<string, unknown> })
      .exports;
    const target = exportTarget(exports?.[subpath]);
    return target ? pathToFileURL(path.join(path.dirname(manifest), target)).href : null;
  } catch {
    return null;
  }
}

/** What bazaar uses of `@langchain/core`: `tool()` and the message classes. */
export interface LangChainCore {
  tool(
    func: (input: unknown, config?: unknown) => unknown,
    fields: { name: string; description: string; schema: unknown; responseFormat?: string },
  ): LangChainTool;
  SystemMessage: new (content: string) => unknown;
  HumanMessage: new (content: string) => unknown;
  AIMessage: new (content: string) => unknown;
  /** Where it came from: the module's own copy, or bazaar's. */
  source: "module" | "bazaar";
}

/** The parts of a LangChain tool that bazaar touches. */
export interface LangChainTool {
  name: string;
  schema: unknown;
  call(...args: unknown[]): Promise<unknown>;
}

const cores = new Map<string, Promise<LangChainCore>>();

/** `@langchain/core` as the module at `file` resolves it, or bazaar's own copy. */
export function langchainFor(file: string): Promise<LangChainCore> {
  let p = cores.get(file);
  if (!p) {
    p = loadCore(file);
    cores.set(file, p);
  }
  return p;
}

async function loadCore(file: string): Promise<LangChainCore> {
  const toolsUrl = resolveEsmExport("@langchain/core", "./tools", file);
  const messagesUrl = resolveEsmExport("@langchain/core", "./messages", file);
  if (toolsUrl && messagesUrl) {
    try {
      const [tools, messages] = await Promise.all([import(toolsUrl), import(messagesUrl)]);
      return { tool: tools.tool, ...messageClasses(messages), source: "module" };
    } catch {
      // an unusable copy: bazaar's own below
    }
  }
  const [tools, messages] = await Promise.all([
    import("@langchain/core/tools"),
    import("@langchain/core/messages"),
  ]);
  return {
    tool: tools.tool as unknown as LangChainCore["tool"],
    ...messageClasses(messages),
    source: "bazaar",
  };
}

function messageClasses(
  m: Record<string, unknown>,
): Pick<LangChainCore, "SystemMessage" | "HumanMessage" | "AIMessage"> {
  return {
    SystemMessage: m.SystemMessage as LangChainCore["SystemMessage"],
    HumanMessage: m.HumanMessage as LangChainCore["HumanMessage"],
    AIMessage: m.AIMessage as LangChainCore["AIMessage"],
  };
}
