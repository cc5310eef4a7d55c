/**
 * Simulated audits with known truth: every query of the default design answered `completions` times
 * by a simulated respondent (the same answer distribution the agent draws from, without the text
 * round trip), grouped exactly as `collectAgents` groups exported records.
 */
import { expectedAnswer, type RespondentParams } from "../../../agents/sim/respondent.ts";
import type { AgentData, GroupData, QueryData } from "../../../analysis/consistency/index.ts";
import {
  buildElicitTasks,
  type ElicitDesignInput,
  type ElicitTask,
  viewOf,
} from "../../../environments/elicit/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const taskCache = new Map<string, ElicitTask[]>();

function tasksFor(design: ElicitDesignInput): ElicitTask[] {
  const key = JSON.stringify(design);
  let tasks = taskCache.get(key);
  if (!tasks) {
    tasks = buildElicitTasks(design);
    taskCache.set(key, tasks);
  }
  return tasks;
}

export function simulateAgent(
  params: RespondentParams,
  seed: string | number,
  completions = 15,
  design: ElicitDesignInput = { seed: 1 },
): AgentData {
  const rng = createRng(`simulate/${seed}`);
  const groups = new Map<string, GroupData>();
  for (const task of tasksFor(design)) {
    let g = groups.get(task.group);
    if (!g) {
      g = {
        group: task.group,
        domain: task.domain,
        utterance: task.utterance.id,
        itemSet: task.itemSet,
        collection: task.collection,
        queries: [],
      };
      groups.set(task.group, g);
    }
    const { mean, sd } = expectedAnswer(viewOf(task), params);
    const values: number[] = [];
    let nonFinite = 0;
    for (let c = 0; c < completions; c++) {
      if (params.nonFiniteRate > 0 && rng.next() < params.nonFiniteRate) nonFinite++;
      else values.push(Math.round(mean + sd * rng.normal()));
    }
    const q: QueryData =
      task.queryType === "item"
        ? { queryId: task.queryId, queryType: "item", item: task.item.id, uses: [], values, nonFinite }
        : {
            queryId: task.queryId,
            queryType: "offer-pair",
            source: { item: task.source.item.id, price: task.source.price },
            target: { item: task.target.item.id, price: task.target.price },
            uses: task.uses,
            values,
            nonFinite,
          };
    g.queries.push(q);
  }
  return { agent: `sim/${seed}`, groups: [...groups.values()], nonFiniteReasons: {} };
}
