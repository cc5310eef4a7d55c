/**
 * LangChain without LangSmith run trees when nobody traces. `@langchain/core` 1.4 runs every
 * runnable of a graph through `AsyncLocalStorageProviderSingleton.runWithConfig`, which builds a
 * LangSmith `RunTree` (`tracingEnabled: false`: a uuid from `crypto.getRandomValues`, timestamps,
 * dozens of environment reads) only to carry the runnable's config in async-local storage — about ten
 * per agent turn, a sixth of LangGraph's cost per turn; no setting turns it off (langchainjs PR
 * #10043, which would have, was closed unmerged). When no tracing is asked for and the call has no
 * callback handlers, this carries the same config in a plain holder: what `getConfig()` and the
 * runnables below read (`extra[lc:child_config]`), and the context variables of the call above.
 * When LangSmith tracing or verbose callbacks are on, or a call brings handlers, LangChain's own
 * path runs unchanged.
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

const CHILD_CONFIG = Symbol.for("lc:child_config");
const CONTEXT_VARIABLES = Symbol.for("lc:context_variables");

/** The variables that switch LangChain's tracing or verbose callbacks on. */
const TRACING_SWITCHES = [
  "LANGSMITH_TRACING_V2",
  "LANGCHAIN_TRACING_V2",
  "LANGSMITH_TRACING",
  "LANGCHAIN_TRACING",
  "LANGCHAIN_VERBOSE",
];

/** Whether the environment asks LangChain to trace (LangSmith) or to log its callbacks. */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  return TRACING_SWITCHES.some((v) => env[v] === "true");
}

type RunWithConfig = (
  config: unknown,
  callback: () => unknown,
  avoidCreatingRootRunTree?: boolean,
) => unknown;

interface Provider {
  runWithConfig: RunWithConfig;
  getInstance(): {
    getStore(): Record<symbol, unknown> | undefined;
    run(store: unknown, cb: () => unknown): unknown;
  };
}

function hasHandlers(config: unknown): boolean {
  const callbacks = (config as { callbacks?: unknown } | undefined)?.callbacks;
  if (callbacks === undefined || callbacks === null) return false;
  if (Array.isArray(callbacks)) return callbacks.length > 0;
  return ((callbacks as { handlers?: unknown[] }).handlers?.length ?? 0) > 0;
}

/**
 * Installs the plain carrier unless `env` asks for tracing (read once: the CLI sets its tracing
 * default at start). Returns what puts LangChain's own `runWithConfig` back.
 */
export function quietTracing(env: NodeJS.ProcessEnv = process.env): () => void {
  const provider = AsyncLocalStorageProviderSingleton as unknown as Provider;
  const original = provider.runWithConfig;
  if (tracingRequested(env)) return () => {};
  provider.runWithConfig = function (this: Provider, config, callback, avoidCreatingRootRunTree) {
    if (hasHandlers(config)) return original.call(this, config, callback, avoidCreatingRootRunTree);
    const storage = this.getInstance();
    const previous = storage.getStore();
    let store: Record<string | symbol, unknown> | undefined = avoidCreatingRootRunTree
      ? undefined
      : { extra: { [CHILD_CONFIG]: config }, tracingEnabled: false };
    if (previous?.[CONTEXT_VARIABLES] !== undefined) {
      store ??= {};
      store[CONTEXT_VARIABLES] = previous[CONTEXT_VARIABLES];
    }
    return storage.run(store, callback);
  };
  return () => {
    provider.runWithConfig = original;
  };
}
