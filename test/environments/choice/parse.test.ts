import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseChoiceAnswer } from "../../../environments/choice/parse.ts";
import { slotLetters } from "../../../environments/choice/types.ts";

const AB = slotLetters(2);
const ABC = slotLetters(3);
const ABCDE = slotLetters(5);

type Row = [reply: string, expected: number | string, letters?: string[]];

// Expected: a 0-based slot for an accepted reply, or the exact reason of a rejected one.
const PLAIN_TABLE: Row[] = [
  // The bare letter, decorated.
  ["A", 0],
  ["B", 1],
  ["b", 1],
  ["B.", 1],
  ["  B \n", 1],
  ["**B**", 1],
  ["**B.**", 1],
  ["(B)", 1],
  ["[A]", 0],
  ["`B`", 1],
  ['"B"', 1],
  ["'A'", 0],
  ["“B”", 1],
  ["‘A’", 0],
  ["«B»", 1],
  ["Ｂ", 1], // full-width letter
  ["\u200BB\u200B", 1], // zero-width spaces
  ["- B", 1],
  ["## B", 1],
  ["B!", 1],
  ["B)", 1],
  // A leading letter, a separator, then an explanation: one unambiguous letter.
  ["B. It is cheaper", 1],
  ["B) because it includes breakfast", 1],
  ["B: cheaper and better rated", 1],
  ["B - the cheaper one", 1],
  ["B — cheaper", 1],
  ["B\n\nIt has free cancellation.", 1],
  ["**B** — better value", 1],
  ["A, since it has breakfast", 0],
  ["B\n\nOption B has the better rating.", 1],
  // Cue phrases.
  ["Option B", 1],
  ["Option b", 1],
  ["option a is better value", 0],
  ["**Option A**", 0],
  ["I choose Option B", 1],
  ["I would book Option A because it is cheaper.", 0],
  ["Answer: B", 1],
  ["**Answer:** A", 0],
  ["The answer is B.", 1],
  ["My choice: A", 0],
  ['{"choice": "B"}', 1],
  ["<answer>B</answer>", 1],
  ["Option C", 2, ABC],
  ["E", 4, ABCDE],
  ["I'd go with Option B.", 1],
  ["B is my answer", 1],
  ["Option B - it has a 9.1 rating", 1],
  // The choice as a sentence's subject, the letter as its predicate.
  ["The best option for a one-night stay in New York City is B:", 1],
  ["The best option for a one-night stay in New York City is A.", 0],
  ["My choice for you is A.", 0],
  ["The better option here is Option B", 1],
  ["Overall, the best choice would be **B** — free cancellation and breakfast.", 1],
  ["My recommendation is B (it is cheaper).", 1],
  ["The option I'd book is B.", 1],
  ["The option I would choose is A", 0],
  ["Given your budget, my top pick is b.", 1],
  ["B is the better choice.", 1],
  ["The best option is B, but Option A is cheaper.", "ambiguous: names A and B"],
  ["<think>Option A is cheap, Option B is nicer.</think>\n\nB", 1],
  ["<think>Option A is cheap, Option B is", "unfinished reasoning"],
  // Empty and out of range.
  ["", "empty"],
  ["   \n\t ", "empty"],
  ["C", "out of range: C"],
  ["c.", "out of range: C"],
  ["Option C", "out of range: C"],
  ["F", "out of range: F", ABCDE],
  ["C. It has the best location", "out of range: C"],
  // Two different letters.
  ["A or B", "ambiguous: names A and B"],
  ["A/B", "ambiguous: names A and B"],
  ["a, b", "ambiguous: names A and B"],
  ["I'd pick A over B", "ambiguous: names A and B"],
  ["Options A and B", "ambiguous: names A and B"],
  ["Option A is cheaper, but Option B has breakfast.", "ambiguous: names A and B"],
  ["Option A or Option C", "ambiguous: names A and C"],
  ["B. Option A costs more.", "ambiguous: names A and B"],
  ["A, B or C", "ambiguous: names A, B and C", ABC],
  ["Answer: A\nAnswer: B", "ambiguous: names A and B"],
  ["Let me think. Option A is cheap. Option B is rated higher.\nAnswer: B", "ambiguous: names A and B"],
  // Prose that contains capitals or a letter but no cued choice.
  ["Based on the price, I would choose the cheaper one.", "no letter found"],
  ["A good choice is the second", "uncued letter: A"],
  ["I would pick B", "uncued letter: B"],
  ["Sure! B", "uncued letter: B"],
  ["B is cheaper", "uncued letter: B"],
  // A subject that describes an option rather than choosing one; a letter that is not the predicate.
  ["The option with the higher price per night is B.", "uncued letter: B"],
  ["The best option is not B.", "uncued letter: B"],
  ["The best choice is clear: go for B", "uncued letter: B"],
  ["My choice would be the cheaper hotel. B is fine too.", "uncued letter: B"],
  ["I think the second hotel is better value.", "no letter found"],
  ["Both are fine", "undecided"],
  ["Either works for me.", "undecided"],
  ["The first one.", "no letter found"],
  ["AB", "no letter found"],
  ["Option 2", "no letter found"],
  ["I, for one, prefer the cheaper hotel.", "no letter found"],
  ["e.g. the cheaper one", "no letter found", ABCDE],
  // Refusals.
  ["I'm sorry, but I can't make that choice for you.", "refusal"],
  ["As an AI, I don't have personal preferences.", "refusal"],
  ["I cannot choose between these options.", "refusal"],
  ["I am unable to book hotels.", "refusal"],
  ["I can’t decide — Option B maybe", "refusal"],
];

