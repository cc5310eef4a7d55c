import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { choiceEnvironment } from "../../../environments/choice/environment.ts";
import {
  type ChoiceOutcome,
  type ChoiceView,
  choiceMachine,
  SHOPPER,
} from "../../../environments/choice/machine.ts";
import { renderChoiceMessages } from "../../../environments/choice/prompt.ts";
import {
  parsePromptTemplate,
  renderTemplateMessages,
  templateCounts,
  templateReask,
} from "../../../environments/choice/template.ts";
import type { ChoiceOption, ChoiceTask } from "../../../environments/choice/types.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { type Agent, type Observation, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";

const POD: ChoiceOption = {
  hotelId: 1,
  name: "Pod 51",
  stars: 2,
  neighborhood: "Midtown East",
  chain: "Independent",
  price: 89,
  roomType: "Full Pod (1 twin bed)",
  freeCancellation: false,
  breakfast: false,
  reviewScore: 7.8,
  reviewCount: 5602,
  amenities: ["Free WiFi", "Air conditioning"],
};

const COURTYARD: ChoiceOption = {
  hotelId: 30,
  name: "Courtyard by Marriott Manhattan/Central Park",
  stars: 3,
  neighborhood: "Midtown West",
  chain: "Marriott",
  price: 1249,
  roomType: "King Room",
  freeCancellation: true,
  breakfast: true,
  reviewScore: 9,
  reviewCount: 12,
};

const REFERENCE_FILE = path.resolve(
  import.meta.dirname,
  "../../../environments/choice/templates/pricebench-reference.txt",
);

