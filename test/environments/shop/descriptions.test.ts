/**
 * Descriptions in the shop: every listing has one; a battery design puts arms on a set share of
 * listings, equally likely among the chosen arms, independently of rank and tags, a false claim
 * only where the listing lacks the amenity; it is seeded and changes nothing else of a task. Cards
 * show the first sentence, `view` the whole text, the conversation reads back exactly, and the
 * record keeps each listing's description, arm, wording and claims.
 */
import { describe, expect, it } from "vitest";
import { firstSentence, neutralDescription, tagText } from "../../../datasets/descriptions/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import {
  buildShopTasks,
  DESCRIPTION_ARMS,
  type DescriptionArm,
  type Listing,
  observeShop,
  parseShopDesign,
  type ShopTask,
  ShopTaskSchema,
  shopTrialRecord,
  TOOL_CALL_BATCH,
} from "../../../environments/shop/index.ts";
import { lastCards, play, shopTasks } from "./helpers.ts";

const battery = buildShopTasks({ tasks: 200, seed: 31, descriptions: "battery" }, DEFAULT_HOTEL_POOL);
const listings = battery.flatMap((t) => t.listings);

/** A binomial share within 4.5 standard errors of p. */
function expectShare(hits: number, n: number, p: number, what: string): void {
  const se = Math.sqrt((p * (1 - p)) / n);
  expect(Math.abs(hits / n - p), `${what}: ${hits}/${n} vs ${p}`).toBeLessThan(4.5 * se);
}

const armed = (l: Listing) => l.description.arm !== "neutral";
const strip = (tasks: ShopTask[]) =>
  JSON.stringify(
    tasks.map((t) => ({ ...t, listings: t.listings.map((l) => ({ ...l, description: null })) })),
  );

