import { describe, expect, it } from "vitest";
import { CsvSyntaxError, parseCsv } from "../../../datasets/hotels/index.ts";

const fields = (text: string): string[][] => parseCsv(text).map((r) => r.fields);

describe("parseCsv", () => {
  it("splits records on LF and CRLF, with or without a final line break", () => {
    expect(fields("a,b\n1,2\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fields("a,b\r\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("keeps empty fields, including a trailing one", () => {
    expect(fields("a,,c\n,\n1,")).toEqual([
      ["a", "", "c"],
      ["", ""],
      ["1", ""],
    ]);
  });

  it("reads quoted fields holding commas, doubled quotes and line breaks", () => {
    const records = parseCsv('name,note\n"Inn, The","say ""hi"""\n"two\nlines",x\nlast,y\n');
    expect(records.map((r) => r.fields)).toEqual([
      ["name", "note"],
      ["Inn, The", 'say "hi"'],
      ["two\nlines", "x"],
      ["last", "y"],
    ]);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3, 5]);
  });

  it("reads an empty quoted field and skips a byte-order mark", () => {
    expect(fields('\uFEFFa,""\n')).toEqual([["a", ""]]);
  });

  it("keeps blank lines as records of one empty field, so data rows keep their numbers", () => {
    expect(fields("a\n\nb\n")).toEqual([["a"], [""], ["b"]]);
  });

  it("rejects an unclosed quote, naming the line where the record starts", () => {
    const error = (() => {
      try {
        parseCsv('a,b\n1,"open\n2,3\n');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBe(2);
  });

  it("rejects a quote inside an unquoted field and text after a closing quote", () => {
    expect(() => parseCsv('a,b"c\n')).toThrow(/inside an unquoted field/);
    expect(() => parseCsv('a,"b"c\n')).toThrow(/after a closing quote/);
  });
});
