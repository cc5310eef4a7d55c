/**
 * `--workers n|auto` as the runner sees it: a `HostAgents` that moves a run's LLM turns into worker
 * threads (`workers.ts`). This file loads no LangChain: the workers, and LangChain with them, are
 * imported only when a run has turns to move, so a run of simulated agents never pays for them.
 */
import { availableParallelism } from "node:os";
import type { HostAgents } from "../../environments/kernel/types.ts";

/**
 * Workers pay when the LLM agents' own CPU limits the run (many calls in flight: a fast or local
 * server, or high concurrency), there are enough trials to repay starting them (~1 s of CPU each,
 * loading LangChain), and there are spare cores: a worker turn costs ~1 ms more CPU than one in the
 * main thread (messages, a second heap and JIT), so on 2 cores — where the model server, if local,
 * takes its share too — they measured no faster than one thread. One worker per core beyond the main
 * thread's, at most 4.
 */
export function autoWorkers(a: { cores: number; concurrency: number; trials: number }): number {
  if (a.cores < 4 || a.concurrency < 16 || a.trials < 500) return 0;
  return Math.min(4, a.cores - 1);
}

/** The host for `workers` threads (0: none, every turn in the runner's thread). */
export function llmWorkerHost(workers: number | "auto"): HostAgents | undefined {
  if (workers === 0) return undefined;
  return async (agents, run) => {
    const threads =
      workers === "auto"
        ? autoWorkers({ cores: availableParallelism(), concurrency: run.concurrency, trials: run.trials })
        : workers;
    if (threads < 1) return null;
    const { offloadLlmAgents } = await import("./workers.ts");
    const moved = offloadLlmAgents(agents, threads, run.signal);
    return (
      moved && {
        agents: moved.agents,
        failure: () => moved.session.failure(),
        close: () => moved.session.close(),
      }
    );
  };
}
