/** Bonferroni over an agent's testable audit groups, and the joint verdict they support. */
import { adjustPValues } from "../stats/index.ts";

export type GroupStatus = "rejected" | "not-rejected" | "untestable";

/** What the verdict reads of a group's test: its p, or why it has none. */
export interface GroupOutcome {
  pValue: number;
  /** Null when testable. */
  untestableReason: string | null;
}

export interface GroupDecision {
  /** Bonferroni-adjusted p over the testable groups only; NaN when untestable. */
  adjustedP: number;
  status: GroupStatus;
  /** Null when untestable: no test, so neither rejected nor not. */
  rejected: boolean | null;
}

export type VerdictStatus = "rejects" | "not-rejected" | "untestable" | "no-groups";

export interface JointVerdict {
  status: VerdictStatus;
  groups: number;
  /** Groups with a test; only these enter Bonferroni and the verdict. */
  testable: number;
  untestable: number;
  rejected: number;
  /** Per-group threshold α / testable groups (NaN when none is testable). */
  threshold: number;
  /** Some testable group rejects: no single utility fits every group. Null when none is testable. */
  rejectsJointConsistency: boolean | null;
  /** Why there is no verdict (status `untestable` or `no-groups`), else null. */
  reason: string | null;
}

/**
 * Adjusts the testable groups' p-values by Bonferroni over the testable groups alone (an untestable
 * group runs no test, so it spends no share of α) and reads the joint verdict off them.
 */
export function decideGroups(
  outcomes: readonly GroupOutcome[],
  alpha: number,
): { decisions: GroupDecision[]; verdict: JointVerdict } {
  const testableIdx = outcomes.flatMap((o, i) => (o.untestableReason === null ? [i] : []));
  const adjusted = adjustPValues(
    testableIdx.map((i) => (outcomes[i] as GroupOutcome).pValue),
    "bonferroni",
  );
  const adjustedAt = new Map(testableIdx.map((i, k) => [i, adjusted[k] as number]));
  const decisions = outcomes.map((_, i): GroupDecision => {
    const p = adjustedAt.get(i);
    if (p === undefined) return { adjustedP: Number.NaN, status: "untestable", rejected: null };
    const rejected = p <= alpha;
    return { adjustedP: p, status: rejected ? "rejected" : "not-rejected", rejected };
  });
  const testable = testableIdx.length;
  const rejected = decisions.filter((d) => d.rejected === true).length;
  const status: VerdictStatus =
    outcomes.length === 0
      ? "no-groups"
      : testable === 0
        ? "untestable"
        : rejected > 0
          ? "rejects"
          : "not-rejected";
  return {
    decisions,
    verdict: {
      status,
      groups: outcomes.length,
      testable,
      untestable: outcomes.length - testable,
      rejected,
      threshold: testable > 0 ? alpha / testable : Number.NaN,
      rejectsJointConsistency: testable > 0 ? rejected > 0 : null,
      reason:
        status === "no-groups"
          ? "no main audit groups in this run"
          : status === "untestable"
            ? "no audit group has more queries with a finite answer than its rank, and repeated answers to resample"
            : null,
    },
  };
}
