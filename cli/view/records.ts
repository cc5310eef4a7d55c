/**
 * A stored trial as its environment's export record (what `bazaar export` writes), the same way the
 * terminal replay builds it: the viewer shows records, never raw store rows.
 */
import { emptyUsage, type Usage } from "../../environments/kernel/types.ts";
import { ENVIRONMENTS } from "../../environments/registry.ts";
import type { PagedTrial } from "../../environments/store/trial-pages.ts";
import type { TrialRecord } from "../tui/records/types.ts";

export interface RecordContext {
  id: string;
  env: string;
  /** Who plays a role the records name only by role (a shop's seller negotiators). */
  roleNames?: Readonly<Record<string, string>>;
}

export function recordOf(
  run: RecordContext,
  t: Pick<PagedTrial, "seq" | "trialKey" | "agent" | "replicate" | "task" | "result">,
): TrialRecord {
  const result = (t.result ?? {}) as { outcome?: unknown; usage?: Usage };
  const env = ENVIRONMENTS[run.env];
  if (!env)
    return { env: run.env, seq: t.seq, agent: t.agent, trialKey: t.trialKey, task: t.task, ...result };
  const record = env.record({
    run: run.id,
    trialKey: t.trialKey,
    seq: t.seq,
    agent: t.agent,
    replicate: t.replicate,
    task: t.task,
    outcome: result.outcome,
    usage: result.usage ?? emptyUsage(),
  });
  return run.roleNames ? { ...record, roleNames: run.roleNames } : record;
}
