/**
 * What a run's summary (`run`, `serve`) and `bazaar runs` say of its trials beyond the counts: what
 * failed (by agent and cause — a model call after every retry, an MCP session that closed, an
 * `exec:` process that exited 3), and which non-responses are outside agents that left their trial
 * without acting again and again (`serve --max-abandons`). Read from the store, so both say the same.
 */
import { type FailureCause, failureCauses, LEFT_WITHOUT_ACTING } from "../../environments/kernel/failures.ts";
import type { Store } from "../../environments/store/index.ts";

export interface RunNotes {
  /** Failed trials by agent and what failed. */
  failures: FailureCause[];
  /** Non-responses of outside agents that left the trial without acting, per agent. */
  leftWithoutActing: { agent: string; trials: number }[];
}

export function notesOf(store: Store, runId: string): RunNotes {
  return {
    failures: failureCauses(store.failedTrials(runId)),
    leftWithoutActing: store.agentErrorsHolding(runId, LEFT_WITHOUT_ACTING),
  };
}

/** Failed trials by cause, one line per agent: `  mcp:x: the MCP session closed mid-episode (2), …`. */
export function causeLines(failures: readonly FailureCause[], indent = "  "): string[] {
  const byAgent = new Map<string, FailureCause[]>();
  for (const f of failures) byAgent.set(f.agent, [...(byAgent.get(f.agent) ?? []), f]);
  return [...byAgent].map(
    ([agent, causes]) =>
      `${indent}${agent}: ${causes.map((c) => `${c.label} (${c.trials.toLocaleString("en-US")})`).join(", ")}`,
  );
}

/** `1 trial of mcp:x, 2 trials of mcp:y`. */
export function leftLine(left: RunNotes["leftWithoutActing"]): string {
  return left
    .map((a) => `${a.trials.toLocaleString("en-US")} trial${a.trials === 1 ? "" : "s"} of ${a.agent}`)
    .join(", ");
}
