/**
 * Reading product pairs and cue libraries from JSON files: zod validates every entry, then the
 * structural checker runs; all problems of a file are reported together (file, entry, field).
 */
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import { checkLibrary, checkPairs } from "./check.ts";
import { type CueCondition, CueEntrySchema, type ProductPair, ProductPairSchema } from "./schema.ts";

const PAIRS_HINT =
  'A pairs file is JSON: an array of pairs (or {"pairs": [...]}), each {pairId, category, item, label, ' +
  "products: [two products with name, price, rating, ratingCount, specs, description]}. " +
  "See datasets/products/README.md.";
const CUES_HINT =
  'A cue file is JSON: an array of cues (or {"cues": [...]}), each {name, family, cue, and optionally ' +
  "intensity, version, role, other, note}. See datasets/products/README.md.";

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${what} ${path} does not exist`, "check the path");
    if (code === "EISDIR") throw new UserError(`${what} ${path} is a directory, not a file`);
    throw new UserError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

/** The entries of a JSON document that is an array or an object holding the array under `key`. */
function entriesOf(text: string, file: string, key: string, hint: string): unknown[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fail = (message: string): never => {
    throw new InvalidFileError(file, [{ file, message }], hint);
  };
  if (body.trim() === "") fail("the file is empty");
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (error) {
    fail(`not valid JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(doc)) return doc;
  if (doc !== null && typeof doc === "object" && Array.isArray((doc as Record<string, unknown>)[key])) {
    return (doc as Record<string, unknown[]>)[key] as unknown[];
  }
  return fail(`expected a JSON array or an object with a "${key}" array`);
}

function parseEntries<T>(
  entries: unknown[],
  schema: z.ZodType<T>,
  file: string,
): { ok: T[]; problems: Problem[] } {
  const ok: T[] = [];
  const problems: Problem[] = [];
  entries.forEach((entry, row) => {
    const r = schema.safeParse(entry);
    if (r.success) ok.push(r.data);
    else {
      for (const issue of r.error.issues) {
        problems.push({ file, row, field: issue.path.join(".") || undefined, message: issue.message });
      }
    }
  });
  return { ok, problems };
}

/** Product pairs from a JSON text; `file` names it in messages. Throws InvalidFileError. */
export function parseProductPairs(text: string, file: string): ProductPair[] {
  const entries = entriesOf(text, file, "pairs", PAIRS_HINT);
  const { ok, problems } = parseEntries(entries, ProductPairSchema, file);
  if (problems.length > 0) throw new InvalidFileError(file, problems, PAIRS_HINT);
  const structural = checkPairs(ok, file);
  if (structural.length > 0) throw new InvalidFileError(file, structural, PAIRS_HINT);
  return ok;
}

/** A cue library from a JSON text; `file` names it in messages. Throws InvalidFileError. */
export function parseCueLibrary(text: string, file: string): CueCondition[] {
  const entries = entriesOf(text, file, "cues", CUES_HINT);
  const { ok, problems } = parseEntries(entries, CueEntrySchema, file);
  if (problems.length > 0) throw new InvalidFileError(file, problems, CUES_HINT);
  if (ok.length === 0)
    throw new InvalidFileError(file, [{ file, message: "the library has no cues" }], CUES_HINT);
  const structural = checkLibrary(ok, file);
  if (structural.length > 0) throw new InvalidFileError(file, structural, CUES_HINT);
  return ok;
}

export function loadProductPairs(path: string): ProductPair[] {
  return parseProductPairs(readText(path, "pairs file"), path);
}

export function loadCueLibrary(path: string): CueCondition[] {
  return parseCueLibrary(readText(path, "cue file"), path);
}
