/**
 * A `module:` agent that is a LangGraph graph: bazaar hands it the environment's tools as LangChain
 * tools and runs it on the whole episode, in process, one run per episode (per conversation where a
 * role holds several: a shop seller's each negotiation is a run of its own). Underneath is the agent
 * that waits for calls (waiting.ts): each tool call the graph makes is one step of the machine, and
 * the tool returns what the environment shows next. So the episode is stored, watched and analysed
 * like any other.
 *
 * - The graph gets `{ messages: [system prompt, request] }` (LangChain messages of the module's own
 *   LangChain) and, in `configurable`, the tools (`tools`), the link's key as `thread_id` (the
 *   trial's key, `#` and its conversation's; for a graph with a checkpointer) and
 *   `bazaar: { env, role, trialKey, conversation, replicate }`.
 * - A tool's arguments go to the machine as they came (LangChain's own schema check is skipped), so a
 *   malformed call is refused by the environment and counted as an invalid call, as natively; its
 *   result is the environment's text, with `{ over, isError, view }` as the tool message's artifact.
 * - The graph's run ends with the episode: when the machine ends it, the run is aborted (its
 *   `signal`); when the run is stopped (Ctrl-C), too.
 * - A graph that returns before the episode is over has given up without an answer: that is its own
 *   non-answer (a non-response that quotes the end of its last message). One that throws: its own
 *   error, also a non-response — unless the error is a provider's that outlived its retries (HTTP
 *   429, 5xx, a timeout, a dropped connection: a failed trial, played again later) or a rejected key
 *   (401/403: the run stops, as a wrong key of bazaar's own agent stops it).
 * - Model calls seen through LangChain's callbacks are counted into the trial's usage (calls,
 *   tokens, latency), each with the step it led to.
 */
import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { SurfaceTask, ToolSurface } from "../../environments/kernel/surface.ts";
import {
  type Acted,
  type Agent,
  type AgentContext,
  addUsage,
  emptyUsage,
  type Observation,
  type Usage,
} from "../../environments/kernel/types.ts";
import { classifyError } from "../llm/resilience.ts";
import type { LangChainCore, LangChainTool } from "./module-load.ts";
import { type EpisodeLink, WaitingAgent } from "./waiting.ts";

/** A compiled graph, or any runnable that takes `{ messages }`. */
export interface GraphLike {
  invoke(input: unknown, config?: Record<string, unknown>): Promise<unknown>;
  config?: { recursionLimit?: number };
}

/** What a graph factory is given besides the tools. */
export interface GraphContext {
  env: string;
  role: string;
  task: SurfaceTask;
  trialKey: string;
  replicate: number;
  /** Aborted when the episode ends or the run stops. */
  signal: AbortSignal;
}

/** The graph of one episode: the module's graph, or what its factory builds for these tools. */
export type GraphOf = (tools: LangChainTool[], ctx: GraphContext) => Promise<GraphLike>;

/**
 * LangGraph stops a run after 25 steps by default, fewer than an episode may take (a step of the
 * machine is two graph steps in a ReAct loop). Episodes end by their own rules (the shop's step
 * budget, the bargaining rounds), so a graph that sets no limit of its own gets this one.
 */
export const GRAPH_RECURSION_LIMIT = 1000;

/** How much of the graph's last message a non-answer quotes. */
const TAIL = 300;

export function isGraphLike(x: unknown): x is GraphLike {
  return (
    typeof x === "object" &&
    x !== null &&
    typeof (x as { invoke?: unknown }).invoke === "function" &&
    typeof (x as { act?: unknown }).act !== "function"
  );
}

/** One episode's graph run and what it has told the episode. */
class EpisodeRun {
  readonly controller = new AbortController();
  /** What the agent's turns throw once the run has failed (its own error, or a failure). */
  failure: Error | null = null;
  private usage: Usage | null = null;
  private readonly started = new Map<string, number>();

  constructor(
    readonly link: EpisodeLink,
    readonly ctx: AgentContext,
  ) {}

  /** The usage of the model calls since the last step, taken once. */
  takeUsage(): Usage | undefined {
    const u = this.usage ?? undefined;
    this.usage = null;
    return u;
  }

