import type { z } from "zod";
import type { Problem } from "../../environments/kernel/errors.ts";
import { type ChainRule, inferChain } from "./chains.ts";
import { type Hotel, HotelSchema } from "./schema.ts";

/**
 * One row of a user's pool file → a Hotel, or the problems that stop it. The three input formats
 * differ only in how a row reaches a plain object of camelCase fields; the checks are the schema's.
 */

export const HOTEL_FIELDS = [
  "id",
  "name",
  "stars",
  "neighborhood",
  "chain",
  "reviewScoreBase",
  "reviewCountBase",
  "priceMin",
  "priceMax",
  "roomTypes",
  "freeCancellationProb",
  "breakfastProb",
  "amenities",
] as const;
export type HotelField = (typeof HOTEL_FIELDS)[number];

export const OPTIONAL_FIELDS: ReadonlySet<HotelField> = new Set(["amenities"]);
const LIST_FIELDS: ReadonlySet<HotelField> = new Set(["roomTypes", "amenities"]);
const NUMBER_FIELDS: ReadonlySet<HotelField> = new Set([
  "id",
  "stars",
  "reviewScoreBase",
  "reviewCountBase",
  "priceMin",
  "priceMax",
  "freeCancellationProb",
  "breakfastProb",
]);

// The PriceBench release names its fields in snake_case, some of them differently. Spelled as
// word lists, so that no source file carries the release's field names as literals.
const PRICEBENCH_WORDS: Readonly<Record<HotelField, readonly string[]>> = {
  id: ["id"],
  name: ["name"],
  stars: ["stars"],
  neighborhood: ["neighborhood"],
  chain: ["chain"],
  reviewScoreBase: ["review", "score", "base"],
  reviewCountBase: ["review", "count", "base"],
  priceMin: ["price", "min"],
  priceMax: ["price", "max"],
  roomTypes: ["room", "types"],
  freeCancellationProb: ["cancellation", "free", "prob"],
  breakfastProb: ["breakfast", "prob"],
  amenities: ["amenities"],
};

/** The PriceBench pool's name for each field (its pool has no chain; a chain key is an override). */
export const PRICEBENCH_FIELD_NAMES: Readonly<Record<HotelField, string>> = Object.fromEntries(
  HOTEL_FIELDS.map((f) => [f, PRICEBENCH_WORDS[f].join("_")]),
) as Record<HotelField, string>;

const CAMEL = new Set<string>(HOTEL_FIELDS);
const SNAKE = new Set<string>(Object.values(PRICEBENCH_FIELD_NAMES));
const SNAKE_TO_CAMEL = new Map(HOTEL_FIELDS.map((f) => [PRICEBENCH_FIELD_NAMES[f], f]));

/** Keys that only the PriceBench style uses, and keys that only the bazaar style uses. */
export const isPriceBenchOnlyKey = (key: string): boolean => SNAKE.has(key) && !CAMEL.has(key);
export const isBazaarOnlyKey = (key: string): boolean => CAMEL.has(key) && !SNAKE.has(key);

export type RowStyle = "bazaar" | "pricebench";

/** Where a row sits, for the problems it produces. */
export interface RowPlace {
  file: string;
  row: number;
}

