import { readFileSync } from "node:fs";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import type { ChainRule } from "./chains.ts";
import { CsvSyntaxError, isBlankRecord, parseCsv } from "./csv.ts";
import {
  csvCellValue,
  HOTEL_FIELDS,
  type HotelField,
  hotelFromJsonRow,
  isBazaarOnlyKey,
  isPriceBenchOnlyKey,
  OPTIONAL_FIELDS,
  type RowResult,
  type RowStyle,
  unknownFieldMessage,
  validateCandidate,
} from "./rows.ts";
import type { Hotel } from "./schema.ts";

export interface LoadHotelPoolOptions {
  /**
   * How a PriceBench-format file's chains are inferred from names. Default `pricebench`: the
   * reference's own classification, so its brand analysis reproduces. Other formats state the chain.
   */
  chainRule?: ChainRule;
}

const FORMATS_HINT =
  'A hotel pool is a JSON array of hotels (or {"hotels": [...]}) with camelCase fields, the PriceBench ' +
  "hotel pool JSON, or CSV with a header row of camelCase names (roomTypes and amenities separated by |). " +
  "See datasets/hotels/README.md.";

/**
 * Read a user's hotel pool. Every problem of the file is reported at once, with its row and field,
 * in one InvalidFileError; a pool is returned only when the whole file is valid.
 */
export function loadHotelPool(path: string, options: LoadHotelPoolOptions = {}): Hotel[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`hotel pool ${path} does not exist`, "Check the path.");
    if (code === "EISDIR") throw new UserError(`hotel pool ${path} is a directory, not a file`);
    throw new UserError(`cannot read hotel pool ${path}: ${(error as Error).message}`);
  }
  return parseHotelPool(text, path, options);
}

/** Parse a hotel pool held in memory; `fileName` names it in error messages. */
export function parseHotelPool(text: string, fileName: string, options: LoadHotelPoolOptions = {}): Hotel[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fail = (problems: Problem[]): never => {
    throw new InvalidFileError(fileName, problems, FORMATS_HINT);
  };
  if (body.trim() === "") fail([{ file: fileName, message: "the file is empty" }]);
  if (body.includes("\u0000")) fail([{ file: fileName, message: "a binary file, not JSON or CSV text" }]);

  const first = body.trimStart()[0];
  const firstLine = body.split(/\r?\n/, 1)[0] ?? "";
  let results: RowResult[];
  let problems: Problem[];
  if (first === "[" || first === "{") {
    ({ results, problems } = readJson(body, fileName, options.chainRule ?? "pricebench"));
  } else if (firstLine.includes(",")) {
    ({ results, problems } = readCsv(body, fileName));
  } else {
    return fail([
      {
        file: fileName,
        message: "neither JSON (it does not start with [ or {) nor CSV (its first line has no commas)",
      },
    ]);
  }

  const all = [...problems, ...results.flatMap((r) => r.problems), ...duplicateIds(results, fileName)];
  if (problems.length === 0 && results.length === 0)
    all.push({ file: fileName, message: "the pool has no hotels" });
  // File-wide problems first, then row by row (a stable sort keeps each row's field order).
  all.sort((a, b) => (a.row ?? -1) - (b.row ?? -1));
  if (all.length > 0) fail(all);
  return results.map((r) => r.hotel!);
}

interface Read {
  results: RowResult[];
  /** Problems of the file as a whole (syntax, shape, header). */
  problems: Problem[];
}

function jsonSyntaxProblem(body: string, fileName: string, error: Error): Problem {
  const at = /position (\d+)/.exec(error.message);
  let where = "";
  if (at) {
    const before = body.slice(0, Number(at[1]));
    const line = before.split("\n").length;
    where = ` (line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
  }
  return { file: fileName, message: `not valid JSON: ${error.message}${where}` };
}

/** bazaar style unless more rows use PriceBench-only keys than bazaar-only keys. */
function styleOf(rows: readonly unknown[]): RowStyle {
  let pricebench = 0;
  let bazaar = 0;
  for (const row of rows) {
    if (row === null || typeof row !== "object") continue;
    const keys = Object.keys(row);
    if (keys.some(isPriceBenchOnlyKey)) pricebench++;
    if (keys.some(isBazaarOnlyKey)) bazaar++;
  }
  return pricebench > bazaar ? "pricebench" : "bazaar";
}

function readJson(body: string, fileName: string, chainRule: ChainRule): Read {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    return { results: [], problems: [jsonSyntaxProblem(body, fileName, error as Error)] };
  }
  let rows: unknown;
  if (Array.isArray(data)) rows = data;
  else if (data !== null && typeof data === "object" && "hotels" in data) rows = data.hotels;
  else {
    const message = 'expected an array of hotels or an object with a "hotels" array';
    return { results: [], problems: [{ file: fileName, message }] };
  }
  if (!Array.isArray(rows)) {
    return {
      results: [],
      problems: [{ file: fileName, field: "hotels", message: "expected an array of hotels" }],
    };
  }
  const style = styleOf(rows);
  const results = rows.map((row, index) =>
    hotelFromJsonRow(row, { file: fileName, row: index }, style, chainRule),
  );
  return { results, problems: [] };
}

function readCsv(body: string, fileName: string): Read {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(body);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { results: [], problems: [{ file: fileName, message: `not valid CSV: ${error.message}` }] };
  }
  const [header, ...data] = records;
  const columns = header!.fields.map((c) => c.trim());
  const problems: Problem[] = [];
  const columnOf = new Map<HotelField, number>();
  columns.forEach((column, index) => {
    const field = HOTEL_FIELDS.find((f) => f === column);
    if (!field)
      problems.push({
        file: fileName,
        field: column,
        message: unknownFieldMessage(column, "bazaar", "column"),
      });
    else if (columnOf.has(field))
      problems.push({ file: fileName, field: column, message: "column appears twice" });
    else columnOf.set(field, index);
  });
  const absent = HOTEL_FIELDS.filter((f) => !columnOf.has(f) && !OPTIONAL_FIELDS.has(f));
  for (const field of absent) problems.push({ file: fileName, field, message: "missing column (required)" });

  const results: RowResult[] = [];
  data.forEach((record, index) => {
    if (isBlankRecord(record)) return;
    const place = { file: fileName, row: index + 1 };
    if (record.fields.length !== columns.length) {
      const message = `has ${record.fields.length} fields but the header has ${columns.length} (line ${record.line})`;
      results.push({ row: place.row, problems: [{ ...place, message }] });
      return;
    }
    const candidate: Record<string, unknown> = {};
    for (const [field, index] of columnOf) candidate[field] = csvCellValue(field, record.fields[index]!);
    const result = validateCandidate(candidate, place);
    // A missing column is reported once above, not again on every row.
    result.problems = result.problems.filter((p) => !absent.some((f) => p.field === f));
    results.push(result);
  });
  return { results, problems };
}

function duplicateIds(results: readonly RowResult[], fileName: string): Problem[] {
  const firstRow = new Map<number, number>();
  const problems: Problem[] = [];
  for (const { id, row } of results) {
    if (id === undefined) continue;
    const seen = firstRow.get(id);
    if (seen === undefined) firstRow.set(id, row);
    else
      problems.push({
        file: fileName,
        row,
        field: "id",
        message: `duplicate id ${id} (first at row ${seen})`,
      });
  }
  return problems;
}
