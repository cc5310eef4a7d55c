import { z } from "zod";
import type { Rng } from "./rng.ts";

/** A chat message as an environment shows it to an agent (OpenAI roles). */
export const MessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

/** Why an agent's answer could not be used, with what it actually said. */
export const NonResponseSchema = z.object({
  reason: z.string(),
  raw: z.string(),
});
export type NonResponse = z.infer<typeof NonResponseSchema>;

/** Token and time accounting for one trial (zeros for simulated agents). */
export const UsageSchema = z.object({
  /** Model requests that went over the network (retries included). */
  calls: z.number().int().nonnegative(),
  /** Model answers served from the response cache instead. */
  cacheHits: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  /**
   * Of `inputTokens`, those the provider served from its prompt cache (OpenAI's
   * `usage.prompt_tokens_details.cached_tokens`), billed at its cached-input price. Absent where
   * none were (or the server does not say; trials stored before it was counted).
   */
  cachedInputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  /**
   * Model answers that stopped at the output cap (`finish_reason` "length"): cut, not finished.
   * Absent where none did (simulated agents, trials stored before it was counted).
   */
  cutAtCap: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export function emptyUsage(): Usage {
  return { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, latencyMs: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const cut = (a.cutAtCap ?? 0) + (b.cutAtCap ?? 0);
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return {
    calls: a.calls + b.calls,
    cacheHits: a.cacheHits + b.cacheHits,
    inputTokens: a.inputTokens + b.inputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    latencyMs: a.latencyMs + b.latencyMs,
    ...(cut > 0 ? { cutAtCap: cut } : {}),
  };
}

/** What an agent is given at each of its turns. `view` is the environment's structured state. */
export interface Observation<View> {
  messages: Message[];
  view: View;
}

/** What an agent may use besides the observation: its own seeded stream, cancellation. */
export interface AgentContext {
  rng: Rng;
  signal?: AbortSignal;
  trialKey: string;
  replicate: number;
}

/** An agent's reply, with the usage it cost (simulated agents leave usage out). */
export interface Acted<Action> {
  action: Action;
  usage?: Usage;
  /**
   * The answer stopped at the output cap, not where the model ended it: the cap in tokens, or null
   * when the server stopped it without one sent. A non-response that follows says so.
   */
  cutAt?: number | null;
}

/**
 * A policy: observation in, action out. LLM agents, the OG-Narrator buyer, rule negotiators and
 * simulated agents all implement this one interface, so environments never know which they face.
 */
export interface Agent<View, Action> {
  readonly id: string;
  /**
   * bazaar's own code with no answer behind its errors (a simulated policy, a rule): an error it
   * throws is bazaar's bug — the run stops with the trial unplayed — never a non-response of its
   * (DESIGN.md § Failures are not answers). Outside agents' errors stay their answers.
   */
  readonly errorsAreBugs?: boolean;
  act(observation: Observation<View>, ctx: AgentContext): Acted<Action> | Promise<Acted<Action>>;
  /**
   * Called once when an episode the agent played ends, to drop per-episode state (a conversation);
   * with the machine's outcome when the episode reached one (not when it was cut short).
   */
  endEpisode?(ctx: AgentContext, outcome?: unknown): void | Promise<void>;
}

/**
 * One agent configuration of a run: a label for tables, an identity that enters trial keys (for an
 * LLM: model, URL, sampling settings — never a key), and the policy playing each role. Agents build
 * entries and the runner runs them, so the type lives here, below both.
 */
export interface AgentEntry {
  label: string;
  identity: unknown;
  players: Readonly<Record<string, Agent<unknown, unknown>>>;
  /**
   * What seeds the episode's random stream in place of `identity` (default: `identity` itself): a
   * shopper working for a client seeds by the shopper alone, so every client it works for meets the
   * same draws (common random numbers) and the complete client reproduces the run without one.
   */
  seedIdentity?: unknown;
}

/**
 * Where a run's agents take their turns, when not in the runner's own thread: a host hands back
 * entries that play like the given ones (LLM turns moved into worker threads, say) and says if it
 * broke, so that the run fails instead of recording non-responses.
 */
export interface AgentHost {
  agents: readonly AgentEntry[];
  /** The error that made the host unusable, if one did. */
  failure(): unknown;
  /** Resolves once every turn it took has finished. */
  close(): Promise<void>;
}

/** Chooses a host for a run's agents (null: they play in the runner's thread). */
export type HostAgents = (
  agents: readonly AgentEntry[],
  run: { trials: number; concurrency: number; signal?: AbortSignal },
) => AgentHost | null | Promise<AgentHost | null>;
