import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_HOTEL_POOL,
  HOTEL_FIELDS,
  type Hotel,
  loadHotelPool,
  PRICEBENCH_FIELD_NAMES,
  parseHotelPool,
} from "../../../datasets/hotels/index.ts";
import { InvalidFileError, type Problem, UserError } from "../../../environments/kernel/errors.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-hotels-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The InvalidFileError a load throws (failing the test if it does not throw one). */
function invalid(load: () => unknown): InvalidFileError {
  try {
    load();
  } catch (error) {
    if (error instanceof InvalidFileError) return error;
    throw error;
  }
  throw new Error("expected an InvalidFileError, but the pool loaded");
}

const where = (p: Problem): string => `${p.row ?? "-"}:${p.field ?? "-"}`;

const sample: Hotel[] = DEFAULT_HOTEL_POOL.slice(0, 3);

function csvCell(value: unknown): string {
  const text = Array.isArray(value) ? value.join("|") : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(hotels: readonly Hotel[], eol = "\n"): string {
  const rows = hotels.map((h) => HOTEL_FIELDS.map((f) => csvCell(h[f])).join(","));
  return [HOTEL_FIELDS.join(","), ...rows].join(eol) + eol;
}

/** A hotel as the PriceBench release writes it: its field names, no chain. */
function toPriceBenchRow(h: Hotel): Record<string, unknown> {
  return Object.fromEntries(
    HOTEL_FIELDS.filter((f) => f !== "chain").map((f) => [PRICEBENCH_FIELD_NAMES[f], h[f]]),
  );
}

describe("loadHotelPool on good files", () => {
  it("reads a bazaar JSON array", () => {
    expect(loadHotelPool(write("array.json", JSON.stringify(sample)))).toEqual(sample);
  });

  it('reads a bazaar {"hotels": [...]} object, other top-level keys aside', () => {
    const file = write("object.json", JSON.stringify({ about: "mine", hotels: sample }, null, 2));
    expect(loadHotelPool(file)).toEqual(sample);
  });

  it("defaults amenities to an empty list", () => {
    const { amenities: _, ...bare } = sample[0]!;
    expect(loadHotelPool(write("bare.json", JSON.stringify([bare])))[0]!.amenities).toEqual([]);
  });

  it("reads the PriceBench layout, inferring each chain from the name", () => {
    const hotels: Hotel[] = [
      { ...sample[0]!, id: 1, name: "Hampton Inn Elm Park", chain: "Hilton" },
      { ...sample[1]!, id: 2, name: "The Copper Lantern", chain: "Independent" },
      { ...sample[2]!, id: 3, name: "Best Western Elm Park", chain: "Wyndham" },
    ];
    const file = write(
      "pricebench.json",
      JSON.stringify({ description: "x", hotels: hotels.map(toPriceBenchRow) }),
    );
    expect(loadHotelPool(file)).toEqual(hotels);
    // The reference's classification by default; the brand rule on request.
    expect(loadHotelPool(file, { chainRule: "brands" })[2]!.chain).toBe("Independent");
  });

  it("reads CSV with a camelCase header, quoted fields, | lists and CRLF line ends", () => {
    const hotels = [{ ...sample[0]!, name: 'The "Quoted", Inn' }, sample[1]!];
    expect(loadHotelPool(write("pool.csv", toCsv(hotels, "\r\n")))).toEqual(hotels);
  });

  it("reads CSV without the optional amenities column, and with blank lines", () => {
    const header = HOTEL_FIELDS.filter((f) => f !== "amenities");
    const line = (h: Hotel) => header.map((f) => csvCell(h[f])).join(",");
    const text = `${header.join(",")}\n${line(sample[0]!)}\n\n${line(sample[1]!)}\n`;
    const loaded = loadHotelPool(write("no-amenities.csv", text));
    expect(loaded.map((h) => h.amenities)).toEqual([[], []]);
    expect(loaded.map((h) => h.name)).toEqual([sample[0]!.name, sample[1]!.name]);
  });

  it("round-trips the whole default pool through CSV", () => {
    expect(parseHotelPool(toCsv(DEFAULT_HOTEL_POOL), "default.csv")).toEqual(DEFAULT_HOTEL_POOL);
  });
});

describe("loadHotelPool on bad files", () => {
  it("says a missing path does not exist, as a UserError", () => {
    const missing = path.join(dir, "nope.json");
    expect(() => loadHotelPool(missing)).toThrow(UserError);
    expect(() => loadHotelPool(missing)).toThrow(`${missing} does not exist`);
  });

  it("says a directory is not a file", () => {
    const sub = path.join(dir, "a-dir");
    mkdirSync(sub);
    expect(() => loadHotelPool(sub)).toThrow(/is a directory/);
  });

  it("reports malformed JSON with its file and position", () => {
    const file = write("broken.json", '[\n  {"id": 1,\n  ]');
    const error = invalid(() => loadHotelPool(file));
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not valid JSON.*line 3/);
  });

  it("reports wrong types, naming the file, row and field", () => {
    const rows = [sample[0], { ...sample[1], stars: "4", roomTypes: "Double Room" }];
    const file = write("types.json", JSON.stringify(rows));
    const error = invalid(() => loadHotelPool(file));
    expect(error.problems.map(where)).toEqual(["1:stars", "1:roomTypes"]);
    expect(error.message).toContain(`${file}, row 1, stars: expected number, got "4"`);
    expect(error.message).toContain(`${file}, row 1, roomTypes: expected array`);
  });

  it("reports priceMin above priceMax, also when the row has other problems", () => {
    const rows = [
      { ...sample[0], priceMin: 300, priceMax: 200 },
      { ...sample[1], priceMin: 300, priceMax: 200, stars: 9 },
    ];
    const error = invalid(() => loadHotelPool(write("prices.json", JSON.stringify(rows))));
    expect(error.problems.map(where)).toEqual(["0:priceMax", "1:stars", "1:priceMax"]);
    expect(error.message).toContain("row 0, priceMax: priceMin 300 is above priceMax 200");
  });

  it("reports every missing field of every row", () => {
    const { name: _n, priceMax: _p, ...noName } = sample[0]!;
    const { chain: _c, ...noChain } = sample[1]!;
    const error = invalid(() => loadHotelPool(write("missing.json", JSON.stringify([noName, noChain]))));
    expect(error.problems.map(where)).toEqual(["0:name", "0:priceMax", "1:chain"]);
    expect(error.problems.every((p) => p.message === "missing (required)")).toBe(true);
  });

  it("reports unknown fields instead of dropping them, with a suggestion", () => {
    const error = invalid(() => parseHotelPool(JSON.stringify([{ ...sample[0], Stars: 3 }]), "extra.json"));
    expect(error.problems).toEqual([
      { file: "extra.json", row: 0, field: "Stars", message: 'unknown field; did you mean "stars"?' },
    ]);
  });

  it("reports duplicate ids at the repeated row, even when that row has other problems", () => {
    const rows = [
      sample[0],
      { ...sample[1], id: sample[0]!.id },
      { ...sample[2], id: sample[0]!.id, stars: 0 },
    ];
    const error = invalid(() => parseHotelPool(JSON.stringify(rows), "dupes.json"));
    expect(error.problems.map(where)).toEqual(["1:id", "2:stars", "2:id"]);
    expect(error.message).toContain(`dupes.json, row 2, id: duplicate id ${sample[0]!.id} (first at row 0)`);
  });

  it("names PriceBench-layout fields the way that file spells them", () => {
    const row = { ...toPriceBenchRow(sample[0]!), [PRICEBENCH_FIELD_NAMES.priceMin]: "cheap" };
    const error = invalid(() => parseHotelPool(JSON.stringify({ hotels: [row] }), "pb.json"));
    expect(error.problems.map(where)).toEqual([`0:${PRICEBENCH_FIELD_NAMES.priceMin}`]);
  });

  it("reports bad CSV rows by 1-based data row and column", () => {
    const good = toCsv(sample).trimEnd().split("\n");
    const cells = good[2]!.split(",");
    cells[HOTEL_FIELDS.indexOf("reviewScoreBase")] = "high";
    cells[HOTEL_FIELDS.indexOf("roomTypes")] = "";
    const text = [good[0], good[1], cells.join(","), "7,Short Row"].join("\n");
    const file = write("bad.csv", text);
    const error = invalid(() => loadHotelPool(file));
    expect(error.problems.map(where)).toEqual(["2:reviewScoreBase", "2:roomTypes", "3:-"]);
    expect(error.message).toContain(`${file}, row 2, reviewScoreBase: expected number, got "high"`);
    expect(error.message).toContain(`${file}, row 3: has 2 fields but the header has ${HOTEL_FIELDS.length}`);
  });

  it("reports missing and unknown CSV columns once, not on every row", () => {
    const header = HOTEL_FIELDS.filter((f) => f !== "breakfastProb").map((f) =>
      f === "stars" ? "Stars" : f,
    );
    const rows = sample.map((h) => header.map((f) => csvCell(h[f as keyof Hotel] ?? h.stars)).join(","));
    const error = invalid(() => parseHotelPool([header.join(","), ...rows].join("\n"), "cols.csv"));
    expect(error.problems.map(where)).toEqual(["-:Stars", "-:stars", "-:breakfastProb"]);
    expect(error.problems[0]!.message).toBe('unknown column; did you mean "stars"?');
  });

  it("reports a CSV syntax error with its line", () => {
    const error = invalid(() => parseHotelPool('id,name\n1,"open\n', "quote.csv"));
    expect(error.message).toContain("quote.csv: not valid CSV: line 2: a quoted field is never closed");
  });

  it("rejects files that are neither JSON nor CSV, empty files and empty pools", () => {
    expect(invalid(() => parseHotelPool("just some text", "a.txt")).message).toMatch(
      /neither JSON .* nor CSV/,
    );
    expect(invalid(() => parseHotelPool("  \n", "blank.json")).message).toContain("the file is empty");
    expect(invalid(() => parseHotelPool("[]", "none.json")).message).toContain("the pool has no hotels");
    expect(invalid(() => parseHotelPool('{"hotels": []}', "none.json")).message).toContain("no hotels");
    expect(invalid(() => parseHotelPool(toCsv([]), "none.csv")).message).toContain("no hotels");
    expect(invalid(() => parseHotelPool('{"rooms": []}', "o.json")).message).toContain('a "hotels" array');
    expect(invalid(() => parseHotelPool('{"hotels": 5}', "o.json")).problems[0]!.field).toBe("hotels");
    expect(invalid(() => parseHotelPool("[1, null]", "n.json")).problems.map(where)).toEqual(["0:-", "1:-"]);
  });

  it("lists every problem, even past the twenty the message shows", () => {
    const rows = DEFAULT_HOTEL_POOL.slice(0, 30).map((h) => ({ ...h, stars: 6 }));
    const error = invalid(() => parseHotelPool(JSON.stringify(rows), "many.json"));
    expect(error.problems).toHaveLength(30);
    expect(error.message).toContain("… and 10 more problems");
  });
});
