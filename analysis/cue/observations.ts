/**
 * Trial records (the cue export contract) reduced to what the estimators read. A record that does
 * not follow the contract is an error naming the trial and the field, never a silent drop.
 */
import { z } from "zod";
import type { CueObservation } from "./types.ts";

const RecordSchema = z.object({
  trialKey: z.string(),
  agent: z.string(),
  block: z.string(),
  condition: z.string(),
  family: z.string(),
  intensity: z.string().nullable(),
  oneSided: z.boolean(),
  category: z.string(),
  pairId: z.string(),
  premium: z.number().nonnegative(),
  cueTarget: z.enum(["A", "B"]),
  cuedFirst: z.boolean(),
  instruction: z.number().int().nonnegative(),
  factors: z.record(z.string(), z.boolean()).nullable(),
  choseCued: z.boolean().nullable(),
  chosenSlot: z.number().int().min(0).max(1).nullable(),
  nonResponse: z.object({ reason: z.string() }).nullable(),
});

export function cueObservations(records: Iterable<Record<string, unknown>>): CueObservation[] {
  const out: CueObservation[] = [];
  let i = 0;
  for (const record of records) {
    const r = RecordSchema.safeParse(record);
    if (!r.success) {
      const issue = r.error.issues[0];
      const key = typeof record.trialKey === "string" ? record.trialKey : `#${i}`;
      throw new RangeError(
        `cue trial ${key}: ${issue?.path.join(".") || "record"} ${issue?.message ?? "is invalid"} — not a cue trial record`,
      );
    }
    const d = r.data;
    out.push({
      agent: d.agent,
      block: d.block,
      condition: d.condition,
      family: d.family,
      intensity: d.intensity,
      oneSided: d.oneSided,
      category: d.category,
      pairId: d.pairId,
      premium: d.premium,
      cueTarget: d.cueTarget,
      cuedFirst: d.cuedFirst,
      instruction: d.instruction,
      factors: d.factors,
      choseCued: d.choseCued,
      chosenSlot: d.chosenSlot,
      nonResponseReason: d.nonResponse?.reason ?? null,
    });
    i++;
  }
  return out;
}
