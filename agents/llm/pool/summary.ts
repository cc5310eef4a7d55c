/**
 * The run summary's lines for endpoint pools: one per replica, for the pools the run's agents use
 * (counts of this process: requests sent, failures, times taken out).
 */
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { LlmAgent } from "../agent.ts";
import { poolStats } from "../gate.ts";

export function poolSummaryLines(entries: readonly AgentEntry[]): string[] {
  const used = new Set<string>();
  for (const e of entries)
    for (const p of Object.values(e.players))
      if (p instanceof LlmAgent && p.settings.replicas) used.add(p.settings.model);
  const n = (x: number) => x.toLocaleString("en-US");
  const lines: string[] = [];
  for (const pool of poolStats()) {
    if (!used.has(pool.model) || pool.replicas.length < 2) continue;
    for (const r of pool.replicas)
      lines.push(
        `replica ${r.url} (${pool.model}): ${n(r.requests)} requests, ${n(r.failures)} failed, taken out ${n(r.takenOut)} time${r.takenOut === 1 ? "" : "s"}${r.out ? " (out now)" : ""}`,
      );
  }
  return lines;
}
