/** Seller tasks from a real (seeded) market, for the machine, prompt and policy tests. */
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { buildBaseMarkets, marketInstances, parseMarketDesign } from "../../../environments/market/design.ts";
import {
  afterTurns,
  initialMarketState,
  type MarketState,
  type RoundOutcome,
  sellerTasks,
} from "../../../environments/market/rounds.ts";
import type { SellerOutcome, SellerTask } from "../../../environments/market/types.ts";

/** A round's outcome with made-up numbers (seeded), positions included. */
export function fakeOutcome(sellers: number, seed: string): RoundOutcome {
  const rng = createRng(seed);
  const stats = Array.from({ length: sellers }, () => {
    // As a round's outcome has them: no zeros after the last position shown at.
    const positions = Array.from({ length: 1 + rng.int(8) }, () => rng.int(6));
    while (positions.at(-1) === 0) positions.pop();
    const shown = positions.reduce((a, b) => a + b, 0);
    const bookings = rng.int(15);
    const price = 100 + rng.int(200);
    return {
      shown,
      positions,
      views: rng.int(shown + 1),
      bookings,
      revenue: bookings * price,
      profit: bookings * (price - 80),
    };
  });
  return { buyers: 100, bookings: stats.reduce((a, s) => a + s.bookings, 0), stats };
}

/** Seller tasks of market k1-m1 after `rounds` rounds of made-up outcomes (history filled by keeps). */
export function sellerTaskFixtures(rounds = 3, sellers = 8): SellerTask[] {
  const d = parseMarketDesign({ sellers, rounds: rounds + 1, adopters: [1] });
  const [instance] = marketInstances(d, buildBaseMarkets(d, DEFAULT_HOTEL_POOL));
  let state: MarketState = initialMarketState(instance!);
  for (let r = 1; r < rounds; r++) {
    const outcome = fakeOutcome(sellers, `round-${r}`);
    const turns = new Map<number, SellerOutcome>(
      state.listings.map((l, i) => [
        i + 1,
        {
          endReason: "changed",
          price: l.price + r,
          description: { ...l.description, text: `${l.description.text} Round ${r}.` },
          priceChanged: true,
          descriptionChanged: true,
          calls: [],
          messages: 1,
          invalidCalls: 0,
          nonResponse: null,
        },
      ]),
    );
    state = afterTurns(state, r, outcome, turns);
  }
  return sellerTasks(d, "market-test", state, rounds, fakeOutcome(sellers, `round-${rounds}`), {
    adopter: "sim:cue-bandit",
    static: "sim:static",
  });
}
