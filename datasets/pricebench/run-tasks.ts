/**
 * The release's tasks as a bazaar run's tasks, so a new model answers exactly what the 28 released
 * models answered: every binary, ternary and five-option task in its original order and in the
 * reversed order of the swap run, with the release's task ids (swap ids +10000, five-option ids
 * `5opt-…`), option sets and appearances — the same tasks, ids and clusters an import of the
 * release's responses has, so a run on them joins the imported runs in one analysis.
 */
import type { ChoiceTask, PromptVariant, TaskKind } from "../../environments/choice/types.ts";
import { sha256Hex } from "../../environments/kernel/hash.ts";
import { readReleaseTasks } from "./release.ts";
import { displayedTask } from "./runs.ts";

export interface ReleaseRunTasks {
  dir: string;
  /** Original order first (binary, ternary), then swapped; then the five-option block likewise. */
  tasks: ChoiceTask[];
  /** The task-side files and a digest of each: what the run's identity records. */
  files: { file: string; sha256: string }[];
  counts: Record<TaskKind, number>;
}

export function releaseRunTasks(dir: string, variant: PromptVariant = "plain"): ReleaseRunTasks {
  const release = readReleaseTasks(dir);
  const tasks: ChoiceTask[] = [];
  const blocks = [
    { block: "main" as const, list: release.tasks },
    { block: "five" as const, list: release.fiveTasks ?? [] },
  ];
  for (const { block, list } of blocks)
    for (const swap of [false, true])
      for (const t of list) tasks.push({ ...displayedTask(t, swap, block), variant });
  const counts: Record<TaskKind, number> = { binary: 0, ternary: 0, five: 0 };
  for (const t of tasks) counts[t.kind]++;
  return {
    dir,
    tasks,
    files: release.inputs.map((i) => ({ file: i.name, sha256: sha256Hex(i.text).slice(0, 16) })),
    counts,
  };
}
