import { describe, expect, it } from "vitest";
import { parseDollarAmount } from "../../../environments/elicit/number.ts";

const accepted: [string, number][] = [
  ["450", 450],
  ["$450", 450],
  ["$1,250.50", 1250.5],
  ["USD 450", 450],
  ["US$ 450", 450],
  ["450 dollars", 450],
  ["$ 1,950 per month", 1950],
  ["-$35", -35],
  ["$-35", -35],
  ["−35", -35],
  ["– 35", -35],
  ["+$40", 40],
  ["minus 35", -35],
  ["minus $35", -35],
  ["negative $35", -35],
  ["zero", 0],
  ["$0", 0],
  ["-0", 0],
  ["**$450**", 450],
  ["`450`", 450],
  ["30_", 30],
  ["$450.", 450],
  ["I'd pay about $450 for it.", 450],
  ["$450 … so $450", 450],
  ["The 2-stop flight is slow.\nAnswer: $300", 300],
  ["Answer:\n-$45", -45],
  ["The answer is $1,200", 1200],
  ["<think>maybe 3 or 4</think>$200", 200],
  ["0.125", 0.125],
  ["\u200B$75\uFEFF", 75],
];

const rejected: [string, string][] = [
  ["", "empty"],
  ["   ", "empty"],
  ["<think>still going", "unfinished reasoning"],
  ["$400–$500", "range"],
  ["400 to 500", "range"],
  ["between 400 and 500", "range"],
  ["$400 or $450", "range"],
  ["400-500", "range"],
  ["I'd pay $450 for the 2-stop flight", "several numbers"],
  ["It depends on the person.", "no number"],
  ["fifty dollars", "number in words"],
  ["any price", "infinite"],
  ["∞", "infinite"],
  ["€40", "not US dollars"],
  ["40 euros", "not US dollars"],
  ["10%", "percentage"],
  ["$1.2k", "magnitude suffix"],
  ["2 thousand", "magnitude suffix"],
  ["1,25", "malformed number"],
  ["1.250", "ambiguous separator"],
  ["($35)", "ambiguous sign"],
];

describe("the strict dollar-amount parser", () => {
  for (const [text, value] of accepted) {
    it(`reads ${JSON.stringify(text)} as ${value}`, () => {
      const v = parseDollarAmount(text, { signed: true });
      expect(v).toEqual({ ok: true, value });
      expect(Object.is((v as { value: number }).value, -0)).toBe(false);
    });
  }
  for (const [text, reason] of rejected) {
    it(`flags ${JSON.stringify(text)} as ${reason}`, () => {
      const v = parseDollarAmount(text);
      expect(v.ok).toBe(false);
      expect((v as { reason: string }).reason.split(":")[0]).toBe(reason);
    });
  }

  it("flags a negative direction given only in words, for signed answers only", () => {
    expect(parseDollarAmount("$40 cheaper", { signed: true })).toEqual({
      ok: false,
      reason: "sign in words: $40 cheaper",
    });
    expect(parseDollarAmount("-$40 (Offer B must be cheaper)", { signed: true })).toEqual({
      ok: true,
      value: -40,
    });
    expect(parseDollarAmount("I'd pay less than $450", { signed: false })).toEqual({ ok: true, value: 450 });
  });

  it("keeps the range's ends in the reason, never its midpoint as a value", () => {
    expect(parseDollarAmount("Somewhere between $400 and $450.")).toEqual({
      ok: false,
      reason: "range: $400 to $450",
    });
  });
});
