/**
 * Reference values for the negotiation estimators' pieces: the clustered mean against the existing
 * clustered share and a hand computation, the paper's normalized profits on hand-worked numbers,
 * what counts as quoting another seller, the cap judged at the price paid, pairing, and records
 * without the offer fields.
 */
import { describe, expect, it } from "vitest";
import {
  analyzeNegotiation,
  breaksConstraint,
  buyerPairs,
  clusteredMean,
  clusteredShare,
  compareNegotiatingBuyers,
  dollarAmounts,
  type NegotiationEpisode,
  type NegotiationUnit,
  negotiationTables,
  normalizedProfits,
  priceLadderChart,
  quotedOffers,
  type ShopEpisode,
  sellerNamer,
} from "../../../analysis/shop/index.ts";
import type { Negotiation, NegotiationMove } from "../../../environments/shop/types.ts";

function unit(over: Partial<NegotiationUnit>): NegotiationUnit {
  return {
    buyer: "b",
    seller: "s",
    role: "seller-1",
    taskId: "t1",
    replicate: 0,
    id: "L1",
    listPrice: 250,
    cost: 150,
    cap: 200,
    deal: null,
    closed: false,
    sellerInvalid: 0,
    buyerOffers: 1,
    booked: false,
    offers: [],
    ...over,
  };
}

const move = (
  step: number,
  side: "buyer" | "seller",
  m: NegotiationMove["move"],
  price: number | null,
  message = "",
) => ({ step, side, move: m, price, message }) as NegotiationMove;

function negotiation(id: string, offers: NegotiationMove[], over: Partial<Negotiation> = {}): Negotiation {
  return {
    id,
    seller: "seller-1",
    listPrice: 200,
    cost: 150,
    cap: 300,
    offers,
    deal: null,
    closed: false,
    sellerInvalid: 0,
    ...over,
  };
}

/** An episode with what the negotiation estimators read; one message per step unless `messageOf` says. */
function episode(
  over: Partial<NegotiationEpisode> & { messageOf?: Record<number, number> },
): NegotiationEpisode {
  const { messageOf, ...rest } = over;
  const steps = Object.entries(messageOf ?? {}).map(([step, turn]) => ({
    step: Number(step),
    turn,
    tool: "x",
    args: {},
    ok: true,
  }));
  return {
    agent: "b",
    taskId: "t1",
    replicate: 0,
    request: { constraints: { maxPrice: 300, minStars: null, areas: null, amenities: [] } },
    booked: null,
    endReason: "gave-up",
    constraints: null,
    shown: [],
    trajectory: steps,
    negotiations: [],
    paid: null,
    deadlock: false,
    ...rest,
  } as unknown as NegotiationEpisode;
}

describe("clustered mean", () => {
  it("on 0/1 values is the clustered share (its estimate and SE)", () => {
    const items = [
      ["a", 1],
      ["a", 0],
      ["b", 1],
      ["b", 1],
      ["c", 0],
      ["d", 1],
      ["d", 0],
      ["d", 0],
    ] as const;
    const m = clusteredMean(items.map(([cluster, v]) => ({ cluster, value: v })));
    const s = clusteredShare(items.map(([cluster, v]) => ({ cluster, hit: v === 1 })));
    expect(m.estimate).toBeCloseTo(s.estimate!, 14);
    expect(m.se).toBeCloseTo(s.se!, 14);
    expect(m.clusters).toBe(4);
  });

  it("by hand: residual sums per cluster, G/(G−1), over n²", () => {
    // values 1, 3 | 5 | 7, 9: mean 5; cluster residuals −6, 0, +6; Σ² = 72; G = 3.
    const m = clusteredMean(
      [
        ["x", 1],
        ["x", 3],
        ["y", 5],
        ["z", 7],
        ["z", 9],
      ].map(([cluster, value]) => ({ cluster: cluster as string, value: value as number })),
    );
    expect(m.estimate).toBe(5);
    expect(m.se).toBeCloseTo(Math.sqrt(((3 / 2) * 72) / 25), 14);
    // Student's t with G − 1 = 2 degrees of freedom (scipy: t.ppf(0.975, 2)), not the normal 1.96.
    expect(m.low).toBeCloseTo(5 - 4.302652729749462 * m.se!, 8);
    expect(m.high).toBeCloseTo(5 + 4.302652729749462 * m.se!, 8);
  });

  it("no values: nothing; one cluster: the mean without an interval", () => {
    expect(clusteredMean([])).toMatchObject({ n: 0, estimate: null, low: null });
    expect(
      clusteredMean([
        { cluster: "a", value: 2 },
        { cluster: "a", value: 4 },
      ]),
    ).toMatchObject({
      estimate: 3,
      se: null,
      low: null,
    });
  });
});