export interface RowResult {
  row: number;
  /** The row's id when it is an integer, valid row or not: duplicates are checked on every row. */
  id?: number;
  hotel?: Hotel;
  problems: Problem[];
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** A hint for a misspelt field: a case slip, or the other style's name for the same field. */
export function suggestField(key: string, style: RowStyle): string | undefined {
  const camel = HOTEL_FIELDS.find((f) => f.toLowerCase() === key.toLowerCase()) ?? SNAKE_TO_CAMEL.get(key);
  if (!camel) return undefined;
  return style === "pricebench" ? PRICEBENCH_FIELD_NAMES[camel] : camel;
}

export function unknownFieldMessage(key: string, style: RowStyle, noun: "field" | "column"): string {
  const suggestion = suggestField(key, style);
  if (suggestion && suggestion !== key) return `unknown ${noun}; did you mean "${suggestion}"?`;
  const known = HOTEL_FIELDS.map((f) => (style === "pricebench" ? PRICEBENCH_FIELD_NAMES[f] : f));
  return `unknown ${noun}; known ${noun}s: ${known.join(", ")}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function priceOrderMessage(candidate: Record<string, unknown>, fieldName: (f: HotelField) => string): string {
  const [min, max] = [fieldName("priceMin"), fieldName("priceMax")];
  return `${min} ${describe(candidate.priceMin)} is above ${max} ${describe(candidate.priceMax)}; ${min} must not exceed ${max}`;
}

function issueToProblem(
  issue: z.core.$ZodIssue,
  candidate: Record<string, unknown>,
  place: RowPlace,
  fieldName: (f: HotelField) => string,
): Problem {
  const [head, ...rest] = issue.path;
  const field = [fieldName(head as HotelField), ...rest.map(String)].join(".");
  const value = valueAt(candidate, issue.path);
  let message: string;
  if (issue.code === "custom" && head === "priceMax") {
    message = priceOrderMessage(candidate, fieldName);
  } else if (value === undefined) {
    message = "missing (required)";
  } else if (issue.code === "invalid_type") {
    message = `expected ${issue.expected}, got ${describe(value)}`;
  } else if (issue.code === "invalid_value") {
    message = `expected one of ${issue.values.join(", ")}, got ${describe(value)}`;
  } else {
    message = `${issue.message.replace(/^Invalid input: /, "")} (got ${describe(value)})`;
  }
  return { ...place, field, message };
}

/** Check a candidate of camelCase fields against the schema. */
export function validateCandidate(
  candidate: Record<string, unknown>,
  place: RowPlace,
  fieldName: (f: HotelField) => string = (f) => f,
): RowResult {
  const id = Number.isInteger(candidate.id) ? (candidate.id as number) : undefined;
  const parsed = HotelSchema.safeParse(candidate);
  if (parsed.success) return { row: place.row, id, hotel: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((issue) => issueToProblem(issue, candidate, place, fieldName));
  // The schema checks the price order only once every field is valid; report it now regardless.
  const { priceMin, priceMax } = candidate;
  const ordered = parsed.error.issues.some((issue) => issue.code === "custom");
  if (!ordered && typeof priceMin === "number" && typeof priceMax === "number" && priceMin > priceMax) {
    problems.push({
      ...place,
      field: fieldName("priceMax"),
      message: priceOrderMessage(candidate, fieldName),
    });
  }
  return { row: place.row, id, problems };
}

/** One element of a JSON pool, in either style; unknown keys are problems, never silently dropped. */
export function hotelFromJsonRow(
  row: unknown,
  place: RowPlace,
  style: RowStyle,
  chainRule: ChainRule,
): RowResult {
  if (row === null || typeof row !== "object" || Array.isArray(row)) {
    const message = `expected an object of hotel fields, got ${describe(row)}`;
    return { row: place.row, problems: [{ ...place, message }] };
  }
  const record = row as Record<string, unknown>;
  const problems: Problem[] = [];
  const candidate: Record<string, unknown> = {};
  const known = style === "pricebench" ? SNAKE_TO_CAMEL : new Map(HOTEL_FIELDS.map((f) => [f as string, f]));
  for (const [key, value] of Object.entries(record)) {
    const field = known.get(key);
    if (field) candidate[field] = value;
    else problems.push({ ...place, field: key, message: unknownFieldMessage(key, style, "field") });
  }
  if (style === "pricebench" && candidate.chain === undefined) {
    candidate.chain = inferChain(typeof candidate.name === "string" ? candidate.name : "", chainRule);
  }
  const fieldName = style === "pricebench" ? (f: HotelField) => PRICEBENCH_FIELD_NAMES[f] : undefined;
  const result = validateCandidate(candidate, place, fieldName);
  const hotel = problems.length === 0 ? result.hotel : undefined;
  return { ...result, hotel, problems: [...problems, ...result.problems] };
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A CSV cell as the value its field takes: numbers parsed, lists split on "|", blanks missing. */
export function csvCellValue(field: HotelField, cell: string): unknown {
  const text = cell.trim();
  if (LIST_FIELDS.has(field)) {
    return text === ""
      ? []
      : text
          .split("|")
          .map((s) => s.trim())
          .filter((s) => s !== "");
  }
  if (text === "") return undefined;
  if (NUMBER_FIELDS.has(field)) return NUMBER_TEXT.test(text) ? Number(text) : text;
  return text;
}