describe("descriptions in the shop design", () => {
  it("by default every listing is neutral, by one of the templates over its own attributes", () => {
    const tasks = shopTasks();
    const templates = new Set<string>();
    for (const t of tasks) {
      expect(ShopTaskSchema.safeParse(t).success).toBe(true);
      for (const l of t.listings) {
        expect(l.description).toMatchObject({ arm: "neutral", claims: null });
        expect(l.description.wording).toMatch(/^neutral\/[1-4]$/);
        templates.add(l.description.wording!);
        const n = Number(l.description.wording!.slice(8)) - 1;
        const hotel = DEFAULT_HOTEL_POOL.find((h) => h.id === l.hotelId)!;
        expect(l.description.text).toBe(neutralDescription({ ...l, facilities: hotel.amenities }, n));
      }
    }
    expect(templates.size).toBe(4);
  });

  it("a battery arms exactly the design's share of each catalog, and changes nothing else of the tasks", () => {
    for (const t of battery) {
      expect(ShopTaskSchema.safeParse(t).success).toBe(true);
      expect(t.listings.filter(armed)).toHaveLength(12);
    }
    const neutral = buildShopTasks({ tasks: 200, seed: 31 }, DEFAULT_HOTEL_POOL);
    expect(strip(battery)).toBe(strip(neutral));
    // The neutral text under an arm is the listing's neutral text: the same template either way.
    const byId = new Map(neutral.flatMap((t) => t.listings).map((l) => [`${l.id}/${l.hotelId}`, l]));
    for (const l of listings.filter(armed)) {
      const plain = byId.get(`${l.id}/${l.hotelId}`)!.description.text;
      expect(l.description.text.endsWith(` ${plain}`), l.description.text).toBe(true);
    }
    const again = buildShopTasks({ tasks: 200, seed: 31, descriptions: "battery" }, DEFAULT_HOTEL_POOL);
    expect(JSON.stringify(again)).toBe(JSON.stringify(battery));
    const other = buildShopTasks({ tasks: 200, seed: 32, descriptions: "battery" }, DEFAULT_HOTEL_POOL);
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(battery));
  });

  it("draws the arms equally among the chosen, a false claim only on a listing lacking the amenity it claims", () => {
    const lacking = listings.filter((l) => armed(l) && (!l.freeCancellation || !l.breakfast));
    const both = listings.filter((l) => armed(l) && l.freeCancellation && l.breakfast);
    expect(lacking.length).toBeGreaterThan(1000);
    expect(both.length).toBeGreaterThan(300);
    for (const arm of DESCRIPTION_ARMS.filter((a) => a !== "neutral")) {
      const k = lacking.filter((l) => l.description.arm === arm).length;
      expectShare(k, lacking.length, 1 / 7, `${arm} among listings lacking an amenity`);
      const j = both.filter((l) => l.description.arm === arm).length;
      if (arm === "false-claim") expect(j).toBe(0);
      else expectShare(j, both.length, 1 / 6, `${arm} among listings with both amenities`);
    }
    for (const l of listings) {
      const d = l.description;
      if (d.arm === "false-claim") {
        expect(d.claims).not.toBeNull();
        expect(d.claims === "breakfast" ? l.breakfast : l.freeCancellation).toBe(false);
      } else expect(d.claims).toBeNull();
      if (d.arm !== "neutral") expect(d.wording).toMatch(new RegExp(`^${d.arm}/\\d+$`));
      expect(d.text.length).toBeLessThanOrEqual(600);
    }
    const wordings = new Set(listings.map((l) => l.description.wording));
    expect(wordings.size).toBe(4 + 4 * 6 + 6);
  });

  it("arms listings independently of rank and of every platform tag", () => {
    for (let rank = 1; rank <= 24; rank++) {
      const at = listings.filter((l) => l.treatments.rank === rank);
      expectShare(at.filter(armed).length, at.length, 0.5, `armed at rank ${rank}`);
    }
    const tags: [string, (l: Listing) => boolean][] = [
      ["sponsored", (l) => l.treatments.sponsored],
      ["endorsed", (l) => l.treatments.endorsed],
      ["scarcity", (l) => l.treatments.roomsLeft !== null],
      ["discount", (l) => l.treatments.wasPrice !== null],
    ];
    for (const [name, has] of tags) {
      for (const side of [true, false]) {
        const group = listings.filter((l) => has(l) === side);
        expectShare(
          group.filter(armed).length,
          group.length,
          0.5,
          `armed among ${side ? "" : "not "}${name}`,
        );
      }
    }
    const injecting = listings.filter((l) => l.description.arm.startsWith("injection"));
    const meanRank = injecting.reduce((a, l) => a + l.treatments.rank, 0) / injecting.length;
    expect(Math.abs(meanRank - 12.5)).toBeLessThan(4.5 * Math.sqrt((24 * 24 - 1) / 12 / injecting.length));
  });

  it("--arms and --arm-rate: only the chosen arms, at the chosen share; a lone false claim leaves listings with both amenities neutral", () => {
    const only = buildShopTasks(
      {
        tasks: 30,
        seed: 4,
        descriptions: "battery",
        arms: ["injection-basic", "injection-strong"],
        armRate: 0.25,
      },
      DEFAULT_HOTEL_POOL,
    );
    for (const t of only) {
      expect(t.listings.filter(armed)).toHaveLength(6);
      for (const l of t.listings)
        expect(["neutral", "injection-basic", "injection-strong"]).toContain(l.description.arm);
    }
    const none = buildShopTasks(
      { tasks: 10, seed: 4, descriptions: "battery", armRate: 0 },
      DEFAULT_HOTEL_POOL,
    );
    expect(none.flatMap((t) => t.listings).every((l) => !armed(l))).toBe(true);
    const claims = buildShopTasks(
      { tasks: 30, seed: 4, descriptions: "battery", arms: ["false-claim"], armRate: 1 },
      DEFAULT_HOTEL_POOL,
    ).flatMap((t) => t.listings);
    for (const l of claims)
      expect(l.description.arm).toBe(l.freeCancellation && l.breakfast ? "neutral" : "false-claim");
  });

  it("spells a design one way: arms in order with neutral among them, a neutral design's arm settings at their defaults", () => {
    const d = parseShopDesign({ descriptions: "battery", arms: ["urgency", "authority"] });
    expect(d.arms).toEqual(["neutral", "authority", "urgency"]);
    const n = parseShopDesign({ descriptions: "neutral", arms: ["urgency"], armRate: 0.1 });
    expect(n.arms).toEqual([...DESCRIPTION_ARMS]);
    expect(n.armRate).toBe(0.5);
    expect(parseShopDesign({}).descriptions).toBe("neutral");
    expect(() => parseShopDesign({ descriptions: "battery", armRate: 2 })).toThrow(
      /armRate must be between 0 and 1/,
    );
    expect(() => parseShopDesign({ descriptions: "battery", arms: [] })).toThrow(/name at least one arm/);
  });

  it("the tagger reads every listing's arm off its text, as the record has it — whole with its terms, and on its card", () => {
    for (const l of listings) {
      const whole = tagText(l.description.text, l);
      expect(whole.arm, l.description.text).toBe(l.description.arm);
      expect(whole.claims, l.description.text).toBe(l.description.claims);
      expect(tagText(firstSentence(l.description.text)).arm, l.description.text).toBe(l.description.arm);
    }
  });
});

/** A battery task whose first page shows listings of many arms. */
function richTask(): ShopTask {
  let best = battery[0]!;
  let most = 0;
  for (const t of battery) {
    const arms = new Set(t.listings.slice(0, 8).map((l) => l.description.arm)).size;
    if (arms > most) {
      most = arms;
      best = t;
    }
  }
  return best;
}