describe("normalized profits with B = the cap and C = the cost", () => {
  it("the paper's definitions on worked numbers: MI, CI, the small-gap rule, no deal, no cap", () => {
    const f = normalizedProfits([
      unit({ taskId: "t1", cap: 200, cost: 150, deal: 170 }), // MI: (200−170)/50 = 0.6, (170−150)/50 = 0.4
      unit({ taskId: "t2", cap: 100, cost: 120, deal: 110 }), // CI: (100−110)/20 = −0.5, (110−120)/20 = −0.5
      unit({ taskId: "t3", cap: 150.4, cost: 150, deal: 150.5 }), // gap < $1: B′ = 151, (151−150.5)/1, (150.5−150)/1
      unit({ taskId: "t4", cap: 200, cost: 150, deal: null }), // no deal: no profit
      unit({ taskId: "t5", cap: null, cost: 150, deal: 160 }), // no cap: left out, counted
      unit({ taskId: "t6", cap: null, cost: 150, deal: null }),
    ]);
    expect(f.capped).toBe(4);
    expect(f.uncapped).toEqual({ negotiations: 2, deals: 1 });
    expect(f.paper.ALL.deals).toBe(3);
    expect(f.paper.MI.sessions).toBe(3);
    expect(f.paper.CI.sessions).toBe(1);
    expect(f.paper.ALL.buyer.snp).toBeCloseTo(0.6 - 0.5 + 0.5, 12);
    expect(f.paper.ALL.seller.snp).toBeCloseTo(0.4 - 0.5 + 0.5, 12);
    expect(f.buyer.estimate).toBeCloseTo(0.6 / 3, 12);
    expect(f.seller.estimate).toBeCloseTo(0.4 / 3, 12);
    expect(f.paper.ALL.dealRateAll).toBe(3 / 4);
  });
});

describe("sellers played against each other", () => {
  it("reads dollar amounts only where they are marked as dollars", () => {
    expect(dollarAmounts("Hotel X is $120, and Y is $1,250.50 a night")).toEqual([120, 1250.5]);
    expect(dollarAmounts("US$ 99 or USD 101 or 130 dollars or 140 bucks")).toEqual([99, 101, 130, 140]);
    expect(dollarAmounts("a 4-star for 2 nights, room 120")).toEqual([]);
  });

  it("counts a price seen earlier from another listing, not the pair's own numbers, not a price from the same message", () => {
    const e = episode({
      shown: [
        { id: "A", price: 200, step: 1 },
        { id: "B", price: 180, step: 1 },
        { id: "C", price: 175, step: 4 },
      ] as NegotiationEpisode["shown"],
      // Steps 4 and 5 are one message: C's price (shown by step 4) was not seen when step 5 was written.
      messageOf: { 1: 1, 2: 2, 3: 3, 4: 4, 5: 4, 6: 5, 7: 6 },
      negotiations: [
        negotiation("A", [
          move(2, "buyer", "offer", 100, "Would you take $100?"), // its own offer
          move(2, "seller", "counter", 190),
          move(3, "buyer", "offer", 120, "B is at $180."), // B's list price: a quote
          move(3, "seller", "counter", 185),
          move(5, "buyer", "offer", 130, "C asks $175."), // seen only in the same message: not yet
          move(5, "seller", "counter", 184),
          move(6, "buyer", "offer", 140, "You said $190, and the cap is $300; the list is $200."), // own numbers
          move(6, "seller", "counter", 183),
        ]),
        negotiation(
          "B",
          [move(4, "buyer", "offer", 150, "A countered at $185."), move(4, "seller", "counter", 178)],
          { listPrice: 180 },
        ),
        negotiation("C", [move(7, "buyer", "offer", 150, "B says $178, C lists $175")], { listPrice: 175 }),
      ],
    });
    const q = quotedOffers(e);
    expect(q.offers).toBe(6);
    expect(q.withAmount).toBe(6);
    expect(q.quotes.map((x) => [x.id, x.step, x.amount, x.from])).toEqual([
      ["A", 3, 180, { id: "B", source: "list" }],
      ["B", 4, 185, { id: "A", source: "counter" }],
      ["C", 7, 178, { id: "B", source: "counter" }],
    ]);
  });
});

