import { type ActionMeta, META_KEY } from "../../environments/bargain/actions.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { type ModelEndpoint, modelEndpointsOfPlayer } from "../llm/preflight.ts";

/** Times under this are not worth a transcript field: simulated agents answer in microseconds. */
const SHORTEST_MS = 0.05;

function withMeta(acted: Acted<unknown>, ms: number): Acted<unknown> {
  const action = acted.action;
  if (action === null || typeof action !== "object") return acted;
  const u = acted.usage;
  const tokens = u && (u.inputTokens > 0 || u.outputTokens > 0);
  const own = (action as Record<string, unknown>)[META_KEY] as ActionMeta | undefined;
  if (ms < SHORTEST_MS && !tokens && !own) return acted;
  const meta: ActionMeta = { ...own };
  if (ms >= SHORTEST_MS) meta.ms = Math.round(ms * 10) / 10;
  if (tokens) meta.tokens = { input: u.inputTokens, output: u.outputTokens };
  return { action: { ...action, [META_KEY]: meta }, usage: acted.usage };
}

/**
 * Wraps a negotiator so each action carries its time and model tokens for the transcript
 * (`meta`, which the environment records and never judges). Times below 0.05 ms are left out.
 */
export class MeteredAgent implements Agent<unknown, unknown> {
  readonly id: string;
  readonly errorsAreBugs: boolean;

  constructor(private readonly inner: Agent<unknown, unknown>) {
    this.id = inner.id;
    this.errorsAreBugs = inner.errorsAreBugs === true;
  }

  act(observation: Observation<unknown>, ctx: AgentContext): Acted<unknown> | Promise<Acted<unknown>> {
    const started = performance.now();
    const out = this.inner.act(observation, ctx);
    if (out instanceof Promise) return out.then((a) => withMeta(a, performance.now() - started));
    return withMeta(out, performance.now() - started);
  }

  endEpisode(ctx: AgentContext, outcome?: unknown): void | Promise<void> {
    return this.inner.endEpisode?.(ctx, outcome);
  }

  /** The models the wrapped negotiator calls, for the run's preflight. */
  modelEndpoints(): ModelEndpoint[] {
    return modelEndpointsOfPlayer(this.inner);
  }
}
