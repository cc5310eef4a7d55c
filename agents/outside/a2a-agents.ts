/**
 * The `a2a:` agents of one run. An agent's identity (which enters every trial key) is its card's
 * name and version, so its card must be read before the run is planned — but which agents a run has
 * is only known by planning it (each environment reads its own slots: `--agent`, `--buyer`, a market's
 * buyers…), and planning is synchronous. So a run with `a2a:` agents is planned twice
 * (`planWithA2a`): the first pass notes the URLs it meets (`wanted`), their cards are read, and the
 * second pass, which finds every card, is the plan. A planner writes nothing (cli/run/types.ts), so
 * the first pass costs only its time, and a run without `a2a:` agents is planned once.
 */
import type { A2aAgent } from "./a2a-card.ts";
import { type EpisodeHost, LOOPBACK_EPISODES } from "./a2a-endpoint.ts";
import { type A2aHeader, redactor } from "./a2a-headers.ts";

/** How long reading a card, or the endpoint's first answer, may take before the agent does not answer. */
export const CARD_TIMEOUT_MS = 10_000;

export class A2aAgents {
  private readonly read = new Map<string, A2aAgent>();
  private readonly wanted = new Set<string>();
  /** Every text kept from an A2A exchange goes through this (a2a-headers.ts). */
  readonly redact: (text: string) => string;

  constructor(
    readonly headers: readonly A2aHeader[] = [],
    private readonly timeoutMs = CARD_TIMEOUT_MS,
    /** Where their episodes' MCP endpoints listen (a2a-endpoint.ts): loopback unless a server says. */
    readonly episodes: EpisodeHost = LOOPBACK_EPISODES,
  ) {
    this.redact = redactor(headers);
  }

  /** The agent at `url` once its card is read; undefined (and noted as wanted) before. */
  agent(url: string): A2aAgent | undefined {
    const a = this.read.get(url);
    if (!a) this.wanted.add(url);
    return a;
  }

  /** URLs met whose cards are not read yet. */
  get pending(): boolean {
    return this.wanted.size > 0;
  }

  /** Reads the cards of every URL met (all at once); a UserError for the first that cannot be used. */
  async readPending(): Promise<void> {
    const urls = [...this.wanted];
    this.wanted.clear();
    const { readA2aAgent } = await import("./a2a-card.ts");
    const agents = await Promise.all(
      urls.map((url) => readA2aAgent(url, this.headers, { timeoutMs: this.timeoutMs, redact: this.redact })),
    );
    for (const a of agents) this.read.set(a.url, a);
  }
}

/**
 * `plan()` with every `a2a:` agent it names resolved from its card: planned once when it names none,
 * else once to learn which, and again once their cards are read.
 */
export async function planWithA2a<T>(agents: A2aAgents | undefined, plan: () => T): Promise<T> {
  const first = plan();
  if (!agents?.pending) return first;
  await agents.readPending();
  return plan();
}
