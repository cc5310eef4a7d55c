/**
 * Known truth on a task built by hand: six listings, a client whose utility is written out, and
 * every value the client estimators report worked by hand below — V, S, the best admissible
 * listing, regret per possible booking, what each sim shopper learns and meets by luck, and the
 * careful shopper's logit over what it opened. The sim shoppers play it against sim:terse through
 * the real machine; every record, and the analysis of them, must agree with the hand.
 */
import { describe, expect, it } from "vitest";
import { analyzeClients, clientEpisodes } from "../../../../analysis/shop/client/index.ts";
import { shopEpisodesFromRecords } from "../../../../analysis/shop/index.ts";
import {
  type Listing,
  requestText,
  type ShopTask,
  type ShopTrialRecord,
} from "../../../../environments/shop/index.ts";
import { playClients } from "./sim.ts";

function listing(
  id: string,
  rank: number,
  a: Pick<
    Listing,
    "price" | "stars" | "area" | "neighborhood" | "freeCancellation" | "breakfast" | "reviewScore"
  >,
): Listing {
  return {
    id,
    hotelId: rank,
    name: `Hotel ${id.toUpperCase()}`,
    chain: "Independent",
    // One room type for all: its logit term cancels.
    roomType: "Standard King Room",
    reviewCount: 500,
    treatments: { rank, sponsored: false, endorsed: false, roomsLeft: null, wasPrice: null },
    description: {
      arm: "neutral",
      wording: null,
      text: `Hotel ${id.toUpperCase()} stands in ${a.neighborhood}, ${a.area}.`,
      claims: null,
    },
    ...a,
  };
}

// The client: at most $250, at least 3 stars, Midtown, breakfast a must.
const constraints = { maxPrice: 250, minStars: 3, areas: ["Midtown"], amenities: ["breakfast" as const] };
// V(l) = 300 + 20·(review − 8) + 30·(stars − 3) + 10·fc + 15·breakfast + 20·[Midtown].
const utility = {
  base: 300,
  review: 20,
  stars: 30,
  amenities: { free_cancellation: 10, breakfast: 15 },
  areas: { Midtown: 20 },
};
const mid = { area: "Midtown", neighborhood: "Kips Bay" };
const LISTINGS = [
  // A: V = 300 + 0 + 0 + 15 + 20 = 335; S = 135. Admissible.
  listing("aaaaaa", 1, {
    ...mid,
    price: 200,
    stars: 3,
    reviewScore: 8,
    freeCancellation: false,
    breakfast: true,
  }),
  // B: V = 300 + 10 + 30 + 10 + 15 + 20 = 385; S = 145. Admissible: the best.
  listing("bbbbbb", 2, {
    ...mid,
    price: 240,
    stars: 4,
    reviewScore: 8.5,
    freeCancellation: true,
    breakfast: true,
  }),
  // C: no breakfast (S would be 160): not acceptable.
  listing("cccccc", 3, {
    ...mid,
    price: 180,
    stars: 3,
    reviewScore: 9,
    freeCancellation: false,
    breakfast: false,
  }),
  // D: Brooklyn: not acceptable.
  listing("dddddd", 4, {
    area: "Brooklyn",
    neighborhood: "Williamsburg",
    price: 150,
    stars: 4,
    reviewScore: 8,
    freeCancellation: false,
    breakfast: true,
  }),
  // E: two stars: not acceptable.
  listing("eeeeee", 5, {
    ...mid,
    price: 120,
    stars: 2,
    reviewScore: 8,
    freeCancellation: false,
    breakfast: true,
  }),
  // F: $320, over the cap: not acceptable.
  listing("ffffff", 6, {
    ...mid,
    price: 320,
    stars: 5,
    reviewScore: 9,
    freeCancellation: true,
    breakfast: true,
  }),
];