describe("risk flags", () => {
  it("the cap is judged at the price paid: a deal under the cap on a listing listed above it breaks nothing", () => {
    const booked = { id: "A", price: 320 } as NegotiationEpisode["booked"];
    const base = { booked, endReason: "booked" as const, constraints: { price: false, stars: true } };
    expect(breaksConstraint(episode({ ...base, paid: 290 }))).toBe(false);
    expect(breaksConstraint(episode({ ...base, paid: 320 }))).toBe(true);
    expect(
      breaksConstraint(episode({ ...base, paid: 290, constraints: { price: false, stars: false } })),
    ).toBe(true);
  });
});

describe("paired comparisons", () => {
  it("every pair of buyers once, an og-narrator buyer first", () => {
    expect(buyerPairs(["plain", "og-narrator", "other"])).toEqual([
      ["og-narrator", "plain"],
      ["plain", "other"],
      ["og-narrator", "other"],
    ]);
  });

  it("pairs on task and replicate: a unit the other buyer did not play is left out", () => {
    const booked = (price: number) =>
      ({
        id: "A",
        price,
        negotiation: { seller: "seller-1", cost: 100 },
      }) as unknown as NegotiationEpisode["booked"];
    const ep = (agent: string, taskId: string, replicate: number, paid: number) =>
      episode({ agent, taskId, replicate, booked: booked(200), paid, endReason: "booked" });
    const eps = [
      ep("t", "x", 0, 150),
      ep("c", "x", 0, 200),
      ep("t", "x", 1, 170),
      ep("c", "x", 1, 200),
      ep("t", "y", 0, 100), // the control never played y
      ep("c", "z", 0, 999), // nor the treatment z
    ];
    const c = compareNegotiatingBuyers(eps, "t", "c", { draws: 0 });
    expect(c.units).toBe(2);
    expect(c.tasks).toBe(1);
    expect(c.paid).toMatchObject({ units: 2, treatment: 160, control: 200, difference: -40, interval: null });
    // P′_b = (300 − paid)/(300 − 100): (150 + 130)/2/200 − 100/200.
    expect(c.buyerNormalized.difference).toBeCloseTo((150 + 130) / 2 / 200 - 100 / 200, 12);
    // Records in another order: the same comparison.
    expect(compareNegotiatingBuyers([...eps].reverse(), "t", "c", { draws: 0 })).toEqual(c);
  });
});

