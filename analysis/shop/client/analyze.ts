/**
 * The client analysis of a shop run with clients (specs/client.md, "Outcome and estimators"): per
 * cell (a shopper working for a client) success, pass^k, regret and the share of the best surplus
 * captured, requirements uncovered and met by luck, burden; per client model its fault rates; and
 * the shoppers compared in pairs on the same units. Agent-error episodes are missing data, counted
 * apart and in no estimate (as in the shop analysis); episodes with a client fault are kept, left
 * out or kept alone by `clientFaults`, and the analysis says how many it left out. Pure: episodes
 * in, results out; randomness only from the seed given.
 */
import { createRng } from "../../../environments/kernel/rng.ts";
import { type ClientCell, clientCell } from "./cell.ts";
import {
  type ClientFaultMode,
  type ClientFaultRates,
  clientFaultRates,
  flagged,
  selectByClientFaults,
} from "./faults.ts";
import { compareShoppers, type ShopperComparison, shopperPairs } from "./paired.ts";
import type { ClientEpisode } from "./records.ts";

export interface ClientAnalysisOptions {
  /** Episodes with a client fault: kept, left out (the default) or kept alone. */
  clientFaults?: ClientFaultMode;
  /** Task-bootstrap draws of pass^k and the paired comparisons (default 200; 0: no intervals). */
  draws?: number;
  level?: number;
  seed?: string;
}

export interface ClientAnalysis {
  clientFaults: ClientFaultMode;
  level: number;
  draws: number;
  /** Episodes in the estimates (after agent errors and the client-fault option). */
  episodes: number;
  /** Agent-error episodes: missing data, in no estimate. */
  agentErrors: number;
  /** Episodes with a client fault, among those the agents answered. */
  flagged: number;
  /** Episodes the client-fault option left out. */
  leftOut: number;
  shoppers: string[];
  clients: string[];
  /** Per cell, with its episodes that had a client fault (kept or not). */
  cells: (ClientCell & { flagged: number })[];
  /** Per client model, over every episode it played (whatever the option): its faults. */
  faults: ClientFaultRates[];
  comparisons: ShopperComparison[];
}

export function analyzeClients(
  all: readonly ClientEpisode[],
  options: ClientAnalysisOptions = {},
): ClientAnalysis {
  const mode = options.clientFaults ?? "exclude";
  const draws = options.draws ?? 200;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? "bazaar-shop";
  const answered = all.filter((e) => e.endReason !== "agent-error");
  const { kept, leftOut } = selectByClientFaults(answered, mode);
  const shoppers = [...new Set(all.map((e) => e.shopper))];
  const clients = [...new Set(all.map((e) => e.client.spec))];
  const agents = new Map<string, { agent: string; shopper: string; client: string; persona: string }>();
  for (const e of all)
    if (!agents.has(e.agent))
      agents.set(e.agent, {
        agent: e.agent,
        shopper: e.shopper,
        client: e.client.spec,
        persona: e.client.persona,
      });
  const cells = [...agents.values()].map((who) => ({
    ...clientCell(
      who,
      kept.filter((e) => e.agent === who.agent),
      { draws, level, rng: createRng(`${seed}/client/${who.agent}`).fork("pass-k") },
    ),
    flagged: answered.filter((e) => e.agent === who.agent && flagged(e)).length,
  }));
  const pairs = shopperPairs(shoppers);
  const scopes: (string | null)[] = clients.length > 1 ? [...clients, null] : clients;
  const comparisons = scopes.flatMap((client) =>
    pairs.map(([t, c]) => compareShoppers(kept, t, c, { client, draws, level, seed })),
  );
  return {
    clientFaults: mode,
    level,
    draws,
    episodes: kept.length,
    agentErrors: all.length - answered.length,
    flagged: answered.filter(flagged).length,
    leftOut,
    shoppers,
    clients,
    cells,
    faults: clientFaultRates(answered, level),
    comparisons,
  };
}
