/**
 * A small RFC 4180 CSV reader (no CSV library is installed): comma-separated fields, fields in
 * double quotes may hold commas, line breaks and doubled quotes (""), records end at CRLF or LF.
 * A leading byte-order mark is skipped. It is strict where a lenient reader would guess: a quote
 * inside an unquoted field, text after a closing quote, and an unclosed quote are syntax errors.
 */

export interface CsvRecord {
  fields: string[];
  /** 1-based line of the file where the record starts. */
  line: number;
}

export class CsvSyntaxError extends Error {
  override readonly name = "CsvSyntaxError";
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Every record of `text`, blank lines included as a record with one empty field. */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  // True right after a closing quote: only a comma or the end of the record may follow.
  let closed = false;
  let inQuotes = false;

  const endField = (): void => {
    fields.push(field);
    field = "";
    closed = false;
  };
  const endRecord = (): void => {
    endField();
    records.push({ fields, line: recordLine });
    fields = [];
  };

  while (i < src.length) {
    const ch = src[i]!;
    if (inQuotes) {
      // Inside a quoted field.
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        closed = true;
        i++;
        continue;
      }
      if (ch === "\n") line++;
      field += ch;
      i++;
      continue;
    }
    if (ch === ",") {
      endField();
      i++;
      continue;
    }
    if (ch === "\r" || ch === "\n") {
      endRecord();
      i += ch === "\r" && src[i + 1] === "\n" ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    if (closed) throw new CsvSyntaxError(line, "unexpected text after a closing quote");
    if (ch === '"') {
      if (field.length > 0) throw new CsvSyntaxError(line, 'a quote (") inside an unquoted field');
      inQuotes = true;
      i++;
      continue;
    }
    field += ch;
    i++;
  }
  if (inQuotes) throw new CsvSyntaxError(recordLine, "a quoted field is never closed");
  // A final line break ends the last record; anything after it is a last record.
  if (field.length > 0 || fields.length > 0 || closed) endRecord();
  return records;
}

/** Whether a record is an empty line (one empty field). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.length === 1 && record.fields[0] === "";
}
