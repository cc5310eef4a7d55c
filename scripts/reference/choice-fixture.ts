/**
 * Writes test/fixtures/choice/trials.json: a small catalog-choice run of simulated shoppers (the
 * sim presets' known parameters) that scripts/reference/choice_reference.py analyses with
 * statsmodels, numpy and scipy to give the reference values of the choice estimators.
 *
 *   npx tsx scripts/reference/choice-fixture.ts && /usr/bin/python3 scripts/reference/choice_reference.py
 */
import { writeFileSync } from "node:fs";
import { DEFAULT_HOTEL_POOL } from "../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../environments/choice/design.ts";
import { createRng } from "../../environments/kernel/rng.ts";
import { presetAgents, simulateTask } from "../../test/analysis/choice/simulate.ts";

const design = {
  seed: "choice-reference",
  pairs: 100,
  pairAppearances: 2,
  triples: 30,
  tripleAppearances: 3,
  fives: 20,
  fiveAppearances: 1,
};
const tasks = buildChoiceTasks(design, DEFAULT_HOTEL_POOL);
const agents = presetAgents("steep", "budget", "noisy", "locked");
const root = createRng("choice-reference-answers");
const rngs = agents.map((a) => root.fork(a.label));
const answers = Object.fromEntries(
  agents.map((a, i) => [a.label, tasks.map((t) => simulateTask(t, a.policy, rngs[i]!))]),
);
const compact = tasks.map((t) => ({
  taskId: t.taskId,
  cluster: t.setId,
  kind: t.kind,
  appearance: t.appearance,
  order: t.order,
  options: t.options,
}));
writeFileSync(
  "test/fixtures/choice/trials.json",
  `${JSON.stringify({ note: "npx tsx scripts/reference/choice-fixture.ts", design, tasks: compact, answers })}\n`,
);
console.log(`wrote ${tasks.length} tasks × ${agents.length} agents`);