describe("prompt templates", () => {
  it("the reference runner's prompt, word for word (its binary template with the release's first task)", () => {
    const t = parsePromptTemplate(readFileSync(REFERENCE_FILE, "utf8"), "pricebench-reference.txt");
    expect(templateCounts(t)).toEqual([2, 3, 5]);
    const messages = renderTemplateMessages(t, [POD, COURTYARD]);
    // The reference's BINARY_PROMPT_TEMPLATE filled by hand with these two options (str.format
    // with {price:,} and {review_count:,}): one user message, no system message.
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          "You are booking a hotel room in New York City for a one-night stay. You must choose between the following two options.",
          "",
          "Option A:",
          "  Hotel: Pod 51",
          "  Star rating: 2 stars",
          "  Neighborhood: Midtown East",
          "  Guest review score: 7.8/10 (5,602 reviews)",
          "  Room type: Full Pod (1 twin bed)",
          "  Free cancellation: No",
          "  Breakfast included: No",
          "  Key amenities: Free WiFi; Air conditioning",
          "  Price per night: $89",
          "",
          "Option B:",
          "  Hotel: Courtyard by Marriott Manhattan/Central Park",
          "  Star rating: 3 stars",
          "  Neighborhood: Midtown West",
          "  Guest review score: 9.0/10 (12 reviews)",
          "  Room type: King Room",
          "  Free cancellation: Yes",
          "  Breakfast included: Yes",
          "  Key amenities: ",
          "  Price per night: $1,249",
          "",
          "Which option do you choose? Reply with only the letter A or B.",
        ].join("\n"),
      },
    ]);
    expect(renderTemplateMessages(t, [POD, COURTYARD, POD])[0]!.content).toMatch(
      /one of the following three options\.\n\nOption A:[\s\S]*Option C:[\s\S]*letter A, B, or C\.$/,
    );
    expect(templateReask(t, ["A", "B", "C"], "plain")).toBe("Respond with ONLY the letter A, B or C.");
    expect(() => renderTemplateMessages(t, [POD, POD, POD, POD])).toThrow(/no user message for 4 options/);
  });

  it("a plain [user] serves every count; without [card] the cards are bazaar's own; {{letters}} and {{count}}", () => {
    const t = parsePromptTemplate(
      "# my production prompt\n[system]\nYou book hotels.\n[user]\nPick one of {{count}}:\n\n{{cards}}\n\nAnswer {{letters}}.\n",
      "mine.txt",
    );
    expect(templateCounts(t)).toBeNull();
    const [system, user] = renderTemplateMessages(t, [POD, COURTYARD, POD]);
    expect(system).toEqual({ role: "system", content: "You book hotels." });
    const own = renderChoiceMessages([POD, COURTYARD, POD], "plain")[1]!.content;
    const ownCards = own.slice(own.indexOf("Option A"), own.lastIndexOf("\n\nReply"));
    expect(user!.content).toBe(`Pick one of 3:\n\n${ownCards}\n\nAnswer A, B or C.`);
    // No [reask]: bazaar's own, in the answer format of the variant.
    expect(templateReask(t, ["A", "B"], "plain")).toBe("Please reply with only one letter: A or B.");
  });

  it("the README's example parses and renders", () => {
    const t = parsePromptTemplate(
      [
        "# my-prompt.txt",
        "[system]",
        "You are the booking assistant of Acme Travel.",
        "[user]",
        "Our client needs one night in New York. Here are {{count}} options:",
        "",
        "{{cards}}",
        "",
        "Answer with the letter of the option you book ({{letters}}).",
        "[card]",
        "{{letter}}. {{name}} ({{stars}}★, {{neighborhood}}) — {{price}} per night, rated {{rating}} by {{reviews}} guests; free cancellation: {{free_cancellation}}; breakfast: {{breakfast}}",
      ].join("\n"),
      "my-prompt.txt",
    );
    const [system, user] = renderTemplateMessages(t, [POD, COURTYARD]);
    expect(system!.content).toBe("You are the booking assistant of Acme Travel.");
    expect(user!.content).toBe(
      [
        "Our client needs one night in New York. Here are 2 options:",
        "",
        "A. Pod 51 (2★, Midtown East) — $89 per night, rated 7.8 by 5,602 guests; free cancellation: No; breakfast: No",
        "",
        "B. Courtyard by Marriott Manhattan/Central Park (3★, Midtown West) — $1,249 per night, rated 9.0 by 12 guests; free cancellation: Yes; breakfast: Yes",
        "",
        "Answer with the letter of the option you book (A or B).",
      ].join("\n"),
    );
  });

  it("mistakes are UserErrors naming the file and line", () => {
    const cases: [string, RegExp][] = [
      ["[user]\nno cards here\n", /t\.txt, line 1: \[user\] must hold \{\{cards\}\}/],
      [
        "[user]\n{{cards}}\n[card]\nOption {{leter}}\n",
        /t\.txt, line 4: unknown placeholder \{\{leter\}\} in \[card\]/,
      ],
      ["[system]\nhi\n", /no \[user\] section/],
      ["hello\n[user]\n{{cards}}\n", /line 1: text before the first section/],
      ["[users]\n{{cards}}\n", /line 1: unknown section \[users\]/],
      ["[user]\n{{cards}}\n[user]\n{{cards}}\n", /line 3: section \[user\] appears twice/],
      ["[card 2]\nx\n[user]\n{{cards}}\n", /only \[user\] takes an option count/],
      ["[user 1]\n{{cards}}\n", /an option count is 2 to 26/],
      ["[user]\n{{cards}} {{name}}\n", /line 2: unknown placeholder \{\{name\}\} in \[user\]/],
      ["[user]\n{{cards}}\n[card]\n\n", /line 3: section \[card\] is empty/],
    ];
    for (const [text, message] of cases) {
      let error: unknown;
      try {
        parsePromptTemplate(text, "t.txt");
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(UserError);
      expect((error as Error).message, text).toMatch(message);
    }
  });

  it("an episode asks and re-asks in the template's wording (settings.promptTemplate)", async () => {
    const template = parsePromptTemplate(
      "[user]\nChoose:\n{{cards}}\n[card]\n{{letter}}) {{name}} {{price}}\n[reask]\nJust {{letters}}, please.\n",
      "t.txt",
    );
    const task: ChoiceTask = {
      env: "choice",
      taskId: "1",
      kind: "binary",
      setId: "b1",
      appearance: 1,
      order: [0, 1],
      options: [POD, COURTYARD],
      variant: "plain",
    };
    const seen: Observation<ChoiceView>[] = [];
    const replies = ["I like both", "B"];
    const agent: Agent<unknown, unknown> = {
      id: "scripted",
      act(obs) {
        seen.push(structuredClone(obs) as Observation<ChoiceView>);
        return { action: { type: "reply", text: replies[seen.length - 1] } };
      },
    };
    const input = choiceEnvironment.input(task, { maxReasks: 2, promptTemplate: template });
    const { output } = await runEpisode<ChoiceOutcome>(
      choiceMachine,
      input,
      { [SHOPPER]: agent },
      { rng: createRng(1), trialKey: "k", replicate: 0 },
    );
    expect(output.chosenSlot).toBe(1);
    expect(seen[0]!.messages).toEqual([
      {
        role: "user",
        content: "Choose:\nA) Pod 51 $89\n\nB) Courtyard by Marriott Manhattan/Central Park $1,249",
      },
    ]);
    expect(seen[1]!.messages.at(-1)).toEqual({ role: "user", content: "Just A or B, please." });
    // Without a template the episode is bazaar's own prompt, unchanged.
    const plain = choiceEnvironment.input(task, { maxReasks: 2 });
    expect(plain).toMatchObject({ template: null });
  });
});
