/**
 * Cue trials of a simulated shopper without the runner: each task × replicate is answered by the
 * shopper on the view the machine would show (re-asked up to twice after an off-format reply), and
 * reduced to the observation the estimators read. Fast enough for hundreds of replications.
 */
import { CueShopper, type CueShopperParams } from "../../../agents/sim/index.ts";
import type { CueObservation } from "../../../analysis/cue/index.ts";
import { DEFAULT_CUE_LIBRARY } from "../../../datasets/products/index.ts";
import { type CueTask, type CueView, shownCard } from "../../../environments/cue/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

export function simulateCue(
  params: CueShopperParams,
  tasks: readonly CueTask[],
  replicates: number,
  seed: string | number,
  agent = "sim",
): CueObservation[] {
  const shopper = new CueShopper(agent, params, DEFAULT_CUE_LIBRARY);
  const out: CueObservation[] = [];
  for (const task of tasks) {
    const view: CueView = {
      cards: [shownCard(task.options[0]), shownCard(task.options[1])],
      letters: ["A", "B"],
      category: task.category,
      item: task.item,
      attempt: 0,
    };
    for (let r = 0; r < replicates; r++) {
      const ctx = { rng: createRng(`${seed}/${task.taskId}/${r}`), trialKey: task.taskId, replicate: r };
      let slot: number | null = null;
      let reason: string | null = null;
      for (let attempt = 0; attempt <= 2 && slot === null; attempt++) {
        const { action } = shopper.act({ messages: [], view: { ...view, attempt } }, ctx);
        const text = action.type === "reply" ? action.text : action.option;
        if (text === "A" || text === "B") slot = text === "A" ? 0 : 1;
        else reason = "off-format";
      }
      out.push({
        agent,
        block: task.block,
        condition: task.condition,
        family: task.family,
        intensity: task.intensity,
        oneSided: task.oneSided,
        category: task.category,
        pairId: task.pairId,
        premium: task.premium,
        cueTarget: task.cueTarget,
        cuedFirst: task.cuedFirst,
        instruction: task.instruction,
        factors: task.factors,
        choseCued: slot === null ? null : (task.options[slot]?.cued ?? null),
        chosenSlot: slot,
        nonResponseReason: slot === null ? reason : null,
      });
    }
  }
  return out;
}
