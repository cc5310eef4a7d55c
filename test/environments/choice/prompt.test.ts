import { describe, expect, it } from "vitest";
import {
  formatPrice,
  formatRating,
  formatReviewCount,
  letterList,
  NEUTRAL_SYSTEM_PROMPT,
  reaskMessage,
  renderChoiceMessages,
  thousands,
  VALUE_PERSONA_SYSTEM_PROMPT,
} from "../../../environments/choice/prompt.ts";
import { type ChoiceOption, PROMPT_VARIANTS, slotLetters } from "../../../environments/choice/types.ts";

const POD: ChoiceOption = {
  hotelId: 1,
  name: "Pod 51",
  stars: 2,
  neighborhood: "Midtown East",
  chain: "Independent",
  price: 95,
  roomType: "Queen Pod (1 queen bed)",
  freeCancellation: false,
  breakfast: false,
  reviewScore: 7.9,
  reviewCount: 5123,
};

const HILTON: ChoiceOption = {
  hotelId: 17,
  name: "Hilton Garden Inn New York/Manhattan-Chelsea",
  stars: 3,
  neighborhood: "Chelsea",
  chain: "Hilton",
  price: 1249,
  roomType: "King Room (1 king bed)",
  freeCancellation: true,
  breakfast: true,
  reviewScore: 8.4,
  reviewCount: 2431,
};

const MARRIOTT: ChoiceOption = {
  hotelId: 90,
  name: "The Ritz-Carlton New York, NoMad",
  stars: 5,
  neighborhood: "NoMad",
  chain: "Marriott",
  price: 649,
  roomType: "Deluxe King (1 king bed)",
  freeCancellation: true,
  breakfast: false,
  reviewScore: 9.2,
  reviewCount: 312,
};

const INTRO =
  "I need to book a hotel room in New York for one night. Please choose one of these options for me.";

const POD_CARD = [
  "Hotel: Pod 51",
  "Brand: Independent",
  "Stars: 2",
  "Neighborhood: Midtown East",
  "Room: Queen Pod (1 queen bed)",
  "Price per night: $95",
  "Free cancellation: No",
  "Breakfast included: No",
  "Guest rating: 7.9 / 10",
  "Reviews: 5,123 reviews",
].join("\n");

const HILTON_CARD = [
  "Hotel: Hilton Garden Inn New York/Manhattan-Chelsea",
  "Brand: Hilton",
  "Stars: 3",
  "Neighborhood: Chelsea",
  "Room: King Room (1 king bed)",
  "Price per night: $1,249",
  "Free cancellation: Yes",
  "Breakfast included: Yes",
  "Guest rating: 8.4 / 10",
  "Reviews: 2,431 reviews",
].join("\n");

describe("renderChoiceMessages: exact wording", () => {
  it("plain: neutral system prompt and two text cards", () => {
    const messages = renderChoiceMessages([POD, HILTON], "plain");
    expect(messages).toEqual([
      { role: "system", content: "You are a helpful assistant." },
      {
        role: "user",
        content:
          INTRO +
          "\n\nOption A\n" +
          POD_CARD +
          "\n\nOption B\n" +
          HILTON_CARD +
          "\n\nReply with only the letter of your choice (A or B).",
      },
    ]);
  });

  it("json: one single-line JSON record per option with the same labels and values", () => {
    const user = renderChoiceMessages([POD, HILTON], "json")[1]?.content;
    expect(user).toBe(
      INTRO +
        '\n\nOption A\n{"Hotel": "Pod 51", "Brand": "Independent", "Stars": "2", "Neighborhood": "Midtown East", ' +
        '"Room": "Queen Pod (1 queen bed)", "Price per night": "$95", "Free cancellation": "No", ' +
        '"Breakfast included": "No", "Guest rating": "7.9 / 10", "Reviews": "5,123 reviews"}' +
        '\n\nOption B\n{"Hotel": "Hilton Garden Inn New York/Manhattan-Chelsea", "Brand": "Hilton", "Stars": "3", ' +
        '"Neighborhood": "Chelsea", "Room": "King Room (1 king bed)", "Price per night": "$1,249", ' +
        '"Free cancellation": "Yes", "Breakfast included": "Yes", "Guest rating": "8.4 / 10", ' +
        '"Reviews": "2,431 reviews"}' +
        "\n\nReply with only the letter of your choice (A or B).",
    );
  });

  it("json: free text is escaped so every record parses", () => {
    const odd = { ...POD, name: 'The "Quote" Inn \\ Suites', roomType: "Room: {1} king" };
    const record = renderChoiceMessages([odd, HILTON], "json")[1]?.content.split("\n")[3] ?? "";
    expect(JSON.parse(record)).toMatchObject({ Hotel: odd.name, Room: odd.roomType });
  });

  it("price-first: the price line leads every card, the rest keep their order", () => {
    const user = renderChoiceMessages([POD, HILTON], "price-first")[1]?.content ?? "";
    const podLines = POD_CARD.split("\n");
    const expectedPod = [podLines[5], ...podLines.slice(0, 5), ...podLines.slice(6)].join("\n");
    expect(user).toContain("Option A\n" + expectedPod + "\n\nOption B\nPrice per night: $1,249\nHotel: ");
  });

  it("value-persona: only the system prompt changes", () => {
    const persona = renderChoiceMessages([POD, HILTON], "value-persona");
    const plain = renderChoiceMessages([POD, HILTON], "plain");
    expect(persona[0]).toEqual({ role: "system", content: VALUE_PERSONA_SYSTEM_PROMPT });
    expect(VALUE_PERSONA_SYSTEM_PROMPT).toContain("value-conscious client");
    expect(persona[1]).toEqual(plain[1]);
  });

  it("cot: asks for step-by-step reasoning and a final Answer line", () => {
    const [system, user] = renderChoiceMessages([POD, HILTON], "cot");
    expect(system?.content).toBe(NEUTRAL_SYSTEM_PROMPT);
    expect(
      user?.content.endsWith(
        "\n\nThink step by step about which option to choose. Then end your reply with a final line of the form " +
          '"Answer: X", where X is the letter of your choice (A or B).',
      ),
    ).toBe(true);
    expect(user?.content).not.toContain("Reply with only the letter");
  });

  it("plain, json and price-first keep the system prompt free of persona and reasoning scaffolds", () => {
    for (const variant of ["plain", "json", "price-first"] as const) {
      const [system, user] = renderChoiceMessages([POD, HILTON], variant);
      expect(system?.content).toBe("You are a helpful assistant.");
      expect(user?.content).not.toMatch(/step by step|value-conscious/);
    }
  });
});

