/**
 * quiet-tracing.ts: with tracing off, LangChain's runnables carry their config without LangSmith run
 * trees, and everything that reads the config still finds it; with tracing asked for, or handlers on
 * a call, LangChain's own path runs.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Annotation, END, getConfig, START, StateGraph } from "@langchain/langgraph";
import { RunTree } from "langsmith";
import { afterEach, describe, expect, it } from "vitest";
import { quietTracing, tracingRequested } from "../../../agents/llm/quiet-tracing.ts";

const State = Annotation.Root({
  seen: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** A one-node graph whose node, and a runnable inside it, report the thread id and what carries it. */
function probeGraph() {
  const inner = RunnableLambda.from(async () => {
    const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as unknown;
    return `${getConfig().configurable?.thread_id}:${store instanceof RunTree ? "run-tree" : "plain"}`;
  });
  return new StateGraph(State)
    .addNode("probe", async () => {
      const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as unknown;
      const here = `${getConfig().configurable?.thread_id}:${store instanceof RunTree ? "run-tree" : "plain"}`;
      return { seen: [here, await inner.invoke(null)] };
    })
    .addEdge(START, "probe")
    .addEdge("probe", END)
    .compile();
}

class Counting extends BaseCallbackHandler {
  name = "counting";
  starts = 0;
  override handleChainStart() {
    this.starts++;
  }
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("LangChain without run trees when nobody traces", () => {
  it("carries the config in a plain holder: the node and a runnable inside it read their thread", async () => {
    restore = quietTracing({});
    const out = await probeGraph().invoke({}, { configurable: { thread_id: "t-1" } });
    expect(out.seen).toEqual(["t-1:plain", "t-1:plain"]);
  });

  it("LangChain's own path, run trees and all, without it", async () => {
    const out = await probeGraph().invoke({}, { configurable: { thread_id: "t-2" } });
    expect(out.seen).toEqual(["t-2:run-tree", "t-2:run-tree"]);
  });

  it("a call with callback handlers takes LangChain's own path, and the handlers hear every runnable", async () => {
    restore = quietTracing({});
    const handler = new Counting();
    const out = await probeGraph().invoke({}, { configurable: { thread_id: "t-3" }, callbacks: [handler] });
    expect(out.seen).toEqual(["t-3:run-tree", "t-3:run-tree"]);
    expect(handler.starts).toBeGreaterThanOrEqual(3); // the graph, its node, the runnable inside
  });

  it("stays out of the way when tracing or verbose callbacks are asked for", () => {
    const before = AsyncLocalStorageProviderSingleton.runWithConfig;
    for (const env of [
      { LANGSMITH_TRACING: "true" },
      { LANGCHAIN_TRACING_V2: "true" },
      { LANGCHAIN_VERBOSE: "true" },
    ]) {
      expect(tracingRequested(env)).toBe(true);
      quietTracing(env)();
      expect(AsyncLocalStorageProviderSingleton.runWithConfig).toBe(before);
    }
    expect(tracingRequested({ LANGSMITH_TRACING: "false" })).toBe(false);
  });
});
