import { describe, expect, it } from "vitest";
import { observeShop, parseActionLines, TOOL_CALL_BATCH } from "../../../environments/shop/index.ts";
import { lastCards, play, shopTasks, taskOf } from "./helpers.ts";

describe("observeShop: the conversation read back into the view", () => {
  it("gives back exactly the machine's view at every turn, in tools and text mode", async () => {
    const needle = taskOf("needle");
    const script = [
      { type: "search", area: needle.request.constraints.areas![0], sort: "price_high" },
      {
        type: TOOL_CALL_BATCH,
        calls: [
          { name: "search", args: { page: 9 } },
          { name: "search", args: { maxPrice: 1 } },
        ],
      },
      (v: Parameters<typeof lastCards>[0]) => ({
        type: TOOL_CALL_BATCH,
        calls: [
          { name: "nope" },
          { name: "view", args: { id: "zz" } },
          { name: "view", args: { id: lastCards(v)[0] } },
        ],
      }),
      { type: "reply", text: "Hmm, let me think." },
      (v: Parameters<typeof lastCards>[0]) => ({
        type: "reply",
        text: `ok\nAction: view({"id": "${lastCards(v)[1]}"})\nAction: view(42)`,
      }),
      { type: "give_up", reason: "enough" },
    ];
    const { seen } = await play(needle, script);
    expect(seen).toHaveLength(6);
    for (const obs of seen) {
      const back = observeShop(obs.messages);
      expect(back?.view).toEqual(obs.view);
    }
  });

  it("reads no conversation without the shop's system prompt", () => {
    for (const t of shopTasks().slice(0, 10)) {
      const messages = [
        { role: "system" as const, content: "" },
        { role: "user" as const, content: t.request.text },
      ];
      expect(observeShop(messages)).toBeNull();
    }
  });

  it("is strict: a changed card or an unknown prompt is unreadable, never half-read", async () => {
    const open = taskOf("open");
    const { seen } = await play(open, [{ type: "search" }, { type: "give_up", reason: "x" }]);
    const msgs = seen[1]!.messages;
    expect(observeShop(msgs)).not.toBeNull();
    const broken = msgs.map((m, i) =>
      i === msgs.length - 1 ? { ...m, content: m.content.replace("★", "*") } : m,
    );
    expect(observeShop(broken)).toBeNull();
    expect(observeShop([{ role: "system", content: "You are a helpful assistant." }, msgs[1]!])).toBeNull();
    expect(observeShop(msgs.slice(0, -1))).toBeNull();
    // A card's description line must be exactly as written: indented once, on one spaced-out line.
    const edit = (f: (text: string) => string) =>
      observeShop(msgs.map((m, i) => (i === msgs.length - 1 ? { ...m, content: f(m.content) } : m)));
    expect(edit((t) => t.replace("\n   ", "\n    "))).toBeNull();
    expect(edit((t) => t.replace(/\n {3}(\S+) /, "\n   $1  "))).toBeNull();
    expect(edit((t) => t.replace(/\n {3}[^\n]*/, "\n   "))).toBeNull();
  });

  it("is strict about a listing's description line too", async () => {
    const open = taskOf("open");
    const { seen } = await play(open, [
      { type: "search" },
      (v) => ({ type: "view", id: lastCards(v)[0] }),
      { type: "give_up", reason: "x" },
    ]);
    const msgs = seen[2]!.messages;
    const detail = msgs.at(-1)!.content;
    expect(detail).toMatch(/\nDescription: \S/);
    const edit = (f: (text: string) => string) =>
      observeShop(msgs.map((m, i) => (i === msgs.length - 1 ? { ...m, content: f(m.content) } : m)));
    expect(edit((t) => t)?.view).toEqual(seen[2]!.view);
    expect(edit((t) => t.replace(/\nDescription: [^\n]*/, ""))).toBeNull();
    expect(edit((t) => t.replace("\nDescription: ", "\nDescription:  "))).toBeNull();
    expect(edit((t) => t.replace(/(\nDescription: [^\n]*)/, "$1\nMore text."))).toBeNull();
  });
});

describe("the text grammar", () => {
  it("reads Action lines in order and names what is wrong with a malformed one", () => {
    const calls = parseActionLines(
      [
        "Thought: I should search.",
        'Action: search({"maxPrice": 200, "amenities": ["breakfast"]})',
        "Action: give_up()",
        "Action: book 12",
        'Action: view(["a"])',
        '  Action:   view({"id": "ab"})  ',
      ].join("\n"),
    );
    expect(calls.map((c) => [c.tool, c.args, c.problem === undefined])).toEqual([
      ["search", { maxPrice: 200, amenities: ["breakfast"] }, true],
      ["give_up", {}, true],
      ["", "book 12", false],
      ["view", ["a"], false],
      ["view", { id: "ab" }, true],
    ]);
    expect(parseActionLines("I would book the second one.")).toEqual([]);
  });
});