describe("narrator fallbacks", () => {
  const FALLBACK = "narrator: no usable sentence in 3 answers; template line used";
  const noted = (m: NegotiationMove, note: string) => ({ ...m, note });
  /** An episode of `agent` whose buyer offers carry `notes` (null: no note), each answered by a counter. */
  const narrated = (agent: string, notes: (string | null)[], taskId = "t1") =>
    episode({
      agent,
      taskId,
      negotiations: [
        negotiation(
          "L1",
          notes.flatMap((note, i) => {
            const offer = move(i + 1, "buyer", "offer", 100 + i);
            // A seller's move with the note text is not the narrator's: never counted.
            const counter = noted(move(i + 1, "seller", "counter", 190), FALLBACK);
            return [note === null ? offer : noted(offer, note), counter];
          }),
        ),
      ],
    });
  const LLM = "og-narrator:openai:m";

  it("counts per buyer the offers its LLM narrator worded and those said with the template line", () => {
    const a = analyzeNegotiation([
      narrated(LLM, [FALLBACK, null, FALLBACK]),
      narrated(LLM, [FALLBACK, "narrator: something else"], "t2"),
      narrated("og-narrator", [null, null]),
      // A label that only starts og-narrator: has no narrator model (the registry takes openai: only).
      narrated("og-narrator:haggler", [FALLBACK]),
    ]);
    expect(a.buyers.map((b) => [b.buyer, b.narratedOffers, b.narratorFallbacks])).toEqual([
      [LLM, 5, 3],
      ["og-narrator", null, null],
      ["og-narrator:haggler", null, null],
    ]);
    expect(a.notes).toEqual([
      `${LLM}: 3 of 5 narrated offers (60.0%) fell back to the template line (openai:m gave no usable sentence), so these results are mostly the template narrator's, not openai:m's.`,
    ]);
    const table = negotiationTables(a)[1]!;
    expect(table.header.at(-1)).toBe("narrator fallbacks");
    expect(table.rows.map((r) => r.at(-1))).toEqual(["3 of 5 offers (60.0%)", "", ""]);
    expect(table.note).toContain(a.notes[0]);
  });

  it("no sentence when half or fewer fell back, and no column without an LLM narrator", () => {
    const half = analyzeNegotiation([narrated(LLM, [FALLBACK, null])]);
    expect(half.buyers[0]).toMatchObject({ narratedOffers: 2, narratorFallbacks: 1 });
    expect(half.notes).toEqual([]);
    const none = analyzeNegotiation([narrated("og-narrator", [null]), narrated("walker", [])]);
    expect(none.notes).toEqual([]);
    expect(negotiationTables(none).flatMap((t) => t.header)).not.toContain("narrator fallbacks");
  });
});

describe("records", () => {
  it("names seller roles by the run's specs, and a role the run does not name by itself", () => {
    const name = sellerNamer(["rule:boulware", "sim:llm"]);
    expect([name("seller-1"), name("seller-2"), name("seller-3")]).toEqual([
      "rule:boulware",
      "sim:llm",
      "seller-3",
    ]);
    expect(sellerNamer(undefined)("seller-1")).toBe("seller-1");
  });

  it("an offers run in which nobody made an offer: the section, empty, and no ladders to draw", () => {
    const booked = { id: "A", price: 120 } as NegotiationEpisode["booked"];
    const a = analyzeNegotiation([
      episode({ agent: "careful", booked, paid: 120, endReason: "booked" }),
      episode({ agent: "careful", taskId: "t2", booked, paid: 120, endReason: "booked" }),
    ]);
    expect(a).toMatchObject({ episodes: 2, negotiations: 0, deals: 0, pairs: [] });
    expect(a.buyers[0]).toMatchObject({ buyer: "careful", negotiations: 0, bookings: 2 });
    expect(a.buyers[0]!.dealRate.estimate).toBeNull();
    expect(a.buyers[0]!.paidDiscount.estimate).toBe(0);
    expect(priceLadderChart(a)).toBeNull();
    expect(negotiationTables(a)[0]!.rows).toEqual([]);
  });

  it("a record of an offers run without the offer fields is named, not skipped", () => {
    const ok = episode({});
    const bad = {
      ...episode({ taskId: "t9", agent: "x" }),
      negotiations: undefined,
    } as unknown as ShopEpisode;
    expect(() => analyzeNegotiation([ok, bad])).toThrow(
      /shop record 1 \(task t9, agent x\) lacks the offer fields/,
    );
  });
});
