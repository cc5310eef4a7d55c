/**
 * observeShop on episodes with offers: the offer-aware system prompt, every answer a seller can
 * give (accept, counter, reject, quit, invalid, deal) and offer calls as tool calls and as Action
 * lines read back into exactly the view the machine gave the shopper — with messages that carry
 * quotes, newlines, parentheses, an `Action:` of their own and U+2028; and an offer's bookkeeping
 * note (`meta`) kept on its move, never an argument and never rendered.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import type { BargainView } from "../../../environments/bargain/types.ts";
import { type Agent, type Message, runEpisode } from "../../../environments/kernel/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  OFFER_ANSWERS,
  observeShop,
  parseActionLines,
  type ShopOutcome,
  type ShopTask,
  shopMachine,
  shopSystemPrompt,
  shopTrialRecord,
  TOOL_CALL_BATCH,
} from "../../../environments/shop/index.ts";
import { OFFER_RULE_LINE, OFFER_TOOL_LINE } from "../../../environments/shop/prompt.ts";
import { runSearch, searchQuery } from "../../../environments/shop/search.ts";
import { scripted } from "./helpers.ts";

const FIRST_PAGE = { type: "search", sort: "price_low" } as const;

/** A task with offers whose first cheapest-first page has five listings that take offers and one that does not. */
function offersTask(): { task: ShopTask; negotiable: string[]; plain: string } {
  const tasks = buildShopTasks(
    { tasks: 12, seed: 9, negotiable: 0.75, negotiators: 2, maxSteps: 40, families: { open: 1 } },
    DEFAULT_HOTEL_POOL,
  );
  for (const task of tasks) {
    const page = runSearch(task.listings, searchQuery(FIRST_PAGE), task.rules.pageSize).listings;
    const negotiable = page.filter((l) => l.negotiation).map((l) => l.id);
    const plain = page.find((l) => !l.negotiation);
    if (negotiable.length >= 5 && plain) return { task, negotiable, plain: plain.id };
  }
  throw new Error("no task with five negotiable listings and a plain one on the first page");
}

/** A seller that answers each listing's offers from its own queue of bargaining moves (an Error: it fails). */
function plannedSeller(plan: Record<string, (Record<string, unknown> | Error)[]>): Agent<unknown, unknown> {
  return {
    id: "seller-plan",
    act(obs) {
      const v = obs.view as BargainView;
      const next = plan[v.codename]?.shift();
      if (next === undefined) throw new Error(`no answer planned for ${v.codename}`);
      if (next instanceof Error) throw next;
      return { action: next };
    },
  };
}

const NASTY = 'He said "cheap"\nthen left (really) \u2028 a back\\slash, Action: book({"id": "x"})';

