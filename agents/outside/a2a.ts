/**
 * `a2a:<url>` (DESIGN.md § Agents from outside): an agent that already runs somewhere and speaks the
 * Agent2Agent protocol, in any agent slot. Its card is read when the run starts (a2a-card.ts, through
 * `A2aAgents`); each episode is one A2A task (a2a-episode.ts) whose opening hands the agent the
 * episode's private MCP endpoint, so it acts through the same tools as any outside agent, while
 * A2A carries its conversation with its user. Underneath is the waiting agent every outside agent
 * plays through (waiting.ts): rules, store, leases, resume and the live view are the same.
 *
 * Identity: `{ kind: "a2a", agent: "a2a:<card name>@<card version>", url }`, plus `--agent-version`:
 * a new version on the card is a new run. The headers (`--a2a-header`) are not part of it.
 *
 * The episode driver and the SDK load at the first episode; a run without `a2a:` agents loads none.
 */
import { BazaarBug } from "../../environments/kernel/errors.ts";
import type { AgentFailure } from "../../environments/kernel/failures.ts";
import type { ToolSurface } from "../../environments/kernel/surface.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import type { A2aAgents } from "./a2a-agents.ts";
import type { A2aAgent } from "./a2a-card.ts";
import type { OutsidePlayer } from "./types.ts";
import { type EpisodeLink, WaitingAgent } from "./waiting.ts";

/** The identity of an agent read from its card. */
export function a2aIdentity(agent: Pick<A2aAgent, "name" | "version" | "url">, agentVersion?: string) {
  return {
    kind: "a2a",
    agent: `a2a:${agent.name}@${agent.version}`,
    url: agent.url,
    ...(agentVersion ? { version: agentVersion } : {}),
  };
}

/**
 * `a2a:<url>` for a role's surface. Before the agent's card is read (the first pass of
 * `planWithA2a`) the player is a stand-in that only notes the URL; it must never play.
 */
export function a2aPlayer(
  spec: string,
  url: string,
  surface: ToolSurface,
  agents: A2aAgents,
  episodeTimeoutMs: number,
  agentVersion?: string,
): OutsidePlayer {
  const trimmed = url.trim();
  const agent = agents.agent(trimmed);
  if (!agent)
    return {
      label: spec,
      identity: { kind: "a2a", url: trimmed, card: "not read yet" },
      agent: new Unread(spec),
    };
  return {
    label: spec,
    identity: a2aIdentity(agent, agentVersion),
    agent: new A2aPlayingAgent(spec, surface, agent, agents, episodeTimeoutMs) as Agent<unknown, unknown>,
  };
}

/** The stand-in of a first planning pass: playing it is bazaar's bug (the plan was not made again). */
class Unread implements Agent<unknown, unknown> {
  constructor(readonly id: string) {}
  act(): never {
    throw new BazaarBug(`${this.id} played before its Agent Card was read (plan the run with planWithA2a)`);
  }
}

/**
 * The waiting agent whose episodes each open an A2A task. A failure that means the run's
 * configuration is wrong (the agent refuses bazaar's credentials, cannot take its messages) turns the
 * infrastructure failure its link reports into a configuration failure: the run stops.
 */
class A2aPlayingAgent implements Agent<unknown, Record<string, unknown>> {
  private readonly waiting: WaitingAgent;
  private readonly misconfigured = new Map<string, AgentFailure>();
  private driver: Promise<typeof import("./a2a-episode.ts")> | null = null;

  constructor(
    readonly id: string,
    private readonly surface: ToolSurface,
    private readonly agent: A2aAgent,
    private readonly agents: A2aAgents,
    episodeTimeoutMs: number,
  ) {
    this.waiting = new WaitingAgent(id, surface, (link) => this.start(link), episodeTimeoutMs);
  }

  async act(observation: Observation<unknown>, ctx: AgentContext): Promise<Acted<Record<string, unknown>>> {
    try {
      return await this.waiting.act(observation, ctx);
    } catch (err) {
      throw this.misconfigured.get(ctx.trialKey) ?? err;
    }
  }

  endEpisode(ctx: AgentContext, outcome?: unknown): void {
    this.misconfigured.delete(ctx.trialKey);
    this.waiting.endEpisode(ctx, outcome);
  }

  private start(link: EpisodeLink): void {
    this.driver ??= import("./a2a-episode.ts");
    this.driver.then(
      ({ A2aEpisode }) =>
        new A2aEpisode(link, {
          agent: this.agent,
          surface: this.surface,
          redact: this.agents.redact,
          episodes: this.agents.episodes,
          misconfigured: (failure) => this.misconfigured.set(link.trialKey, failure),
        }).start(),
      (err: unknown) =>
        link.gone(
          `the A2A driver could not be loaded: ${err instanceof Error ? err.message : String(err)}`,
          "the A2A driver could not be loaded",
        ),
    );
  }
}
