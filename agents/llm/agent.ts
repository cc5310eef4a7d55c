import { createHash } from "node:crypto";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { z } from "zod";
import { bazaarBug, errorLine, isBazaarBug, isUserError } from "../../environments/kernel/errors.ts";
import { failureOf } from "../../environments/kernel/failures.ts";
import type { Acted, Agent, AgentContext, Message, Observation } from "../../environments/kernel/types.ts";
import type { ResponseCache } from "./cache.ts";
import { type ChatInvoker, ModelCaller } from "./caller.ts";
import type { CallEvents, CallGate } from "./gate.ts";
import type { buildAgentGraph, PendingCall } from "./graph.ts";
import { langchainMessages } from "./langchain.ts";
import type { ChatOpening } from "./llamacpp.ts";
import { isRequestRefused } from "./resilience.ts";
import { redact } from "./secrets.ts";
import type { LlmSettings } from "./settings.ts";
import { type ActionTool, toolsFromActions } from "./tools.ts";

let graphModule: Promise<typeof import("./graph.ts")> | undefined;
/** The agent's LangGraph graph module (`@langchain/langgraph`), loaded at the first turn of any agent. */
function agentGraphModule(): Promise<typeof import("./graph.ts")> {
  graphModule ??= import("./graph.ts");
  return graphModule;
}

/** The tool message of a call whose environment answered the whole message once (above it). */
const NOT_ANSWERED = "(no separate result for this call: see the result of the first call)";

/**
 * Which conversation of an episode a set of messages is: its opening (the leading system messages
 * and the first message after them), which every later turn of that conversation repeats. An
 * agent may hold several conversations in one episode — a shop's seller negotiator answers each
 * listing's offers in that listing's own bargaining conversation — and each needs a thread of its
 * own, or the second one's messages are read as the continuation of the first.
 */
export function conversationKey(messages: readonly Message[]): string {
  const h = createHash("sha256");
  for (const m of messages) {
    h.update(m.role).update("\0").update(m.content).update("\0");
    if (m.role !== "system") break;
  }
  return h.digest("hex").slice(0, 16);
}

interface ThreadState {
  /** How many of the environment's messages this thread has taken in. */
  seen: number;
  /**
   * The tool calls of the model's last answer, in order, that need a tool message before the next
   * model call: the environment's next messages answer those it was given, one each; the agent
   * answers the rest itself (see `pendingCalls`).
   */
  pending: PendingCall[];
  /** The conversation so far, as the model saw it (its own answers included). */
  messages: BaseMessage[];
}

export interface LlmAgentOptions {
  apiKey?: string;
  cache?: ResponseCache;
  events?: CallEvents;
  /** The role this agent plays, part of its thread ids (a buyer and a seller never share one). */
  role?: string;
  /** A chat model to use instead of ChatOpenAI (fakeModel() in unit tests). */
  chat?: ChatInvoker;
  /** The shared cache, de-duplication and limits, when they live elsewhere (a worker thread's agent). */
  gate?: CallGate;
}

/** What it takes to build the same agent in another thread: plain data (the key only in memory). */
export interface LlmAgentSpec {
  id: string;
  settings: LlmSettings;
  tools: ActionTool[] | undefined;
  role: string;
  apiKey: string | undefined;
}

/**
 * An LLM agent for any environment: a LangGraph graph over ChatOpenAI, one thread per episode, role
 * and conversation (`conversationKey`). Each turn it takes the environment's new messages into the thread (a reply to its own tool
 * call becomes that call's tool result), runs the graph on the thread, and returns the action. One
 * instance serves many episodes at once: everything per episode lives in its thread.
 */
export class LlmAgent implements Agent<unknown, Record<string, unknown>> {
  private readonly caller: ModelCaller;
  /** Built at the first turn, with LangGraph loaded then (langchain.ts). */
  private graph: Promise<ReturnType<typeof buildAgentGraph>> | undefined;
  private readonly threads = new Map<string, ThreadState>();
  private readonly role: string;
  private readonly tools: ActionTool[] | undefined;
  private readonly actionTools: ReadonlySet<string>;

  constructor(
    readonly id: string,
    readonly settings: LlmSettings,
    actionSchema: z.ZodDiscriminatedUnion | { tools: ActionTool[] | undefined },
    private readonly options: LlmAgentOptions = {},
  ) {
    this.caller = new ModelCaller(
      settings,
      options.apiKey,
      options.cache,
      options.events,
      options.chat,
      options.gate,
    );
    const tools =
      "tools" in actionSchema
        ? actionSchema.tools
        : settings.answerMode === "tools"
          ? toolsFromActions(actionSchema)
          : undefined;
    this.tools = tools;
    this.actionTools = new Set((tools ?? []).map((t) => t.function.name));
    this.role = options.role ?? "agent";
  }

  private agentGraph(): Promise<ReturnType<typeof buildAgentGraph>> {
    this.graph ??= agentGraphModule().then(({ buildAgentGraph }) =>
      buildAgentGraph(
        (messages, t, replicate, signal) => this.caller.call(messages, t, replicate, signal),
        this.tools,
      ),
    );
    return this.graph;
  }

  /** The gate other threads' copies of this agent share (its cache, de-duplication and limits). */
  get gate(): CallGate {
    return this.caller.gate;
  }

  get events(): CallEvents | undefined {
    return this.options.events;
  }