const TASK: ShopTask = {
  env: "shop",
  taskId: "hand-1",
  family: "open",
  request: { text: requestText(constraints, []), constraints, wishes: [] },
  listings: LISTINGS,
  rules: { pageSize: 8, maxSteps: 15, maxInvalid: 3 },
  admissible: ["aaaaaa", "bbbbbb"],
  dominance: null,
  client: { utility },
};

/** Regret of each possible booking: best S (B's 145) less the booking's S if acceptable, else 0. */
const REGRET: Record<string, number> = {
  aaaaaa: 10,
  bbbbbb: 0,
  cccccc: 145,
  dddddd: 145,
  eeeeee: 145,
  ffffff: 145,
};
const SURPLUS: Record<string, number> = { aaaaaa: 135, bbbbbb: 145 };
/** The requirements (price, stars, area, breakfast) each booking meets without having been told them. */
const MET: Record<string, string[]> = {
  aaaaaa: ["price", "stars", "area", "breakfast"],
  bbbbbb: ["price", "stars", "area", "breakfast"],
  cccccc: ["price", "stars", "area"],
  dddddd: ["price", "stars", "breakfast"],
  eeeeee: ["price", "area", "breakfast"],
  ffffff: ["stars", "area", "breakfast"],
};
const HIDDEN = ["price", "stars", "area", "breakfast"];

/**
 * The careful shopper's logit (β = CAREFUL_BETA: −2.5 ln p, 0.6 per review point, 0.3 per star,
 * 0.4 free cancellation, 0.3 breakfast; rank r on the page −0.15, −0.3, −0.45, −0.6, −0.8 for
 * r = 2…6), worked by hand. sim:careful for a terse client knows no requirement: one unfiltered
 * search shows all six at ranks 1–6 and it opens them all. sim:asks-first learns every requirement
 * and its filtered search shows A and B only, at ranks 1 and 2.
 */
const u = (price: number, review: number, stars: number, fc: number, bf: number, rank: number) =>
  -2.5 * Math.log(price) +
  0.6 * review +
  0.3 * stars +
  0.4 * fc +
  0.3 * bf +
  [0, 0, -0.15, -0.3, -0.45, -0.6, -0.8][rank]!;
const softmax = (xs: number[]) => {
  const e = xs.map((x) => Math.exp(x));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
};
const P_CAREFUL = softmax([
  u(200, 8, 3, 0, 1, 1),
  u(240, 8.5, 4, 1, 1, 2),
  u(180, 9, 3, 0, 0, 3),
  u(150, 8, 4, 0, 1, 4),
  u(120, 8, 2, 0, 1, 5),
  u(320, 9, 5, 1, 1, 6),
]);
const P_ASKS = softmax([u(200, 8, 3, 0, 1, 1), u(240, 8.5, 4, 1, 1, 2)]);
const IDS = LISTINGS.map((l) => l.id);

const REPLICATES = 160;

async function play(shopper: string): Promise<ShopTrialRecord[]> {
  return playClients({
    tasks: [TASK],
    shopper,
    client: "terse",
    replicates: REPLICATES,
    seed: `hand/${shopper}`,
  });
}

