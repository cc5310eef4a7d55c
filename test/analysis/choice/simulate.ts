/**
 * Seeded catalog-choice trials from the simulated shoppers' known parameters, without the runner:
 * the same tasks `bazaar run choice` builds and the same choice probabilities the sim agents use.
 */

import {
  CHOICE_PRESETS,
  type LogitChooserParams,
  logitChoiceProbabilities,
} from "../../../agents/sim/index.ts";
import type { ChoiceTrial } from "../../../analysis/choice/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks, type ChoiceDesignInput } from "../../../environments/choice/design.ts";
import type { ChoiceTask } from "../../../environments/choice/types.ts";
import { createRng, type Rng } from "../../../environments/kernel/rng.ts";

export type SimPolicy =
  | { kind: "logit"; params: LogitChooserParams }
  | { kind: "locked"; slot: number; rate: number };

export function presetPolicy(name: string): SimPolicy {
  const preset = CHOICE_PRESETS[name];
  if (!preset) throw new Error(`no sim preset ${name}`);
  if (preset.params) return { kind: "logit", params: preset.params };
  return name === "locked-last"
    ? { kind: "locked", slot: 25, rate: 0.95 }
    : { kind: "locked", slot: 0, rate: 0.97 };
}

function draw(rng: Rng, probs: readonly number[]): number {
  let u = rng.next();
  for (let s = 0; s < probs.length; s++) {
    u -= probs[s] as number;
    if (u < 0) return s;
  }
  return probs.length - 1;
}

export function simulateTask(task: ChoiceTask, policy: SimPolicy, rng: Rng): number | null {
  if (policy.kind === "locked") {
    const slot = Math.min(policy.slot, task.options.length - 1);
    return rng.bernoulli(policy.rate) ? slot : rng.int(task.options.length);
  }
  if (policy.params.offFormatRate > 0 && rng.bernoulli(policy.params.offFormatRate)) return null;
  return draw(rng, logitChoiceProbabilities(task.options, policy.params));
}

export function trialOf(agent: string, task: ChoiceTask, chosenSlot: number | null): ChoiceTrial {
  return {
    agent,
    taskId: task.taskId,
    cluster: task.setId,
    kind: task.kind,
    appearance: task.appearance,
    order: task.order,
    options: task.options,
    chosenSlot,
  };
}

/** Tasks are shared by every agent (as in one run); each agent draws from its own seeded stream. */
export function simulateChoiceTrials(
  agents: readonly { label: string; policy: SimPolicy }[],
  design: ChoiceDesignInput,
  seed: string | number,
): ChoiceTrial[] {
  const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);
  const root = createRng(seed);
  const rngs = agents.map((a) => root.fork(a.label));
  const out: ChoiceTrial[] = [];
  for (const task of tasks) {
    agents.forEach((a, i) => {
      out.push(trialOf(a.label, task, simulateTask(task, a.policy, rngs[i]!)));
    });
  }
  return out;
}

export function presetAgents(...names: string[]): { label: string; policy: SimPolicy }[] {
  return names.map((n) => ({ label: `sim:${n}`, policy: presetPolicy(n) }));
}
