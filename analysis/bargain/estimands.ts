/**
 * Bargaining's precision targets (`bazaar run bargain --until …`): the deal rate over valid sessions
 * and the buyer's sum of normalized profits (SNP), as the headline counts them, clustered by
 * scenario (a scenario's replicates are one unit).
 */
import { clusteredMeanInterval, clusteredShareInterval } from "../stats/sequential.ts";
import type { EnvironmentEstimands, EstimandSpec, EstimandTracker, EstimandValue } from "../stats/targets.ts";
import { type SessionInput, scoreSession } from "./session.ts";

/** A scenario is its own unit: its replicates are played together. */
function unitOf(task: unknown): string {
  return String((task as { taskId?: unknown }).taskId);
}

function scored(records: readonly Record<string, unknown>[]) {
  return records.map((r) => scoreSession(r as unknown as SessionInput));
}

function dealRateTracker(level: number): EstimandTracker {
  // A unit is one scenario: its replicates may be one session repeated (tasks: 1).
  const units = new Map<string, { hits: number; n: number; tasks: number }>();
  return {
    add(records) {
      for (const s of scored(records)) {
        if (!s.valid) continue;
        const u = units.get(s.scenarioId) ?? { hits: 0, n: 0, tasks: 1 };
        u.n++;
        if (s.deal) u.hits++;
        units.set(s.scenarioId, u);
      }
    },
    value(): EstimandValue {
      const interval = clusteredShareInterval([...units.values()], level);
      return interval ? { interval } : { interval: null, why: "valid sessions from fewer than 2 scenarios" };
    },
  };
}

/**
 * The SNP is a sum over the design's deals, so a run that stops early estimates the one the whole
 * design would give: the mean normalized buyer profit per session (0 without a deal, invalid
 * sessions included, as the sum counts them) times the agent's sessions in the design.
 */
function snpTracker(level: number, designTrials: number): EstimandTracker {
  const units = new Map<string, { sum: number; n: number }>();
  return {
    add(records) {
      for (const s of scored(records)) {
        const u = units.get(s.scenarioId) ?? { sum: 0, n: 0 };
        u.n++;
        u.sum += s.deal ? s.buyerNormalized! : 0;
        units.set(s.scenarioId, u);
      }
    },
    value(): EstimandValue {
      const perSession = clusteredMeanInterval([...units.values()], level);
      if (!perSession) return { interval: null, why: "sessions from fewer than 2 scenarios" };
      const k = designTrials;
      return {
        interval: {
          ...perSession,
          estimate: perSession.estimate * k,
          low: perSession.low * k,
          high: perSession.high * k,
          halfWidth: perSession.halfWidth * k,
        },
        detail: `the design's ${k.toLocaleString("en-US")} sessions`,
      };
    },
  };
}

const ESTIMANDS: EstimandSpec[] = [
  {
    name: "deal-rate",
    label: "deal rate (valid)",
    family: "proportion",
    unit: "pts",
    description: "deals over valid sessions, Wilson interval clustered by scenario",
    informs: () => true,
    tracker: dealRateTracker,
  },
  {
    name: "snp",
    label: "buyer SNP",
    family: "mean",
    unit: "plain",
    description:
      "the buyer's sum of normalized profits over the whole design's sessions (estimated from those played), t interval clustered by scenario",
    informs: () => true,
    tracker: snpTracker,
  },
];

export const BARGAIN_ESTIMANDS: EnvironmentEstimands = { env: "bargain", estimands: ESTIMANDS, unitOf };
