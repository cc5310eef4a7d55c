/**
 * The one adapter under every outside agent (DESIGN.md § Agents from outside): an agent that waits
 * for calls. The episode driver asks it for an action; the action arrives when the outside agent
 * calls a tool; the tool returns when the machine has answered (the next observation, or the end).
 * So the rules, the store, leases, resume, the live view and the analysis are the same as for any
 * agent. An outside agent that goes away mid-episode leaves a failed trial (infrastructure), never an
 * answer; one that ends its own episode early (`quit`) leaves its non-answer as the machine judges it.
 */
import { AgentFailure } from "../../environments/kernel/failures.ts";
import {
  type CallResult,
  GET_TASK_TOOL,
  type SurfaceTask,
  type ToolSurface,
} from "../../environments/kernel/surface.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { conversationOf, linkKey } from "./conversation.ts";

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * One episode as the outside agent reaches it — one conversation of it, where its role holds several
 * (a shop seller's negotiation of each listing: `conversation.ts`): its task, and `call` for each
 * tool call. Calls are taken one at a time in the order they arrive (parallel calls of one message
 * are steps in order).
 */
export class EpisodeLink {
  readonly task: SurfaceTask;
  /** The trial and the conversation: what sessions and processes tell links apart by. */
  readonly key: string;
  /** The call whose action the driver has taken and whose result is not in yet. */
  private inFlight: Deferred<CallResult> | null = null;
  /** The driver waiting for the agent's next action. */
  private waiting: Deferred<Record<string, unknown>> | null = null;
  /** Calls queued behind the one in flight. */
  private chain: Promise<unknown> = Promise.resolve();
  private ended: CallResult | null = null;
  private goneReason: string | null = null;
  /** What failed, in a few words, when the agent went away (`AgentFailure.label`). */
  private goneLabel = "the outside agent went away";
  /** The agent ended the episode itself (`quit`), rather than going away (`gone`). */
  private quitByAgent = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly endListeners: ((r: CallResult) => void)[] = [];
  /** The environment's view at the latest turn (`CallResult.view`). */
  private view: unknown;
  /** Tool calls made (get_task included) and steps taken. */
  calls = 0;
  steps = 0;

  constructor(
    readonly trialKey: string,
    /** Which repetition of its task the trial is (0-based), for agents that seed by it. */
    readonly replicate: number,
    readonly surface: ToolSurface,
    observation: Observation<unknown>,
    /** How long the link waits for the next call before the episode is failed (0: forever). */
    private readonly idleMs: number,
    /** Which conversation of the episode (`conversationOf` its opening). */
    readonly conversation = conversationOf(observation.messages),
  ) {
    this.task = surface.taskOf(observation.messages);
    this.view = observation.view;
    this.key = linkKey(trialKey, conversation);
  }

  get over(): boolean {
    return this.ended !== null || this.goneReason !== null;
  }

  /** Called once, with the last result, when the episode ends (or is cut short). */
  onEnd(listener: (r: CallResult) => void): void {
    if (this.ended) listener(this.ended);
    else this.endListeners.push(listener);
  }

  /** An outside tool call: queued behind the one in flight, answered when the machine has. */
  call(name: string, args: Record<string, unknown>): Promise<CallResult> {
    this.calls++;
    if (name === GET_TASK_TOOL) return Promise.resolve(this.taskResult());
    const run = this.chain.then(() => this.step(name, args));
    this.chain = run.catch(() => {});
    return run;
  }

  private taskResult(): CallResult {
    return {
      text: this.task.text,
      isError: false,
      over: this.ended !== null,
      ...(this.ended === null ? { view: this.view } : {}),
    };
  }

  private async step(name: string, args: Record<string, unknown>): Promise<CallResult> {
    if (this.ended) return this.ended;
    if (this.goneReason !== null)
      return { text: `The episode was stopped: ${this.goneReason}.`, isError: true, over: true };
    const waiting = this.waiting;
    if (!waiting) throw new Error("the episode is not waiting for a call");
    this.waiting = null;
    this.clearIdle();
    this.steps++;
    const result = deferred<CallResult>();
    this.inFlight = result;
    waiting.resolve(this.surface.actionOf(name, args));
    return result.promise;
  }

  /** The driver's turn: answer the call in flight with what the machine showed, then wait for the next. */
  next(observation: Observation<unknown>, seen: number): Promise<Record<string, unknown>> {
    this.view = observation.view;
    if (this.inFlight) {
      const fresh = observation.messages.slice(seen);
      this.inFlight.resolve(this.surface.resultOf(fresh, observation.view));
      this.inFlight = null;
    }
    if (this.goneReason !== null)
      return Promise.reject(this.quitByAgent ? new Error(this.goneReason) : this.failure());
    this.waiting = deferred();
    this.armIdle();
    return this.waiting.promise;
  }

  /**
   * The episode ended: the call in flight (and every later one) gets the outcome, as this link's
   * conversation knows it (its last view says which it is).
   */
  end(outcome: unknown): void {
    this.clearIdle();
    const last: CallResult =
      outcome === undefined
        ? { text: "The episode was stopped before it ended.", isError: true, over: true }
        : this.surface.endedResult(outcome, this.view);
    this.ended = last;
    this.inFlight?.resolve(last);
    this.inFlight = null;
    this.waiting?.reject(new Error("the episode is over"));
    this.waiting = null;
    for (const l of this.endListeners.splice(0)) l(last);
  }

  /**
   * The outside agent went away (its session closed, its process exited, it was idle too long):
   * the turn it owes fails as infrastructure, so the trial is stored failed and played again.
   * `label` says what failed in a few words, for the summaries that count failed trials by cause.
   */
  gone(reason: string, label?: string): void {
    if (this.ended || this.goneReason !== null) return;
    this.goneReason = reason;
    if (label) this.goneLabel = label;
    this.clearIdle();
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.failure());
  }

  /**
   * The outside agent ended before the episode did, by its own choice (`exec:` exiting 0): the turn
   * it owes is its own error, which the machine records as its non-answer.
   */
  quit(reason: string): void {
    if (this.ended || this.goneReason !== null) return;
    this.goneReason = reason;
    this.quitByAgent = true;
    this.clearIdle();
    const w = this.waiting;
    this.waiting = null;
    w?.reject(new Error(reason));
  }

  private failure(): AgentFailure {
    return new AgentFailure("infrastructure", `outside agent: ${this.goneReason}`, undefined, this.goneLabel);
  }

  private armIdle(): void {
    this.clearIdle();
    if (this.idleMs > 0) {
      // Whole seconds as such (the option is in seconds); a fraction (tests) not rounded to "0 s".
      const seconds = Number.isInteger(this.idleMs / 1000)
        ? String(this.idleMs / 1000)
        : (this.idleMs / 1000).toFixed(1);
      this.idleTimer = setTimeout(
        () =>
          this.gone(
            `no tool call for ${seconds} s (--episode-timeout)`,
            `idle past --episode-timeout (${seconds} s)`,
          ),
        this.idleMs,
      );
      this.idleTimer.unref();
    }
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/** Where the episodes of a waiting agent go: to a waiting MCP session, to a process started for it. */
export type LinkEpisode = (link: EpisodeLink, ctx: AgentContext) => void;

/**
 * The agent that waits for calls. Each conversation's first turn makes its `EpisodeLink` and hands it
 * to `linkEpisode` (which connects an outside agent to it); every turn then waits for that agent's
 * next tool call. One instance plays many episodes at once, one link per trial and conversation: a
 * role with one conversation an episode has one link a trial; a shop seller, one a negotiation.
 */
export class WaitingAgent implements Agent<unknown, Record<string, unknown>> {
  /** Per trial, its conversations' links. */
  private readonly trials = new Map<string, Map<string, { link: EpisodeLink; seen: number }>>();

  constructor(
    readonly id: string,
    readonly surface: ToolSurface,
    private readonly linkEpisode: LinkEpisode,
    private readonly idleMs: number,
  ) {}

  /** The link of the conversation `observation` belongs to, made (and handed out) at its first turn. */
  private entryOf(observation: Observation<unknown>, ctx: AgentContext): { link: EpisodeLink; seen: number } {
    let links = this.trials.get(ctx.trialKey);
    if (!links) {
      links = new Map();
      this.trials.set(ctx.trialKey, links);
    }
    const conversation = conversationOf(observation.messages);
    let entry = links.get(conversation);
    if (entry) return entry;
    const link = new EpisodeLink(
      ctx.trialKey,
      ctx.replicate,
      this.surface,
      observation,
      this.idleMs,
      conversation,
    );
    entry = { link, seen: observation.messages.length };
    links.set(conversation, entry);
    if (ctx.signal) {
      const signal = ctx.signal;
      const stop = () => link.gone("the run was stopped");
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      link.onEnd(() => signal.removeEventListener("abort", stop));
    }
    this.linkEpisode(link, ctx);
    return entry;
  }

  /**
   * A turn: the link of `observation`'s conversation (made and handed out at its first turn), and the
   * action the outside agent's next tool call will bring.
   */
  turn(
    observation: Observation<unknown>,
    ctx: AgentContext,
  ): { link: EpisodeLink; action: Promise<Record<string, unknown>> } {
    const entry = this.entryOf(observation, ctx);
    const seen = entry.seen;
    entry.seen = observation.messages.length;
    return { link: entry.link, action: entry.link.next(observation, seen) };
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<Record<string, unknown>>> {
    return { action: await this.turn(observation, ctx).action };
  }

  /** Every conversation of the episode ends, each with the outcome as it knows it. */
  endEpisode(ctx: AgentContext, outcome?: unknown): void {
    const links = this.trials.get(ctx.trialKey);
    if (!links) return;
    this.trials.delete(ctx.trialKey);
    for (const { link } of links.values()) link.end(outcome);
  }
}