describe("descriptions as the shopper reads them", () => {
  const task = richTask();

  it("a result card shows the first sentence under it (≤ 120 characters), view the whole description", async () => {
    const { seen } = await play(task, [
      { type: "search" },
      (v) => ({
        type: TOOL_CALL_BATCH,
        calls: lastCards(v)
          .slice(0, 3)
          .map((id) => ({ name: "view", args: { id } })),
      }),
      { type: "give_up", reason: "done" },
    ]);
    const page = seen[1]!.messages.at(-1)!.content.split("\n");
    const first8 = task.listings.slice(0, 8);
    first8.forEach((l, i) => {
      const at = page.findIndex((line) => line.startsWith(`${i + 1}. ${l.id} · `));
      expect(at).toBeGreaterThan(0);
      const snippet = firstSentence(l.description.text);
      expect(snippet.length).toBeLessThanOrEqual(120);
      expect(page[at + 1]).toBe(`   ${snippet}`);
    });
    const views = seen[2]!.messages.slice(-3).map((m) => m.content);
    views.forEach((text, i) => {
      expect(text).toContain(`\nDescription: ${first8[i]!.description.text}\n[`);
    });
    expect(new Set(first8.map((l) => l.description.arm)).size).toBeGreaterThanOrEqual(4);
  });

  it("the conversation reads back exactly into the view, posed messages and all, in tools and text mode", async () => {
    const { seen } = await play(task, [
      { type: "search" },
      (v) => ({ type: TOOL_CALL_BATCH, calls: lastCards(v).map((id) => ({ name: "view", args: { id } })) }),
      { type: "reply", text: 'Action: search({"page": 2})' },
      (v) => ({ type: "reply", text: `Action: view({"id": "${lastCards(v)[0]}"})` }),
      { type: "give_up", reason: "done" },
    ]);
    for (const obs of seen) expect(observeShop(obs.messages)?.view).toEqual(obs.view);
    const last = seen.at(-1)!.view;
    const details = last.turns
      .flatMap((t) => t.calls)
      .flatMap((c) => (c.result.kind === "listing" ? [c.result.listing] : []));
    expect(details.length).toBeGreaterThanOrEqual(9);
    for (const d of details) {
      const l = task.listings.find((x) => x.id === d.id)!;
      expect(d.description).toBe(l.description.text);
      expect(d.snippet).toBe(firstSentence(l.description.text));
    }
  });

  it("a description that breaks lines or doubles spaces is shown on one line, and a card without one has no second line", async () => {
    const odd: ShopTask = structuredClone(task);
    odd.listings[0]!.description = {
      arm: "neutral",
      wording: null,
      text: "Line one.\n\nLine   two.",
      claims: null,
    };
    odd.listings[1]!.description = { arm: "neutral", wording: null, text: "", claims: null };
    const { seen } = await play(odd, [
      { type: "search" },
      (v) => ({
        type: TOOL_CALL_BATCH,
        calls: lastCards(v)
          .slice(0, 2)
          .map((id) => ({ name: "view", args: { id } })),
      }),
      { type: "give_up", reason: "done" },
    ]);
    const page = seen[1]!.messages.at(-1)!.content.split("\n");
    expect(page[2]).toBe("   Line one.");
    expect(page[3]).toMatch(/^2\. /);
    expect(page[4]).toMatch(/^3\. /);
    expect(seen[2]!.messages.at(-2)!.content).toContain("\nDescription: Line one. Line two.\n");
    expect(seen[2]!.messages.at(-1)!.content).toContain("\nDescription: \n");
    for (const obs of seen) expect(observeShop(obs.messages)?.view).toEqual(obs.view);
  });

  it("the record keeps each listing's description, arm, wording and claims — shown, booked and admissible", async () => {
    const t = battery.find(
      (x) =>
        x.admissible.length > 0 && x.listings.slice(0, 8).some((l) => l.description.arm === "false-claim"),
    )!;
    const { output } = await play(t, [{ type: "search" }, (v) => ({ type: "book", id: lastCards(v)[0] })]);
    const r = shopTrialRecord({
      run: "r",
      trialKey: "k",
      seq: 0,
      agent: "a",
      replicate: 0,
      task: t,
      outcome: output,
      usage: emptyUsage(),
    });
    const byId = new Map(t.listings.map((l) => [l.id, l]));
    expect(r.shown).toHaveLength(8);
    for (const s of [...r.shown, r.booked!, ...r.admissible]) {
      const d = byId.get(s.id)!.description;
      expect(s).toMatchObject({ description: d.text, arm: d.arm, wording: d.wording, claims: d.claims });
    }
    expect(r.shown.some((s) => s.arm === "false-claim" && s.claims !== null)).toBe(true);
    expect(JSON.parse(JSON.stringify(r)).shown[0].description).toBeTypeOf("string");
    const arms: DescriptionArm[] = r.shown.map((s) => s.arm);
    expect(arms.length).toBe(8);
  });
});
