/**
 * One episode of an `a2a:` agent: one A2A task (DESIGN.md § Clients). bazaar opens the episode's
 * private MCP endpoint and sends the opening message (a2a-messages.ts); the agent acts through the
 * MCP tools, which reach the waiting agent's link like any outside agent's calls; what the agent says
 * back over A2A is said to its user:
 *
 * - an `input-required` status (or a reply message) is a message to the client: in a shop with a
 *   client it is exactly a `message_client` call — one step, the client's reply its result — and the
 *   reply goes back to the agent in the same task; with nobody to hear it (no client, a bargaining
 *   buyer) bazaar answers `NOTHING_TO_ADD` and the environment does not see it: nothing it could do
 *   with a message no rule provides for. An agent that says `MAX_UNHEARD` such things in a row
 *   without acting between them only talks: that is its non-answer (so every episode ends);
 * - `completed` once the episode is over is the agent done; `completed` before it is over is the
 *   agent's own end — its non-answer, judged as the machine judges an agent that stops;
 * - `failed`, `rejected` (or `canceled` by the agent) is a non-answer, with the agent's text;
 * - `auth-required` is the run's configuration (credentials are given with `--a2a-header`): the run
 *   stops;
 * - a transport error, a reply that is not A2A, or silence past `--episode-timeout` (no tool call for
 *   that long: the link's own timer) is a failed trial (infrastructure), which the same command plays
 *   again.
 *
 * When the episode ends, the agent has `END_GRACE_MS` to finish its task (its exchange is then cut
 * and the task canceled); an episode cut short (the trial failed, the run stopped) cancels the task
 * at once. Either way the endpoint goes with it.
 */
import { AgentFailure } from "../../environments/kernel/failures.ts";
import type { CallResult, ToolSurface } from "../../environments/kernel/surface.ts";
import { MESSAGE_CLIENT } from "../../environments/shop/actions.ts";
import type { A2aAgent } from "./a2a-card.ts";
import { type EpisodeEndpoint, type EpisodeHost, openEndpoint } from "./a2a-endpoint.ts";
import { type Answer, exchange } from "./a2a-exchange.ts";
import { openingMessage, replyMessage } from "./a2a-messages.ts";
import { failureOf } from "./a2a-transport.ts";
import type { EpisodeLink } from "./waiting.ts";

/** What bazaar answers a message nobody hears (no client; a bargaining buyer). */
export const NOTHING_TO_ADD = "I have nothing to add; please go ahead.";
/** Unheard messages in a row, with no step (a tool call that acts) between them: the agent's non-answer. */
export const MAX_UNHEARD = 3;
/** How long an agent may take to finish its task once its episode is over. */
export const END_GRACE_MS = 5_000;
/** How long canceling a task may take (best effort: the trial does not wait for it). */
const CANCEL_MS = 2_000;

/** What an episode needs of its agent beyond the link. */
export interface A2aEpisodeContext {
  agent: A2aAgent;
  surface: ToolSurface;
  redact: (text: string) => string;
  /** Where the episode's MCP endpoint listens. */
  episodes: EpisodeHost;
  /** Told when a failure means the run's configuration is wrong (the run stops). */
  misconfigured(failure: AgentFailure): void;
}

/** Waits for `p` or `ms`, whichever comes first (`unref`: the wait does not hold the process up). */
function within(p: Promise<unknown>, ms: number, unref = false): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    if (unref) t.unref();
    p.then(
      () => {
        clearTimeout(t);
        resolve();
      },
      () => {
        clearTimeout(t);
        resolve();
      },
    );
  });
}

export class A2aEpisode {
  private readonly exchangeCut = new AbortController();
  private endpoint: EpisodeEndpoint | null = null;
  private taskId = "";
  private contextId = "";
  /** The agent's task exists and has not ended: canceled if the episode ends first. */
  private taskOpen = false;
  /** The exchange in flight (what it does, for failures: `message/stream`, `tasks/get`). */
  private what = "message/send";
  private readonly over: Promise<CallResult>;

  constructor(
    private readonly link: EpisodeLink,
    private readonly ctx: A2aEpisodeContext,
  ) {
    this.over = new Promise((resolve) => link.onEnd(resolve));
  }

  start(): void {
    const running = this.run().catch((err: unknown) => this.failed(err));
    this.over.then((last) => this.ended(last, running));
  }

  private get hasClient(): boolean {
    return this.ctx.surface.tools.some((t) => t.name === MESSAGE_CLIENT);
  }

