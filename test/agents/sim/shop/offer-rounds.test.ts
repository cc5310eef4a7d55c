/**
 * `--offer-rounds n`: the shopper is told its limit (a rule line the conversation reads back), and
 * bazaar's own hagglers keep to it — at most n bids a listing, then its seller's counter or the list
 * price — so a limit below their schedules ends no episode as invalid.
 */
import { describe, expect, it } from "vitest";
import { ogShopEntry } from "../../../../agents/bargain/og-shop.ts";
import { HAGGLER_PRESETS } from "../../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { buildShopTasks, observeShop, openingOf } from "../../../../environments/shop/index.ts";
import { playWithSellers } from "../../../environments/shop/helpers.ts";

describe("offer rounds", () => {
  const tasks = buildShopTasks(
    { tasks: 16, seed: 9, negotiable: 0.5, negotiators: 1, offerRounds: 2 },
    DEFAULT_HOTEL_POOL,
  );

  it("are a rule of the prompt, read back from the conversation", () => {
    const opening = openingOf(tasks[0]!);
    expect(opening[0]!.content).toMatch(/^- You may make at most 2 offers on each listing;/m);
    expect(observeShop(opening)!.view.rules.offerRounds).toBe(2);
  });

  it("bound every haggler's bids a listing, and end no episode as invalid", async () => {
    const shoppers = {
      ...Object.fromEntries(Object.entries(HAGGLER_PRESETS).map(([k, p]) => [k, p.make(`sim:${k}`)])),
      "og-narrator": ogShopEntry("og-narrator", { settings: {} }, {}).players.shopper!,
    };
    let offers = 0;
    for (const [name, shopper] of Object.entries(shoppers))
      for (const task of tasks) {
        const out = await playWithSellers(task, shopper as never, ["rule:boulware"], name);
        expect(out.endReason, `${name} ${task.taskId}`).not.toBe("invalid");
        for (const n of out.negotiations ?? []) {
          const bids = n.offers.filter((m) => m.side === "buyer" && m.answer !== "deal").length;
          expect(bids, `${name} ${task.taskId}`).toBeLessThanOrEqual(2);
          offers += bids;
        }
      }
    expect(offers).toBeGreaterThan(20);
  });
});
