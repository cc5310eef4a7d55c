/**
 * The shop's precision targets (`bazaar run shop --until …`): task success, and with clients the
 * regret a shopper left its client — each over the episodes the headline counts, clustered by task
 * (a task's replicates are one unit: they are not independent draws).
 */
import { clusteredMeanInterval, clusteredShareInterval } from "../stats/sequential.ts";
import type { EnvironmentEstimands, EstimandSpec, EstimandTracker, EstimandValue } from "../stats/targets.ts";
import { selectByClientFaults } from "./client/faults.ts";
import { clientEpisodes } from "./client/records.ts";
import { type ShopEpisode, shopEpisodesFromRecords } from "./records.ts";

/** A shop task is its own unit: its replicates are played together. */
function unitOf(task: unknown): string {
  return String((task as { taskId?: unknown }).taskId);
}

/** Episodes the headline estimates from: an agent-error episode is missing data, in no estimate. */
function answered(records: readonly Record<string, unknown>[]): ShopEpisode[] {
  return shopEpisodesFromRecords(records).filter((e) => e.endReason !== "agent-error");
}

function successTracker(level: number): EstimandTracker {
  // A unit is one task: its replicates may be one answer repeated (tasks: 1).
  const units = new Map<string, { hits: number; n: number; tasks: number }>();
  return {
    add(records) {
      for (const e of answered(records)) {
        const u = units.get(e.taskId) ?? { hits: 0, n: 0, tasks: 1 };
        u.n++;
        if (e.success) u.hits++;
        units.set(e.taskId, u);
      }
    },
    value(): EstimandValue {
      const interval = clusteredShareInterval([...units.values()], level);
      return interval ? { interval } : { interval: null, why: "episodes from fewer than 2 tasks" };
    },
  };
}

/**
 * Mean regret in the client's dollars a night over the episodes the client analysis keeps by
 * default: answered, and without a client fault (an episode whose client broke its own rules says
 * nothing about the shopper).
 */
function regretTracker(level: number): EstimandTracker {
  const units = new Map<string, { sum: number; n: number }>();
  return {
    add(records) {
      for (const e of selectByClientFaults(clientEpisodes(answered(records)), "exclude").kept) {
        const u = units.get(e.taskId) ?? { sum: 0, n: 0 };
        u.n++;
        u.sum += e.regret;
        units.set(e.taskId, u);
      }
    },
    value(): EstimandValue {
      const interval = clusteredMeanInterval([...units.values()], level);
      return interval ? { interval } : { interval: null, why: "episodes from fewer than 2 tasks" };
    },
  };
}

const ESTIMANDS: EstimandSpec[] = [
  {
    name: "success",
    label: "success",
    family: "proportion",
    unit: "pts",
    description:
      "the share of episodes that booked an admissible listing (or gave up where none was), Wilson interval clustered by task",
    informs: () => true,
    tracker: successTracker,
  },
  {
    name: "regret",
    label: "regret",
    family: "mean",
    unit: "usd",
    description:
      "mean regret, the client's dollars a night left on the table (episodes without a client fault), t interval clustered by task",
    informs: (task) => (task as { client?: unknown }).client !== undefined,
    requires: "regret is what a shopper cost its client: run shop with --client",
    tracker: regretTracker,
  },
];

export const SHOP_ESTIMANDS: EnvironmentEstimands = { env: "shop", estimands: ESTIMANDS, unitOf };