  private async run(): Promise<void> {
    const { link } = this;
    const { surface, agent } = this.ctx;
    try {
      this.endpoint = await openEndpoint(link, surface, this.ctx.episodes);
    } catch (err) {
      // No port for the endpoint: no trial can be played.
      this.ctx.misconfigured(
        new AgentFailure(
          "configuration",
          `a2a: agents: no MCP endpoint on ${this.ctx.episodes.host}: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
      throw err;
    }
    if (link.over) return this.endpoint.close();
    // With a client the agent's user is the client, whose words open the task; without one, the task.
    const text = this.hasClient ? link.task.request : link.task.text;
    let message = openingMessage(text, {
      mcpUrl: this.endpoint.url,
      tools: surface.tools,
      trial: { key: link.trialKey, replicate: link.replicate, env: surface.env, role: surface.role },
      instructions: link.task.instructions,
    });
    let unheard = 0;
    let stepsAtLastUnheard = -1;
    let answered: string | undefined;
    for (;;) {
      this.what = agent.streaming ? "message/stream" : "message/send";
      const answer: Answer = await exchange(agent, message, this.exchangeCut.signal, answered);
      this.taskId = answer.taskId || this.taskId;
      this.contextId = answer.contextId || this.contextId;
      this.taskOpen = this.taskId !== "" && answer.kind === "said";
      if (link.over) return;
      if (answer.kind === "ended") return this.taskEnded(answer);
      answered = answer.status;
      let reply: string;
      if (this.hasClient) {
        const r = await link.call(MESSAGE_CLIENT, { text: this.ctx.redact(answer.text) });
        // The episode ended on it (the client's patience ran out, the step budget): `ended` follows.
        if (r.over || link.over) return;
        reply = r.text;
      } else {
        // A step since the last unheard message (a tool call that acts: not get_task) starts the
        // count again.
        unheard = link.steps === stepsAtLastUnheard ? unheard + 1 : 1;
        stepsAtLastUnheard = link.steps;
        if (unheard >= MAX_UNHEARD) {
          link.quit(
            `the agent only talked: ${unheard} messages in a row over A2A with nobody to hear them and no step between (the last: ${this.quote(answer.text)})`,
          );
          return;
        }
        reply = NOTHING_TO_ADD;
      }
      message = replyMessage(reply, this.taskId, this.contextId);
    }
  }

  /** The agent's task ended (or asked for credentials) with the episode still on. */
  private taskEnded(answer: Extract<Answer, { kind: "ended" }>): void {
    const { link } = this;
    if (answer.state === "auth-required") {
      const failure = new AgentFailure(
        "configuration",
        `a2a:${this.ctx.agent.url}: the agent asks for authentication mid-episode (auth-required${answer.text ? `: ${this.quote(answer.text)}` : ""})`,
        "give its credentials with --a2a-header (e.g. 'Authorization=Bearer $AGENT_TOKEN')",
        "the A2A agent asked for credentials",
      );
      this.ctx.misconfigured(failure);
      this.taskOpen = true;
      link.gone(failure.message, failure.label);
      return;
    }
    // A call still in flight keeps its turn: if it ends the episode, its outcome stands (quit only
    // answers the turn the agent owes next).
    link.quit(
      `the agent's A2A task ended (${answer.state}) before the episode was over${answer.text ? `: ${this.quote(answer.text)}` : ", without a message"}`,
    );
  }

  /** An exchange failed: unless the episode is over anyway, the trial fails (or the run stops). */
  private failed(err: unknown): void {
    const { link } = this;
    if (link.over || this.exchangeCut.signal.aborted) return;
    const f = failureOf(err, this.what);
    const message = this.ctx.redact(f.message);
    if (f.kind === "configuration")
      this.ctx.misconfigured(new AgentFailure("configuration", message, f.hint, f.label));
    link.gone(message, f.label);
  }

  /**
   * The episode is over. One that ended gives the agent a moment to finish its task and make its
   * last calls (answered with the outcome); one cut short stops it now.
   */
  private ended(last: CallResult, running: Promise<void>): void {
    const stop = () => {
      this.exchangeCut.abort(new Error("the episode is over"));
      this.endpoint?.close();
      if (this.taskOpen) this.cancelTask();
    };
    if (last.isError) stop();
    else within(running, END_GRACE_MS, true).then(stop);
  }

  private cancelTask(): void {
    const id = this.taskId;
    this.taskOpen = false;
    this.ctx.agent.client
      .cancelTask({ tenant: "", id, metadata: undefined }, { signal: AbortSignal.timeout(CANCEL_MS) })
      .catch(() => {});
  }

  /** The agent's words as a reason quotes them: one line, redacted, cut at 300 characters. */
  private quote(text: string): string {
    const t = this.ctx.redact(text).trim().replace(/\s+/g, " ");
    return t.length > 300 ? `${t.slice(0, 300)}…` : t;
  }
}
