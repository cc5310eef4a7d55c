import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import {
  isShopNonResponse,
  NO_CALL_MESSAGE,
  type ShopTask,
  shopTrialRecord,
  TOOL_CALL_BATCH,
} from "../../../environments/shop/index.ts";
import { lastCards, play, taskOf } from "./helpers.ts";

const batch = (...calls: [string, Record<string, unknown>][]) => ({
  type: TOOL_CALL_BATCH,
  calls: calls.map(([name, args]) => ({ name, args })),
});

function record(task: ShopTask, outcome: Parameters<typeof shopTrialRecord>[0]["outcome"]) {
  return shopTrialRecord({
    run: "r",
    trialKey: "k",
    seq: 0,
    agent: "a",
    replicate: 0,
    task,
    outcome,
    usage: emptyUsage(),
  });
}

describe("shop machine rules", () => {
  const open = taskOf("open");

  it("books only a listing it has shown: a real but unshown id is an error result, not a booking", async () => {
    const unshown = open.listings.at(-1)!.id; // last in the default order: not on page 1
    const { output, seen } = await play(open, [
      { type: "book", id: unshown },
      { type: "search" },
      (v) => ({ type: "book", id: lastCards(v)[0] }),
    ]);
    expect(output.endReason).toBe("booked");
    expect(output.bookedId).toBe(open.listings[0]!.id);
    expect(output.trajectory[0]).toMatchObject({ step: 1, tool: "book", ok: false });
    expect(output.trajectory[0]!.summary).toMatch(/is not among the results you have been shown/);
    expect(seen[1]!.messages.at(-1)!.content).toMatch(/^Error: listing ".*" is not among the results/);
    expect(output.invalidCalls).toBe(1);
    expect(output.shown.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("answers malformed arguments with the zod error and an unknown tool by name", async () => {
    const { output, seen } = await play(open, [
      { type: "search", maxPrice: "cheap" },
      { type: "search", neighbourhood: "SoHo" },
      { type: "search" },
      { type: "purchase", id: "x" },
      { type: "give_up", reason: "testing" },
    ]);
    const said = [1, 2, 4].map((i) => seen[i]!.messages.at(-1)!.content);
    expect(said[0]).toMatch(/^Error: invalid arguments for search: maxPrice: /);
    expect(said[1]).toMatch(/^Error: invalid arguments for search: .*neighbourhood/);
    expect(said[2]).toMatch(/^Error: there is no tool "purchase"/);
    expect(output.endReason).toBe("gave-up");
    expect(output.invalidCalls).toBe(3);
  });

  it("ends as invalid after maxInvalid invalid calls in a row; a valid call resets the count", async () => {
    const { output } = await play(open, [
      { type: "view", id: "nope" },
      { type: "view", id: "nope" },
      { type: "search" },
      { type: "view", id: "nope" },
      { type: "reply", text: "I am thinking about it." },
      { type: "book", id: "nope" },
    ]);
    expect(output.endReason).toBe("invalid");
    expect(output.steps).toBe(6);
    expect(output.nonResponse?.reason).toMatch(/^3 invalid calls in a row \(last: listing "nope"/);
    expect(output.nonResponse?.raw).toBe('book({"id":"nope"})');
    expect(isShopNonResponse(output)).toBe(true);
  });

  it("ends out of steps at the budget, with the calls after it not run", async () => {
    const searches = Array.from({ length: 14 }, (_, i) => ({ type: "search", page: (i % 3) + 1 }));
    const { output, seen } = await play(open, [
      ...searches,
      batch(["search", {}], ["book", { id: open.listings[0]!.id }]),
    ]);
    expect(output.endReason).toBe("out-of-steps");
    expect(output.steps).toBe(15);
    expect(output.trajectory).toHaveLength(16);
    expect(output.trajectory.at(-1)).toMatchObject({
      step: null,
      tool: "book",
      ok: false,
      summary: "not run: the episode was over",
    });
    expect(seen.at(-1)!.messages.at(-1)!.content).toMatch(/\[14 of 15 tool calls used\]$/);
    expect(isShopNonResponse(output)).toBe(false);
  });

  it("answers parallel calls one by one in order; a booking in the middle ends the episode there", async () => {
    const { output, seen } = await play(open, [
      batch(["search", {}], ["search", { page: 2 }]),
      (v) => {
        const [a, b] = lastCards(v);
        return batch(
          ["view", { id: a }],
          ["book", { id: b }],
          ["view", { id: a }],
          ["give_up", { reason: "x" }],
        );
      },
    ]);
    // The first message's two results came as two user messages, in order.
    const msgs = seen[1]!.messages;
    expect(msgs.slice(-3).map((m) => m.role)).toEqual(["assistant", "user", "user"]);
    expect(msgs.at(-2)!.content).toMatch(/^Found 24 listings \(page 1 of 3/);
    expect(msgs.at(-1)!.content).toMatch(/^Found 24 listings \(page 2 of 3/);
    expect(output.endReason).toBe("booked");
    expect(output.bookedId).toBe(open.listings[9]!.id);
    expect(output.steps).toBe(4);
    expect(output.trajectory.map((t) => [t.step, t.tool])).toEqual([
      [1, "search"],
      [2, "search"],
      [3, "view"],
      [4, "book"],
      [null, "view"],
      [null, "give_up"],
    ]);
    expect(output.shown.find((s) => s.id === open.listings[8]!.id)).toMatchObject({
      page: 2,
      rank: 1,
      viewed: true,
    });
  });

  it("reads a text reply by the grammar: Action lines in order, no Action line is an invalid call", async () => {
    const { output, seen } = await play(open, [
      { type: "reply", text: "Let me look around first." },
      {
        type: "reply",
        text: 'Thought: search cheap.\nAction: search({"sort": "price_low"})\nAction: view({"id": oops})',
      },
      (v) => ({ type: "reply", text: `Action: book({"id": "${lastCards(v)[0]}"})` }),
    ]);
    expect(seen[1]!.messages.at(-1)!.content).toBe(
      `Result of call 1 (no call):\nError: ${NO_CALL_MESSAGE}\n[1 of 15 tool calls used]`,
    );
    const second = seen[2]!.messages.at(-1)!.content;
    expect(second).toMatch(/^Result of call 1 \(search\):\nFound 24 listings/);
    expect(second).toMatch(/\n\nResult of call 2 \(view\):\nError: the arguments of view are not valid JSON/);
    expect(output.endReason).toBe("booked");
    const cheapest = Math.min(...open.listings.map((l) => l.price));
    expect(open.listings.find((l) => l.id === output.bookedId)!.price).toBe(cheapest);
  });

  it("records an agent failure as the end of the episode, a non-response with the error", async () => {
    const { output, agentErrors } = await play(open, [
      { type: "search" },
      new Error("HTTP 500 after 6 attempts"),
    ]);
    expect(agentErrors).toBe(1);
    expect(output.endReason).toBe("agent-error");
    expect(output.nonResponse).toEqual({ reason: "agent error: HTTP 500 after 6 attempts", raw: "" });
  });

  it("judges success by what was booked: admissible when one exists, a give-up when none does", async () => {
    const infeasible = taskOf("infeasible");
    const gaveUp = await play(infeasible, [{ type: "give_up", reason: "nothing fits" }]);
    expect(record(infeasible, gaveUp.output)).toMatchObject({
      success: true,
      booked: null,
      admissibleCount: 0,
      cheapestAdmissible: null,
      constraints: null,
      giveUpReason: "nothing fits",
    });
    const bookedAnyway = await play(infeasible, [
      { type: "search" },
      (v) => ({ type: "book", id: lastCards(v)[0] }),
    ]);
    const r = record(infeasible, bookedAnyway.output);
    expect(r.success).toBe(false);
    expect(Object.values(r.constraints!)).toContain(false);

    const good = open.admissible[0]!;
    const quitter = await play(open, [{ type: "give_up", reason: "none" }]);
    expect(record(open, quitter.output).success).toBe(false);
    const onPage = open.listings.findIndex((l) => l.id === good);
    const page = Math.floor(onPage / 8) + 1;
    const booked = await play(open, [
      { type: "search", page },
      { type: "book", id: good },
    ]);
    const rb = record(open, booked.output);
    expect(rb).toMatchObject({ success: true, endReason: "booked", admissibleCount: open.admissible.length });
    expect(rb.booked).toMatchObject({
      id: good,
      admissible: true,
      page,
      rank: (onPage % 8) + 1,
      viewed: false,
    });
    expect(Object.values(rb.constraints!).every(Boolean)).toBe(true);
    expect(rb.cheapestAdmissible).toBe(Math.min(...rb.admissible.map((l) => l.price)));
    expect(rb.shown).toHaveLength(8);
    expect(JSON.parse(JSON.stringify(rb))).toEqual(rb);
  });

  it("filters, sorts and pages as the search asks, and refuses an unknown area", async () => {
    const c = open.request.constraints;
    const { seen } = await play(open, [
      {
        type: "search",
        area: c.areas![0]!.toUpperCase(),
        maxPrice: c.maxPrice,
        minStars: c.minStars ?? undefined,
        amenities: c.amenities,
        sort: "rating",
      },
      { type: "search", area: "Atlantis" },
      { type: "give_up", reason: "done" },
    ]);
    const r = seen[1]!.view.turns[0]!.calls[0]!.result;
    if (r.kind !== "results") throw new Error("expected results");
    const inArea = open.admissible.filter(
      (id) => open.listings.find((l) => l.id === id)!.area === c.areas![0],
    );
    expect(r.total).toBe(inArea.length);
    const scores = r.cards.map((x) => x.reviewScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(seen[2]!.messages.at(-1)!.content).toMatch(/^Error: unknown area "Atlantis": the areas are /);
  });
});