describe("known truth on a hand-built task, against sim:terse", () => {
  it("the hand's numbers: B is the best admissible listing, at a surplus of $145", () => {
    // A sanity check of the hand table itself against the formula written in the comments.
    const v = (l: Listing) =>
      300 +
      20 * (l.reviewScore - 8) +
      30 * (l.stars - 3) +
      (l.freeCancellation ? 10 : 0) +
      (l.breakfast ? 15 : 0) +
      (l.area === "Midtown" ? 20 : 0);
    expect(v(LISTINGS[0]!) - 200).toBe(135);
    expect(v(LISTINGS[1]!) - 240).toBe(145);
    expect(P_ASKS[0]).toBeCloseTo(1 / (1 + Math.exp(-2.5 * Math.log(1.2) + 0.3 + 0.3 + 0.4 - 0.15)), 12);
  });

  for (const shopper of ["asks-first", "careful"] as const)
    it(`sim:${shopper}: each record's success, surplus, regret, uncovered requirements and burden are the hand's, and its bookings follow the hand's logit`, async () => {
      const records = await play(shopper);
      const p = shopper === "careful" ? P_CAREFUL : P_ASKS;
      const counts = new Map<string, number>();
      for (const r of records) {
        expect(r.endReason).toBe("booked");
        const id = r.booked!.id;
        counts.set(id, (counts.get(id) ?? 0) + 1);
        expect(r.bestAdmissible).toEqual({ id: "bbbbbb", surplus: 145 });
        expect(r.regret).toBeCloseTo(REGRET[id]!, 9);
        expect(r.surplus).toBeCloseTo(SURPLUS[id] ?? 0, 9);
        expect(r.success).toBe(id in SURPLUS);
        expect(r.uncovered!.hidden).toEqual(HIDDEN);
        if (shopper === "asks-first") {
          // Open question (draws out the price), then stars, area, free cancellation, breakfast.
          expect(r.uncovered!.learned).toEqual(HIDDEN);
          expect(r.uncovered!.metByLuck).toEqual([]);
          expect(r.burden).toEqual({ messages: 5, repeats: 0, patienceOut: false });
        } else {
          expect(r.uncovered!.learned).toEqual([]);
          expect(r.uncovered!.metByLuck).toEqual(MET[id]);
          expect(r.burden).toEqual({ messages: 0, repeats: 0, patienceOut: false });
        }
      }
      // The bookings are draws from the hand's logit: each share within 4 binomial SDs of it.
      IDS.forEach((id, i) => {
        const q = p[i] ?? 0;
        const share = (counts.get(id) ?? 0) / records.length;
        expect(Math.abs(share - q), `${shopper} ${id}`).toBeLessThanOrEqual(
          4 * Math.sqrt((q * (1 - q)) / records.length) + 1e-12,
        );
      });

      // The analysis of these records: its figures are the plain means of the hand's values.
      const a = analyzeClients(clientEpisodes(shopEpisodesFromRecords(records)), { draws: 0 });
      const cell = a.cells[0]!;
      expect(cell.agent).toBe(`sim:${shopper} for sim:terse`);
      const booked = records.map((r) => r.booked!.id);
      const mean = (f: (id: string) => number) => booked.reduce((s, id) => s + f(id), 0) / booked.length;
      expect(cell.regret.estimate).toBeCloseTo(
        mean((id) => REGRET[id]!),
        9,
      );
      expect(cell.success.estimate).toBeCloseTo(
        mean((id) => (id in SURPLUS ? 1 : 0)),
        12,
      );
      expect(cell.captured.estimate).toBeCloseTo(mean((id) => SURPLUS[id] ?? 0) / 145, 12);
      expect(cell.bestSurplus).toBe(145);
      expect(cell.uncovered.learned.estimate).toBe(shopper === "asks-first" ? 1 : 0);
      expect(cell.uncovered.metByLuck.estimate).toBe(
        shopper === "asks-first" ? null : mean((id) => MET[id]!.length) / HIDDEN.length,
      );
      expect(cell.burden.messages.estimate).toBe(shopper === "asks-first" ? 5 : 0);
      // The expected regret the hand's logit implies: sim:asks-first 10·P(A) ≈ $4.03, sim:careful much more.
      const expected = IDS.reduce((s, id, i) => s + (p[i] ?? 0) * REGRET[id]!, 0);
      const sd = Math.sqrt(IDS.reduce((s, id, i) => s + (p[i] ?? 0) * (REGRET[id]! - expected) ** 2, 0));
      expect(Math.abs(cell.regret.estimate! - expected)).toBeLessThanOrEqual(
        (4 * sd) / Math.sqrt(records.length),
      );
    }, 60_000);
});
