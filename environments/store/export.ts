import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";

/**
 * Trial exports that pandas and R read as they are. JSONL is the record itself, one per line. CSV
 * flattens it: nested objects become `parent_field` columns, arrays of objects (the options in
 * display order) become `options1_price`, `options2_price`, …, arrays of plain values are JSON text,
 * and null is an empty cell.
 */
export type ExportFormat = "jsonl" | "csv";

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value === null || value === undefined) {
    out.set(prefix, null);
  } else if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) {
      for (const [i, v] of value.entries()) flatten(v, `${prefix}${i + 1}`, out);
    } else {
      out.set(prefix, JSON.stringify(value));
    }
  } else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      flatten(v, prefix ? `${prefix}_${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
}

export function flattenRecord(record: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  flatten(record, "", out);
  return out;
}

/** RFC 4180: quote a cell holding a comma, quote, line break or edge spaces; double inner quotes. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes to `path` through a temporary file renamed at the end: readers never see half a file. */
export class AtomicFileWriter {
  private readonly tmp: string;
  private fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;

  constructor(private readonly path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, "w");
  }

  write(text: string): void {
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes > 1 << 20) this.drain();
  }

  private drain(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
  }

  commit(): void {
    this.drain();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }

  abort(): void {
    try {
      closeSync(this.fd);
    } catch {}
    rmSync(this.tmp, { force: true });
  }
}

/**
 * Streams records out in the chosen format through `write`. CSV takes two passes over the records
 * (a factory that yields them afresh) — one for the union of columns, one for the rows — so memory
 * stays flat however large the run.
 */
export function exportRecords(
  records: () => Iterable<Record<string, unknown>>,
  format: ExportFormat,
  write: (text: string) => void,
): number {
  let n = 0;
  if (format === "jsonl") {
    for (const r of records()) {
      write(`${JSON.stringify(r)}\n`);
      n++;
    }
    return n;
  }
  const columns = new Map<string, true>();
  for (const r of records()) for (const k of flattenRecord(r).keys()) columns.set(k, true);
  const header = [...columns.keys()];
  write(`${header.map(csvCell).join(",")}\n`);
  for (const r of records()) {
    const flat = flattenRecord(r);
    write(`${header.map((h) => csvCell(flat.get(h))).join(",")}\n`);
    n++;
  }
  return n;
}