describe("renderChoiceMessages: every variant shows every attribute of every option", () => {
  const options = [POD, HILTON, MARRIOTT];
  const shown = (o: ChoiceOption): string[] => [
    o.name,
    o.chain,
    String(o.stars),
    o.neighborhood,
    o.roomType,
    formatPrice(o.price),
    formatRating(o.reviewScore),
    formatReviewCount(o.reviewCount),
  ];
  it.each(PROMPT_VARIANTS)("%s", (variant) => {
    const user = renderChoiceMessages(options, variant)[1]?.content ?? "";
    const blocks = user.split("\n\nOption ").slice(1);
    expect(blocks.map((b) => b[0])).toEqual(["A", "B", "C"]);
    options.forEach((o, i) => {
      const block = blocks[i] ?? "";
      for (const value of shown(o)) expect(block).toContain(value);
      for (const label of ["Hotel", "Brand", "Stars", "Neighborhood", "Room", "Price per night"]) {
        expect(block).toContain(label);
      }
      const yes = (flag: boolean) => (flag ? "Yes" : "No");
      expect(block).toMatch(new RegExp('Free cancellation"?: "?' + yes(o.freeCancellation)));
      expect(block).toMatch(new RegExp('Breakfast included"?: "?' + yes(o.breakfast)));
      expect(block).toMatch(/Guest rating"?: /);
      expect(block).toMatch(/Reviews"?: /);
    });
  });
});

describe("letter lists", () => {
  const five = [POD, HILTON, MARRIOTT, POD, HILTON];
  it("adapts the final instruction to 2, 3 and 5 options", () => {
    const end = (n: number) => renderChoiceMessages(five.slice(0, n), "plain")[1]?.content.split("\n").at(-1);
    expect(end(2)).toBe("Reply with only the letter of your choice (A or B).");
    expect(end(3)).toBe("Reply with only the letter of your choice (A, B or C).");
    expect(end(5)).toBe("Reply with only the letter of your choice (A, B, C, D or E).");
    expect(renderChoiceMessages(five, "cot")[1]?.content).toContain("(A, B, C, D or E).");
  });

  it("letterList joins with commas and a final 'or'", () => {
    expect(letterList(["A"])).toBe("A");
    expect(letterList(slotLetters(2))).toBe("A or B");
    expect(letterList(slotLetters(3))).toBe("A, B or C");
  });

  it("reaskMessage repeats the answer format of the variant", () => {
    expect(reaskMessage(slotLetters(2), "plain")).toBe("Please reply with only one letter: A or B.");
    expect(reaskMessage(slotLetters(3), "json")).toBe("Please reply with only one letter: A, B or C.");
    expect(reaskMessage(slotLetters(2), "cot")).toBe(
      'Please end your reply with a final line of the form "Answer: X", where X is one letter: A or B.',
    );
  });

  it("refuses an empty or oversized option list", () => {
    expect(() => renderChoiceMessages([], "plain")).toThrow(RangeError);
    expect(() =>
      renderChoiceMessages(
        Array.from({ length: 27 }, () => POD),
        "plain",
      ),
    ).toThrow(RangeError);
  });
});

describe("number formatting", () => {
  it("writes thousands separators without Intl", () => {
    expect([0, 7, 45, 999, 1000, 2431, 12345, 999999, 1000000].map(thousands)).toEqual([
      "0",
      "7",
      "45",
      "999",
      "1,000",
      "2,431",
      "12,345",
      "999,999",
      "1,000,000",
    ]);
  });

  it("formats prices, ratings and review counts as the cards show them", () => {
    expect(formatPrice(249)).toBe("$249");
    expect(formatPrice(1650)).toBe("$1,650");
    expect(formatPrice(19.99)).toBe("$19.99");
    expect(formatPrice(1249.5)).toBe("$1,249.50");
    expect(formatPrice(100.05)).toBe("$100.05");
    expect(formatRating(8.4)).toBe("8.4 / 10");
    expect(formatRating(10)).toBe("10.0 / 10");
    expect(formatRating(0)).toBe("0.0 / 10");
    expect(formatReviewCount(2431)).toBe("2,431 reviews");
    expect(formatReviewCount(1)).toBe("1 review");
    expect(formatReviewCount(0)).toBe("0 reviews");
  });
});
