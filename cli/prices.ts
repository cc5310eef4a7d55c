import { readFileSync } from "node:fs";
import { z } from "zod";
import { InvalidFileError, UserError } from "../environments/kernel/errors.ts";
import type { Usage } from "../environments/kernel/types.ts";

/** Dollars per million tokens, per model (`gpt-4o-mini`) or agent label (`openai:gpt-4o-mini`). */
const PriceTableSchema = z.record(
  z.string(),
  z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() }).strict(),
);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export function loadPriceTable(file: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(
      `cannot read the price table ${file}: ${(err as Error).message}`,
      'write JSON like {"gpt-4o-mini": {"inputPerMTok": 0.15, "outputPerMTok": 0.6}}',
    );
  }
  const r = PriceTableSchema.safeParse(raw);
  if (!r.success) {
    throw new InvalidFileError(
      file,
      r.error.issues.map((i) => ({ file, field: i.path.join("."), message: i.message })),
      'each entry is {"inputPerMTok": number, "outputPerMTok": number}',
    );
  }
  return r.data;
}

/**
 * Dollar cost of an agent's usage, or null when the table has no price for it. Reasoning tokens are
 * billed as output tokens and are already inside the output count the API reports.
 */
export function costOf(agent: string, usage: Usage, prices: PriceTable): number | null {
  const model = agent.includes(":") ? agent.slice(agent.lastIndexOf(":") + 1) : agent;
  const p = prices[agent] ?? prices[model];
  if (!p) return null;
  return (usage.inputTokens * p.inputPerMTok + usage.outputTokens * p.outputPerMTok) / 1e6;
}
