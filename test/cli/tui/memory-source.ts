/** A ReplaySource over records in memory, for testing the replay state and views without a store. */
import { adapterFor, episodeModel, type TrialRecord } from "../../../cli/tui/records/index.ts";
import type { PageResult, ReplayFilter, ReplaySource, RunHeader } from "../../../cli/tui/replay/source.ts";

export function memorySource(records: readonly TrialRecord[], run?: Partial<RunHeader>): ReplaySource {
  const env = String(records[0]?.env ?? "choice");
  const adapter = adapterFor(env);
  const matches = (r: TrialRecord, f: ReplayFilter) =>
    Object.entries(f).every(([k, v]) => {
      if (v === null) return true;
      if (k === "agent") return r.agent === v;
      if (k === "nonResponse") return adapter.summary(r).nonResponse === (v === "yes");
      const value = adapter.facets.find((x) => x.key === k)?.values.find((x) => x.value === v);
      if (value?.test) return value.test(r);
      if (k === "outcome" && env === "choice") return r.chosenSlot === "ABCDE".indexOf(v);
      return r[k] === v;
    });
  const sorted = [...records].sort((a, b) => Number(a.seq) - Number(b.seq));
  const page = (rows: TrialRecord[], limit: number, dir: "after" | "before", from: number): PageResult => {
    const picked = dir === "after" ? rows.slice(0, limit) : rows.slice(-limit);
    return {
      items: picked.map((r) => ({ seq: Number(r.seq), summary: adapter.summary(r) })),
      frontier: picked.length === 0 ? from : Number((dir === "after" ? picked.at(-1) : picked[0])!.seq),
      exhausted: rows.length <= limit,
    };
  };
  return {
    run: {
      id: "run-mem",
      env,
      total: records.length,
      done: records.length,
      agents: [...new Set(records.map((r) => String(r.agent)))],
      ...run,
    },
    facets: adapter.facets,
    after: (seq, limit, f) =>
      page(
        sorted.filter((r) => Number(r.seq) > seq && matches(r, f)),
        limit,
        "after",
        seq,
      ),
    before: (seq, limit, f) =>
      page(
        sorted.filter((r) => Number(r.seq) < seq && matches(r, f)),
        limit,
        "before",
        seq,
      ),
    count: (f) => sorted.filter((r) => matches(r, f)).length,
    episode: (seq) => {
      const record = sorted.find((r) => r.seq === seq);
      return record ? { record, model: episodeModel(record) } : null;
    },
    stats: (record) => {
      const s = adapter.stats.init();
      for (const r of sorted)
        if (Number(r.seq) <= Number(record.seq) && r.agent === record.agent) adapter.stats.add(s, r);
      return adapter.stats.view(s, record);
    },
    indexStep: () => 1,
    indexed: () => true,
  };
}