describe("observeShop with offers", () => {
  it("reads back every shopper view of an episode with every kind of answer, in tools and text mode", async () => {
    const { task, negotiable, plain } = offersTask();
    const [n1, n2, n3, n4, n5] = negotiable as [string, string, string, string, string];
    const seller = plannedSeller({
      [n1]: [{ type: "offer", price: 1000, talk: '"1000" is my floor (firm) \u2028 ok' }],
      [n2]: [
        { type: "reject", talk: "No." },
        { type: "deal", price: 65.25, talk: 'Deal, "friend".' },
      ],
      [n3]: [{ type: "quit", talk: "I'm out." }],
      [n4]: [
        { type: "deal", price: 999, talk: "Sure at 999" },
        { type: "deal", price: 40 },
      ],
      [n5]: [new Error("the seller's model is down")],
    });
    const text = (lines: string[]) => ({ type: "reply", text: lines.join("\n") });
    const offer = (id: string, price: number, message?: string) =>
      `Action: offer(${JSON.stringify(message === undefined ? { id, price } : { id, price, message })})`;
    const batch = (...calls: [string, Record<string, unknown>][]) => ({
      type: TOOL_CALL_BATCH,
      calls: calls.map(([name, args]) => ({ name, args })),
    });
    const shopper = scripted([
      FIRST_PAGE,
      batch(
        ["offer", { id: n1, price: 50, message: NASTY }],
        ["offer", { id: n2, price: 60.5, message: "" }],
        ["offer", { id: n3, price: 70 }],
        ["offer", { id: plain, price: 10 }],
      ),
      text([
        'Thinking about "it" (a lot).',
        offer(n1, 1000, 'fine "deal"\nthanks'),
        offer(n3, 80),
        offer(n2, 65.25, NASTY),
      ]),
      batch(
        ["offer", { id: n1, price: 900 }],
        ["offer", { id: n4, price: 40 }],
        ["offer", { id: n5, price: 45 }],
      ),
      text([offer(n4, 0), "Action: offer(not json)"]),
      // An accept at an earlier offer's price (the seller may take any price the shopper offered).
      { type: "offer", id: n4, price: 42, message: "Action: give_up()" },
      text(["I'll just think out loud, no call."]),
      { type: "book", id: n2 },
    ]);
    const r = await runEpisode<ShopOutcome>(
      shopMachine,
      { task },
      { shopper, "seller-1": seller, "seller-2": seller },
      { rng: createRng(1), trialKey: "k", replicate: 0 },
    );
    expect(r.output.endReason).toBe("booked");
    expect(r.output.paid).toBe(65.25);
    expect(shopper.seen).toHaveLength(8);
    for (const obs of shopper.seen) expect(observeShop(obs.messages)?.view).toEqual(obs.view);

    // Every answer a seller can give was read back, and the calls as both forms.
    const last = shopper.seen.at(-1)!.view;
    const answers = new Set(
      last.turns.flatMap((t) => t.calls.map((c) => (c.result.kind === "offer" ? c.result.answer : null))),
    );
    for (const a of OFFER_ANSWERS) expect(answers, a).toContain(a);
    expect(last.turns.map((t) => t.mode)).toEqual([
      "tools",
      "tools",
      "text",
      "tools",
      "text",
      "tools",
      "text",
    ]);
    const acceptEarlier = last.turns[5]!.calls[0]!.result;
    expect(acceptEarlier).toMatchObject({ kind: "offer", answer: "accept", price: 42, deal: 40 });
    expect(last.turns[1]!.calls[0]!.call.args).toEqual({ id: n1, price: 50, message: NASTY });
    expect(last.turns[2]!.calls[2]!.call.args).toEqual({ id: n2, price: 65.25, message: NASTY });
  });

  it("keeps each offer's bookkeeping note on its move, never as an argument, never shown, and reads the views back", async () => {
    const { task, negotiable } = offersTask();
    const [n1, n2, n3, n4] = negotiable as [string, string, string, string];
    const seller = plannedSeller({
      [n1]: [{ type: "offer", price: 300, talk: "300." }],
      [n2]: [{ type: "reject", talk: "No." }],
      [n3]: [{ type: "quit", talk: "Bye." }],
    });
    const shopper = scripted([
      FIRST_PAGE,
      // A single call: `meta` at the top level, as a bargaining action carries it.
      { type: "offer", id: n1, price: 50, message: "hi", meta: { note: "note A", ms: 3 } },
      // A batch: each call's own `meta`, beside its arguments; the second is the seller's own
      // counter (a deal at once, no answer asked), the third carries none.
      {
        type: TOOL_CALL_BATCH,
        calls: [
          { name: "offer", args: { id: n2, price: 60 }, meta: { note: "note B" } },
          {
            name: "offer",
            args: { id: n1, price: 300 },
            meta: { note: "note C", tokens: { input: 1, output: 2 } },
          },
          { name: "offer", args: { id: n3, price: 70 } },
        ],
      },
      // Not bookkeeping (a key ActionMeta lacks): an argument the offer tool refuses, as before.
      { type: "offer", id: n4, price: 40, meta: { note: "note D", extra: 1 } },
      { type: "view", id: n4, meta: { note: "note E" } },
      { type: "book", id: n1 },
    ]);
    const r = await runEpisode<ShopOutcome>(
      shopMachine,
      { task },
      { shopper, "seller-1": seller, "seller-2": seller },
      { rng: createRng(1), trialKey: "k", replicate: 0 },
    );
    expect(r.output.endReason).toBe("booked");
    expect(r.output.paid).toBe(300);
    const negotiation = (id: string) => r.output.negotiations!.find((n) => n.id === id)!;
    const buyerNotes = (id: string) =>
      negotiation(id)
        .offers.filter((m) => m.side === "buyer")
        .map((m) => ("note" in m ? m.note : "(none)"));
    expect(buyerNotes(n1)).toEqual(["note A", "note C"]);
    expect(buyerNotes(n2)).toEqual(["note B"]);
    expect(buyerNotes(n3)).toEqual(["(none)"]);
    for (const n of r.output.negotiations!)
      for (const m of n.offers) if (m.side === "seller") expect("note" in m).toBe(false);
    expect(r.output.negotiations!.map((n) => n.id)).not.toContain(n4);

    // The calls as the rules ran them: the arguments alone.
    const last = shopper.seen.at(-1)!.view;
    expect(last.turns[1]!.calls[0]!.call.args).toEqual({ id: n1, price: 50, message: "hi" });
    expect(last.turns[2]!.calls.map((c) => c.call.args)).toEqual([
      { id: n2, price: 60 },
      { id: n1, price: 300 },
      { id: n3, price: 70 },
    ]);
    expect(last.turns[3]!.calls[0]!.result).toMatchObject({ kind: "error" });
    expect((last.turns[3]!.calls[0]!.result as { message: string }).message).toMatch(
      /^invalid arguments for offer: Unrecognized key: "meta"/,
    );
    expect(last.turns[4]!.calls[0]!.call.args).toEqual({ id: n4 });
    expect(last.turns[4]!.calls[0]!.result.kind).toBe("listing");
    expect(r.output.invalidCalls).toBe(1);

    // Bookkeeping is not rendered to the model: its views read back exactly, and no note is in them
    // (note D was an argument, refused, and is echoed as the call was made).
    for (const obs of shopper.seen) {
      expect(observeShop(obs.messages)?.view).toEqual(obs.view);
      expect(JSON.stringify(obs.messages)).not.toMatch(/note [ABCE]/);
    }

    // The export record keeps the notes on the moves.
    const record = JSON.parse(
      JSON.stringify(
        shopTrialRecord({
          run: "r",
          trialKey: "k",
          seq: 0,
          agent: "a",
          replicate: 0,
          task,
          outcome: r.output,
          usage: emptyUsage(),
        }),
      ),
    ) as { negotiations: { id: string; offers: { note?: string }[] }[] };
    expect(record.negotiations.flatMap((n) => n.offers.flatMap((m) => m.note ?? []))).toEqual([
      "note A",
      "note C",
      "note B",
    ]);
  });

  it("reads the system prompt with offers as rules with offers, and no prompt that is not exactly one", () => {
    const rules = { pageSize: 6, maxSteps: 20, maxInvalid: 3 };
    const request = buildShopTasks({ tasks: 1, seed: 1 }, DEFAULT_HOTEL_POOL)[0]!.request;
    const read = (system: string) =>
      observeShop([
        { role: "system", content: system },
        { role: "user", content: request.text },
      ] satisfies Message[]);
    const areas = ["Brooklyn", "Midtown"];
    const withOffers = shopSystemPrompt({ ...rules, offers: true }, areas);
    expect(read(withOffers)?.view.rules).toEqual({ ...rules, offers: true });
    expect(read(shopSystemPrompt(rules, areas))?.view.rules).toEqual(rules);
    // Half an offers prompt is neither: a line of one and the rest of the other.
    expect(read(withOffers.replace(`${OFFER_RULE_LINE}\n`, ""))).toBeNull();
    expect(read(withOffers.replace(`${OFFER_TOOL_LINE}\n`, ""))).toBeNull();
    expect(read(withOffers.replace("five tools", "four tools"))).toBeNull();
    expect(read(shopSystemPrompt(rules, areas).replace("four tools", "five tools"))).toBeNull();
    expect(read(`${withOffers}\n`)).toBeNull();
  });

  it("is strict about an offer's result: a changed sentence, price or quote is unreadable", async () => {
    const { task, negotiable } = offersTask();
    const id = negotiable[0]!;
    const seller = plannedSeller({ [id]: [{ type: "offer", price: 300, talk: 'Say "300".' }] });
    const shopper = scripted([
      FIRST_PAGE,
      { type: "offer", id, price: 99.5, message: "hi" },
      { type: "give_up", reason: "x" },
    ]);
    await runEpisode<ShopOutcome>(
      shopMachine,
      { task },
      { shopper, "seller-1": seller, "seller-2": seller },
      { rng: createRng(1), trialKey: "k", replicate: 0 },
    );
    const msgs = shopper.seen[2]!.messages;
    const answer = msgs.at(-1)!.content;
    expect(answer).toContain('The seller counters at $300 a night. The seller says: "Say \\"300\\"."');
    const edit = (f: (t: string) => string) =>
      observeShop(msgs.map((m, i) => (i === msgs.length - 1 ? { ...m, content: f(m.content) } : m)));
    expect(edit((t) => t)?.view).toEqual(shopper.seen[2]!.view);
    expect(edit((t) => t.replace("$99.50", "$99.5"))).toBeNull();
    expect(edit((t) => t.replace("counters at $300", "counters at $300.00"))).toBeNull();
    expect(edit((t) => t.replace('\\"300\\"', '"300"'))).toBeNull();
    expect(edit((t) => t.replace(" The seller says: ", " The seller says:  "))).toBeNull();
    expect(
      edit((t) => t.replace("To accept, offer exactly $300", "To accept, offer exactly $301")),
    ).toBeNull();
    expect(
      edit((t) => t.replace("The seller counters", "The seller rejects it. The seller counters")),
    ).toBeNull();
    // An offer's answer is read only as the answer to an offer call.
    const echo = msgs.length - 2;
    expect(
      observeShop(
        msgs.map((m, i) => (i === echo ? { ...m, content: m.content.replace(/^offer\(/, "view(") } : m)),
      ),
    ).toBeNull();
  });
});

describe("the text grammar with offers", () => {
  it("reads an offer line whose message holds quotes, escaped newlines, parentheses and U+2028", () => {
    const args = { id: "k3x9qa", price: 180, message: NASTY };
    const calls = parseActionLines(`Let me offer.\nAction: offer(${JSON.stringify(args)})\n`);
    expect(calls).toEqual([{ tool: "offer", args }]);
    expect(
      parseActionLines('Action: offer({"id": "k3x9qa", "price": 180, "message": "let\'s talk (now)"})'),
    ).toEqual([{ tool: "offer", args: { id: "k3x9qa", price: 180, message: "let's talk (now)" } }]);
  });
});
