import { z } from "zod";
import { UserError } from "../environments/kernel/errors.ts";

/**
 * Parses CLI option values with zod, turning a failure into a one-line UserError naming the
 * option, what it got and what it takes.
 */
export function parseOption<T>(name: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new UserError(`--${name}: ${issue?.message ?? "invalid value"} (got ${JSON.stringify(value)})`);
}

export const positiveInt = z.coerce
  .number({ error: "expected a number" })
  .int("expected a whole number")
  .positive("expected a number ≥ 1");
export const nonNegativeInt = z.coerce
  .number({ error: "expected a number" })
  .int("expected a whole number")
  .nonnegative("expected a number ≥ 0");

export function choiceOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: () => `expected one of ${values.join(", ")}` });
}