  /** LangChain callback handlers that count model calls (a plain object of handler methods). */
  readonly meter = {
    handleChatModelStart: (_llm: unknown, _messages: unknown, runId: string) => {
      this.started.set(runId, performance.now());
    },
    handleLLMStart: (_llm: unknown, _prompts: unknown, runId: string) => {
      this.started.set(runId, performance.now());
    },
    handleLLMEnd: (output: unknown, runId: string) => {
      const t0 = this.started.get(runId);
      this.started.delete(runId);
      const u = { ...usageOf(output), latencyMs: t0 === undefined ? 0 : performance.now() - t0 };
      this.usage = addUsage(this.usage ?? emptyUsage(), u);
    },
    handleLLMError: (_err: unknown, runId: string) => {
      this.started.delete(runId);
    },
  };

  /** The run went wrong before the episode was over: tell the episode, once. */
  fail(err: unknown): void {
    if (this.link.over) return;
    const failure = graphFailure(err);
    this.failure = failure;
    if (failure instanceof AgentFailure)
      this.link.gone(failure.message, failure.label ?? "the graph's model call failed after every retry");
    else this.link.quit(failure.message);
  }

  /** The run returned before the episode was over: the agent's own non-answer. */
  returned(state: unknown): void {
    if (this.link.over) return;
    const tail = lastMessageTail(state);
    const reason = `the graph ended before the episode was over${tail ? `: ${JSON.stringify(tail)}` : ""}`;
    this.failure = new Error(reason);
    this.link.quit(reason);
  }
}

/** Token counts of a LangChain `LLMResult` (usage_metadata of its messages, or the provider's). */
function usageOf(output: unknown): Usage {
  const u = emptyUsage();
  u.calls = 1;
  const generations = (output as { generations?: unknown[][] })?.generations ?? [];
  let seen = false;
  for (const g of generations.flat()) {
    const meta = (g as { message?: { usage_metadata?: Record<string, unknown> } })?.message?.usage_metadata;
    if (!meta) continue;
    seen = true;
    u.inputTokens += num(meta.input_tokens);
    u.outputTokens += num(meta.output_tokens);
    u.reasoningTokens += num((meta.output_token_details as Record<string, unknown> | undefined)?.reasoning);
  }
  if (!seen) {
    const t = (output as { llmOutput?: { tokenUsage?: Record<string, unknown> } })?.llmOutput?.tokenUsage;
    if (t) {
      u.inputTokens += num(t.promptTokens);
      u.outputTokens += num(t.completionTokens);
    }
  }
  return u;
}

function num(x: unknown): number {
  return typeof x === "number" && Number.isFinite(x) && x > 0 ? Math.round(x) : 0;
}

/** The end of the last message of a graph's final state, as text. */
function lastMessageTail(state: unknown): string {
  const messages = (state as { messages?: unknown[] } | null)?.messages;
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (!last) return "";
  const content = (last as { content?: unknown }).content;
  const text = typeof content === "string" ? content : content === undefined ? "" : JSON.stringify(content);
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > TAIL ? `…${flat.slice(-TAIL)}` : flat;
}

/**
 * What an error thrown by a graph means (DESIGN.md § Failures are not answers): an `AgentFailure`
 * (by its shape) is itself; a provider's error bazaar would have retried is infrastructure, a
 * rejected key configuration; anything else is the agent's own error.
 */
export function graphFailure(err: unknown): Error {
  const e = err as { name?: unknown; kind?: unknown; message?: unknown; hint?: unknown } | null;
  if (e && e.name === "AgentFailure" && (e.kind === "infrastructure" || e.kind === "configuration"))
    return new AgentFailure(e.kind, String(e.message), typeof e.hint === "string" ? e.hint : undefined);
  const c = classifyError(err);
  if (c.status === 401 || c.status === 403)
    return new AgentFailure(
      "configuration",
      `the graph's model rejected its key (${c.summary})`,
      "give the module's model a key it accepts",
    );
  if (c.retryable) return new AgentFailure("infrastructure", `the graph failed: ${c.summary}`);
  return new Error(`the graph failed: ${c.summary}`);
}

/**
 * Skips LangChain's check of a call's arguments against the tool's JSON Schema, which would answer
 * a malformed call itself: the machine judges the arguments, as it does for every agent. The schema
 * stays what the model is shown. (LangChain reads `schema` to validate before its first `await`;
 * were that to change, malformed calls would be answered by LangChain again, and the module tests
 * say so.)
 */
