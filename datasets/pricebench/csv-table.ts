/** A CSV file read into named columns, with every problem located by file, row and field. */
import type { Problem } from "../../environments/kernel/errors.ts";
import { CsvSyntaxError, isBlankRecord, parseCsv } from "../hotels/csv.ts";

export interface CsvTable {
  file: string;
  /** The header's column names. */
  columns: ReadonlySet<string>;
  /** Data rows (header excluded, blank lines skipped), each with its 1-based data-row number. */
  rows: { row: number; line: number; get(column: string): string }[];
}

/**
 * Parses `text` and checks that every `required` column is in the header. Rows whose field count
 * differs from the header's are problems too. Returns null (with problems pushed) when the file
 * cannot be read as a table at all.
 */
export function readCsvTable(
  text: string,
  file: string,
  required: readonly string[],
  problems: Problem[],
): CsvTable | null {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    problems.push({ file, message: `not valid CSV: ${error.message}` });
    return null;
  }
  const [header, ...data] = records;
  if (!header || isBlankRecord(header)) {
    problems.push({ file, message: "the file is empty (no header row)" });
    return null;
  }
  const columns = header.fields.map((c) => c.trim());
  const index = new Map(columns.map((c, i) => [c, i]));
  const missing = required.filter((c) => !index.has(c));
  for (const field of missing) problems.push({ file, field, message: "missing column (required)" });
  if (missing.length > 0) return null;
  const rows: CsvTable["rows"] = [];
  let row = 0;
  for (const record of data) {
    if (isBlankRecord(record)) continue;
    row++;
    if (record.fields.length !== columns.length) {
      problems.push({
        file,
        row,
        message: `has ${record.fields.length} fields but the header has ${columns.length} (line ${record.line})`,
      });
      continue;
    }
    const fields = record.fields;
    rows.push({ row, line: record.line, get: (c) => (fields[index.get(c) ?? -1] ?? "").trim() });
  }
  return { file, columns: new Set(columns), rows };
}

/** A whole number from a cell, or a problem. */
export function intCell(
  value: string,
  where: { file: string; row: number; field: string },
  problems: Problem[],
): number | null {
  if (!/^-?\d+(\.0+)?$/.test(value)) {
    problems.push({ ...where, message: `expected a whole number, got ${JSON.stringify(value)}` });
    return null;
  }
  return Number.parseInt(value, 10);
}

/** A finite number from a cell, or a problem. */
export function numberCell(
  value: string,
  where: { file: string; row: number; field: string },
  problems: Problem[],
): number | null {
  const n = value === "" ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) {
    problems.push({ ...where, message: `expected a number, got ${JSON.stringify(value)}` });
    return null;
  }
  return n;
}
