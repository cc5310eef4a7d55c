/**
 * How the option cards and instructions are worded; the neutral `plain` is the default. Plain data,
 * apart from the schemas in types.ts, so that `run choice --help` can list them without loading zod.
 */
export const PROMPT_VARIANTS = ["plain", "json", "price-first", "value-persona", "cot"] as const;