function unvalidated(tool: LangChainTool): LangChainTool {
  const schema = tool.schema;
  const call = tool.call;
  tool.call = function (this: LangChainTool, ...args: unknown[]) {
    this.schema = ACCEPT_ANY;
    try {
      return call.apply(this, args);
    } finally {
      this.schema = schema;
    }
  };
  return tool;
}

const ACCEPT_ANY = {};

/** The surface's tools as LangChain tools whose calls are the episode's steps. */
export function episodeTools(core: LangChainCore, surface: ToolSurface, link: EpisodeLink): LangChainTool[] {
  return surface.tools.map((t) =>
    unvalidated(
      core.tool(
        async (input: unknown) => {
          const args = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
          const r = await link.call(t.name, args);
          return [
            r.text,
            { over: r.over, isError: r.isError, ...(r.view === undefined ? {} : { view: r.view }) },
          ];
        },
        {
          name: t.name,
          description: t.description,
          schema: t.inputSchema,
          responseFormat: "content_and_artifact",
        },
      ),
    ),
  );
}

function taskMessages(core: LangChainCore, task: SurfaceTask): unknown[] {
  return task.messages.map((m) =>
    m.role === "system"
      ? new core.SystemMessage(m.content)
      : m.role === "assistant"
        ? new core.AIMessage(m.content)
        : new core.HumanMessage(m.content),
  );
}

/**
 * The agent a graph module plays as: each episode one run of the graph, its tool calls the steps —
 * one run per conversation where a role holds several (a shop seller's negotiations).
 */
export class GraphAgent implements Agent<unknown, unknown> {
  private readonly waiting: WaitingAgent;
  /** Runs by their link's key (trial and conversation). */
  private readonly runs = new Map<string, EpisodeRun>();

  constructor(
    readonly id: string,
    private readonly surface: ToolSurface,
    private readonly core: LangChainCore,
    private readonly graphOf: GraphOf,
    idleMs: number,
  ) {
    this.waiting = new WaitingAgent(id, surface, (link, ctx) => this.start(link, ctx), idleMs);
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<unknown>> {
    const turn = this.waiting.turn(observation, ctx);
    try {
      const action = await turn.action;
      const usage = this.runs.get(turn.link.key)?.takeUsage();
      return usage ? { action, usage } : { action };
    } catch (err) {
      // After the graph failed, every turn the machine still asks for says why (a machine that
      // re-asks gets the same answer, not a dropped link).
      throw this.runs.get(turn.link.key)?.failure ?? err;
    }
  }

  endEpisode(ctx: AgentContext, outcome?: unknown): void {
    this.waiting.endEpisode(ctx, outcome);
    for (const [key, run] of this.runs)
      if (run.ctx.trialKey === ctx.trialKey) {
        this.runs.delete(key);
        run.controller.abort();
      }
  }

  private start(link: EpisodeLink, ctx: AgentContext): void {
    const run = new EpisodeRun(link, ctx);
    this.runs.set(link.key, run);
    const { controller } = run;
    const stop = () => controller.abort();
    link.onEnd(stop);
    if (ctx.signal) {
      const signal = ctx.signal;
      if (signal.aborted) stop();
      else {
        signal.addEventListener("abort", stop, { once: true });
        controller.signal.addEventListener("abort", () => signal.removeEventListener("abort", stop), {
          once: true,
        });
      }
    }
    this.play(run).catch((err) => run.fail(err));
  }

  private async play(run: EpisodeRun): Promise<void> {
    const { link, ctx, controller } = run;
    const tools = episodeTools(this.core, this.surface, link);
    const graph = await this.graphOf(tools, {
      env: this.surface.env,
      role: this.surface.role,
      task: link.task,
      trialKey: ctx.trialKey,
      replicate: ctx.replicate,
      signal: controller.signal,
    });
    if (controller.signal.aborted) return;
    const state = await graph.invoke(
      { messages: taskMessages(this.core, link.task) },
      {
        configurable: {
          tools,
          // One thread per conversation: a checkpointer never mixes a shop seller's negotiations.
          thread_id: link.key,
          bazaar: {
            env: this.surface.env,
            role: this.surface.role,
            trialKey: ctx.trialKey,
            conversation: link.conversation,
            replicate: ctx.replicate,
          },
        },
        signal: controller.signal,
        callbacks: [run.meter],
        ...(graph.config?.recursionLimit === undefined ? { recursionLimit: GRAPH_RECURSION_LIMIT } : {}),
      },
    );
    run.returned(state);
  }
}