  /** Whether a copy of this agent can run in a worker thread (not with an injected chat model). */
  get portable(): boolean {
    return this.options.chat === undefined;
  }

  spec(): LlmAgentSpec {
    return {
      id: this.id,
      settings: this.settings,
      tools: this.tools,
      role: this.role,
      apiKey: this.options.apiKey,
    };
  }

  /**
   * The request this agent's first turn on `observation` sends (its messages as the model sees
   * them, and its tools): what a preflight measures against a server's context.
   */
  openingRequest(observation: Observation<unknown>): ChatOpening {
    return {
      messages: observation.messages
        .filter((m) => m.role !== "assistant")
        .map((m) => ({
          role: m.role === "system" ? ("system" as const) : ("user" as const),
          content: m.content,
        })),
      ...(this.tools ? { tools: this.tools } : {}),
    };
  }

  /** What the ids of this agent's threads in an episode start with (`endEpisode` ends them all). */
  episodeThreads(ctx: AgentContext): string {
    return `${ctx.trialKey}|${this.role}|`;
  }

  /** The thread id of this agent's conversation `messages` in an episode. */
  threadId(ctx: AgentContext, messages: readonly Message[]): string {
    return this.episodeThreads(ctx) + conversationKey(messages);
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<Record<string, unknown>>> {
    const threadId = this.threadId(ctx, observation.messages);
    const seen = this.threads.get(threadId)?.seen ?? 0;
    return this.turn(threadId, observation.messages.slice(seen), ctx.replicate, ctx.signal);
  }

  /**
   * One turn of a thread, given the environment's messages it has not taken in yet. `act` calls it
   * with its own bookkeeping; an agent in a worker thread is driven through it directly.
   */
  async turn(
    threadId: string,
    fresh: readonly Message[],
    replicate: number,
    signal?: AbortSignal,
  ): Promise<Acted<Record<string, unknown>>> {
    const [graph, { pendingCalls }, { HumanMessage, SystemMessage, ToolMessage }] = await Promise.all([
      this.agentGraph(),
      agentGraphModule(),
      langchainMessages(),
    ]);
    let thread = this.threads.get(threadId);
    if (!thread) {
      thread = { seen: 0, pending: [], messages: [] };
      this.threads.set(threadId, thread);
    }
    const incoming: BaseMessage[] = [];
    const pending = thread.pending;
    let next = 0;
    // Calls the agent answers itself, up to the next one the environment answers.
    const answerOwn = () => {
      while (next < pending.length && pending[next]!.answer !== null) {
        const p = pending[next++]!;
        incoming.push(new ToolMessage({ tool_call_id: p.id, content: p.answer as string }));
      }
    };
    for (const m of fresh) {
      // The environment's echo of what this agent said: the thread already holds the real message.
      if (m.role === "assistant") continue;
      if (m.role === "system") {
        incoming.push(new SystemMessage(m.content));
        continue;
      }
      answerOwn();
      if (next < pending.length)
        incoming.push(new ToolMessage({ tool_call_id: pending[next++]!.id, content: m.content }));
      else incoming.push(new HumanMessage(m.content));
    }
    answerOwn();
    // A call the environment left without its own answer (several calls judged as one move): every
    // call must be answered before the model is called again.
    for (; next < pending.length; next++)
      incoming.push(new ToolMessage({ tool_call_id: pending[next]!.id, content: NOT_ANSWERED }));
    thread.pending = [];
    thread.seen += fresh.length;

    let state: Awaited<ReturnType<typeof graph.invoke>>;
    try {
      state = await graph.invoke(
        { messages: thread.messages.concat(incoming) },
        // Not `signal`: see buildAgentGraph.
        { configurable: { thread_id: threadId, replicate, abort: signal } },
      );
    } catch (err) {
      throw this.turnError(err, signal);
    }
    thread.messages = state.messages;
    const last = state.messages.at(-1) as AIMessage | undefined;
    thread.pending = last ? pendingCalls(last, this.actionTools) : [];
    const cut = last?.response_metadata?.finish_reason === "length";
    return {
      action: state.action ?? { type: "reply", text: "" },
      usage: state.usage,
      ...(cut ? { cutAt: this.settings.maxTokens ?? null } : {}),
    };
  }

  /**
   * What a turn's error means (DESIGN.md § Failures are not answers). What the model call made of
   * its request goes on as it is: a failure of the infrastructure or the configuration, the server's
   * refusal of the request (the model's answer), bazaar's bug, or the user's error. Anything else was raised by
   * bazaar's own code or a library under it (LangGraph, LangChain) with no answer behind it: a bug,
   * never a non-response of the model's.
   */
  private turnError(err: unknown, signal: AbortSignal | undefined): unknown {
    // A user's error raised on the way (the store stopped answering while the response cache was
    // read) is said to the user as it is: exit 2, one line, the same command resumes.
    if (signal?.aborted || failureOf(err) || isRequestRefused(err) || isBazaarBug(err) || isUserError(err))
      return err;
    return bazaarBug(this.settings.model, redact(errorLine(err)), err);
  }

  endEpisode(ctx: AgentContext): void {
    const prefix = this.episodeThreads(ctx);
    for (const id of [...this.threads.keys()]) if (id.startsWith(prefix)) this.endThread(id);
  }

  endThread(threadId: string): void {
    this.threads.delete(threadId);
  }
}