describe("parseChoiceAnswer (plain and other one-letter variants)", () => {
  it.each(PLAIN_TABLE)("%j → %j", (reply, expected, letters = AB) => {
    const verdict = parseChoiceAnswer(reply, letters, "plain");
    if (typeof expected === "number") expect(verdict).toEqual({ ok: true, slot: expected });
    else expect(verdict).toEqual({ ok: false, reason: expected });
  });

  it("has a large adversarial table", () => {
    expect(PLAIN_TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it("judges json, price-first and value-persona replies like plain ones", () => {
    for (const variant of ["json", "price-first", "value-persona", undefined] as const) {
      for (const [reply, expected, letters = AB] of PLAIN_TABLE) {
        expect(parseChoiceAnswer(reply, letters, variant)).toEqual(
          parseChoiceAnswer(reply, letters, "plain"),
        );
        void expected;
      }
    }
  });
});

const COT_TABLE: Row[] = [
  ["Option A is cheaper, but Option B has breakfast and a better rating.\nAnswer: B", 1],
  ["Step 1: compare prices. A costs $120, B costs $240.\nStep 2: ratings.\n\nAnswer: A", 0],
  ["Reasoning about Option A and Option B...\n**Answer:** B", 1],
  ["Thinking...\nFinal answer: Option A", 0],
  ["Comparing both.\nAnswer: **B**", 1],
  ["Comparing both.\nAnswer:\n\nB", 1],
  ["Initially Answer: A, but on reflection...\nAnswer: B", 1],
  ["Option C would be ideal.\nAnswer: C", 2, ABC],
  ["The answer is B", 1],
  ["Answer: B because it is cheaper than A", "ambiguous: names A and B"],
  ["Answer: A or B", "ambiguous: names A and B"],
  ["Comparing.\nAnswer: C", "out of range: C"],
  ["B", 1],
  ["**A**", 0],
  ["Option B is the better value.", "no answer line"],
  ["A is cheaper; B is nicer. I pick B.", "no answer line"],
  ["I'm sorry, I cannot make this choice.", "refusal"],
  ["Let me think.\nAnswer: I cannot choose.", "refusal"],
  ["Let me think.\nAnswer: both are fine", "undecided"],
  ["", "empty"],
];

describe("parseChoiceAnswer (cot: only the last Answer line counts)", () => {
  it.each(COT_TABLE)("%j → %j", (reply, expected, letters = AB) => {
    const verdict = parseChoiceAnswer(reply, letters, "cot");
    if (typeof expected === "number") expect(verdict).toEqual({ ok: true, slot: expected });
    else expect(verdict).toEqual({ ok: false, reason: expected });
  });
});

describe("parseChoiceAnswer with larger option sets", () => {
  it("maps each letter to its display slot", () => {
    const letters = slotLetters(26);
    letters.forEach((letter, slot) => {
      expect(parseChoiceAnswer(letter, letters)).toEqual({ ok: true, slot });
      expect(parseChoiceAnswer("Option " + letter, letters)).toEqual({ ok: true, slot });
    });
  });

  it("does not read the pronoun I as slot I when nine options are shown", () => {
    const letters = slotLetters(9);
    expect(parseChoiceAnswer("I choose Option B", letters)).toEqual({ ok: true, slot: 1 });
    expect(parseChoiceAnswer("I", letters)).toEqual({ ok: true, slot: 8 });
  });
});

interface RealAnswer {
  text: string;
  options: number;
  expected: string | { reason: string };
  release?: string;
  kind: string;
}

const REAL: RealAnswer[] = (
  JSON.parse(readFileSync(new URL("../../fixtures/choice/real-answers.json", import.meta.url), "utf8")) as {
    answers: RealAnswer[];
  }
).answers;

describe("answers of the kinds real models gave (the PriceBench release's misses and wrong readings)", () => {
  it.each(REAL.map((a) => [a.text, a] as const))("%j", (_text, a) => {
    const letters = slotLetters(a.options);
    const verdict = parseChoiceAnswer(a.text, letters, "plain");
    if (typeof a.expected === "string")
      expect(verdict).toEqual({ ok: true, slot: letters.indexOf(a.expected) });
    else expect(verdict).toEqual({ ok: false, reason: a.expected.reason });
  });

  it("holds both the answers bazaar missed and the readings the release got wrong", () => {
    expect(
      REAL.filter((a) => a.release !== undefined && a.release !== a.expected).length,
    ).toBeGreaterThanOrEqual(5);
    expect(REAL.some((a) => a.text === "I would pick B")).toBe(true);
  });
});
