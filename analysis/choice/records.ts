/** Trial export records (the JSONL contract) → the estimators' input. */
import { type ChoiceOption, TASK_KINDS, type TaskKind } from "../../environments/choice/types.ts";
import type { ChoiceTrial } from "./types.ts";

function fail(i: number, field: string, why: string): never {
  throw new RangeError(`choice trial record ${i}: ${field} ${why}`);
}

/**
 * Picks the estimators' fields out of catalog-choice trial records, checking their shape (a
 * record from another environment, or a hand-edited export, fails here with its index and field).
 */
export function choiceTrialsFromRecords(records: Iterable<Record<string, unknown>>): ChoiceTrial[] {
  const out: ChoiceTrial[] = [];
  let i = 0;
  for (const r of records) {
    if (r.env !== "choice") fail(i, "env", `is ${JSON.stringify(r.env)}, not "choice"`);
    const options = r.options as ChoiceOption[];
    if (!Array.isArray(options) || options.length < 2) fail(i, "options", "must list at least 2 options");
    for (const o of options) {
      if (typeof o?.price !== "number" || !(o.price > 0))
        fail(i, "options[].price", "must be a positive number");
    }
    const order = r.order as number[];
    if (!Array.isArray(order) || order.length !== options.length)
      fail(i, "order", "must give one canonical index per option");
    const kind = r.kind as TaskKind;
    if (!TASK_KINDS.includes(kind)) fail(i, "kind", `is ${JSON.stringify(r.kind)}`);
    const chosen = r.chosenSlot;
    if (
      chosen !== null &&
      !(Number.isInteger(chosen) && (chosen as number) >= 0 && (chosen as number) < options.length)
    )
      fail(i, "chosenSlot", `is ${JSON.stringify(chosen)}, not a display slot or null`);
    out.push({
      agent: String(r.agent),
      taskId: String(r.taskId),
      cluster: String(r.cluster),
      kind,
      appearance: Number(r.appearance ?? 0),
      order,
      options,
      chosenSlot: chosen as number | null,
    });
    i++;
  }
  return out;
}
