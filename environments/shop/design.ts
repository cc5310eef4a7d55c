/**
 * design → tasks for the shop: a pure, seeded function of the design and the hotel pool. Each task
 * is a client's request (hard constraints and soft wishes) and a catalog of hotel appearances drawn
 * from the pool as in catalog choice, composed so that the task's family holds exactly (several
 * admissible listings, a dominance pair, one low-ranked needle, or none), with every listing's
 * platform treatments drawn independently of its attributes and of each other at the design's
 * rates. Tag counts are fixed per task (the rate × catalog size, randomly rounded), so treatments
 * are balanced across tasks and each effect is identified. Every listing has a description: neutral
 * by default (a project template over its attributes); a battery design puts description arms on a
 * fixed share of each catalog the same way, from streams of their own, so adding or changing arms
 * changes nothing else of a task (specs/market.md, Part 1).
 */
import { z } from "zod";
import {
  armApplicable,
  NEUTRAL_TEMPLATE_COUNT,
  neutralListingDescription,
  wordingDescription,
  wordingsFor,
} from "../../datasets/descriptions/compose.ts";
import { defaultArmLibrary } from "../../datasets/descriptions/library.ts";
import type { ArmLibrary, LibraryArm } from "../../datasets/descriptions/schema.ts";
import type { Hotel } from "../../datasets/hotels/schema.ts";
import { drawAppearance } from "../choice/design.ts";
import { UserError } from "../kernel/errors.ts";
import { roundCents } from "../kernel/money.ts";
import { createRng, type Rng } from "../kernel/rng.ts";
import { areaOf } from "./areas.ts";
import { drawClientProfile } from "./client/profile.ts";
import { requestText } from "./prompt.ts";
import { CARD_SEPARATOR } from "./results.ts";
import { isAdmissible } from "./search.ts";
import {
  type Amenity,
  DESCRIPTION_ARMS,
  type Description,
  type DescriptionArm,
  type HardConstraints,
  type Listing,
  type ShopTask,
  sellerRole,
  TASK_FAMILIES,
  type TaskFamily,
} from "./types.ts";

const rate = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");
const positive = z.number().int("must be a whole number").positive("must be at least 1");

/** How a design describes listings: all neutral, or the manipulation battery. */
export const DESCRIPTION_MODES = ["neutral", "battery"] as const;
export type DescriptionMode = (typeof DESCRIPTION_MODES)[number];

/** The default share of listings a battery gives a non-neutral arm. */
export const DEFAULT_ARM_RATE = 0.5;

export const DEFAULT_FAMILY_SHARES: Readonly<Record<TaskFamily, number>> = {
  open: 0.4,
  dominance: 0.2,
  needle: 0.2,
  infeasible: 0.2,
};

export const ShopDesignSchema = z.object({
  seed: z.union([z.number().int(), z.string()]).default(2026),
  tasks: positive.default(100),
  /** Relative shares of the task families (a family left out or at 0 gets no tasks). */
  families: z.partialRecord(z.enum(TASK_FAMILIES), z.number().nonnegative()).default(DEFAULT_FAMILY_SHARES),
  /** Listings in each task's catalog. */
  listings: positive.default(24),
  pageSize: positive.default(8),
  maxSteps: positive.default(15),
  maxInvalid: positive.default(3),
  sponsoredRate: rate.default(0.2),
  endorsementRate: rate.default(0.2),
  scarcityRate: rate.default(0.2),
  discountRate: rate.default(0.2),
  /** Admissible listings of an open task (and at most of a dominance task). */
  minAdmissible: positive.default(3),
  maxAdmissible: positive.default(8),
  /**
   * `neutral`: every listing's description is neutral (a project template over its attributes);
   * `battery`: a share `armRate` of each catalog's listings carries a non-neutral arm of `arms`.
   */
  descriptions: z.enum(DESCRIPTION_MODES).default("neutral"),
  /** The arms in play (neutral, the control, always is); a battery draws the others equally often. */
  arms: z
    .array(z.enum(DESCRIPTION_ARMS))
    .min(1, "name at least one arm")
    .default([...DESCRIPTION_ARMS]),
  /** Share of a catalog's listings given a non-neutral arm (battery only). */
  armRate: rate.default(DEFAULT_ARM_RATE),
  /**
   * Share of each catalog's listings that take offers (specs/market.md Part 3); absent or 0 in a
   * plain shop, whose tasks are then exactly as before offers existed.
   */
  negotiable: rate.optional(),
  /** Seller negotiators in the run: a catalog's negotiable listings are dealt to them in turn. */
  negotiators: positive.optional(),
  /** Offers a shopper may send to one listing's seller (the pair's turn limit); absent: the step budget. */
  offerRounds: positive.optional(),
  /**
   * Each task has a client (specs/client.md): its hidden utility drawn from a stream of its own, so
   * every other part of a task is as without clients. Absent (or false) in a shop without clients.
   */
  clients: z.boolean().optional(),
});
export type ShopDesign = z.infer<typeof ShopDesignSchema>;
export type ShopDesignInput = z.input<typeof ShopDesignSchema>;

/** Soft wishes a request may add; nothing judges them. */
export const WISHES = [
  "a high guest rating",
  "a quiet room",
  "a big bed",
  "a well-known brand",
  "somewhere close to the subway",
] as const;

const ID_CHARS = "abcdefghijkmnpqrstuvwxyz23456789";
const ATTEMPTS = 400;

/** Validates a design; every problem in one UserError (exit 2), nothing built. */
export function parseShopDesign(input: ShopDesignInput): ShopDesign {
  const parsed = ShopDesignSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "design"} ${i.message}`);
    throw new UserError(`impossible shop design: ${problems.join("; ")}`, "see bazaar run shop --help");
  }
  const d = parsed.data;
  const problems: string[] = [];
  const shares = TASK_FAMILIES.map((f) => d.families[f] ?? 0);
  if (shares.every((s) => s === 0)) problems.push("no task family has a share above 0");
  if (d.minAdmissible < 2)
    problems.push("open tasks need at least 2 admissible listings (minAdmissible ≥ 2)");
  if (d.maxAdmissible < d.minAdmissible)
    problems.push(`maxAdmissible ${d.maxAdmissible} is below minAdmissible ${d.minAdmissible}`);
  const needsAdmissible =
    (d.families.open ?? 0) > 0 ? d.maxAdmissible : (d.families.dominance ?? 0) > 0 ? 2 : 1;
  if (d.listings <= needsAdmissible) {
    problems.push(
      `${d.listings} listings per catalog leave no room for ${needsAdmissible} admissible and some others`,
    );
  }
  if (problems.length > 0)
    throw new UserError(`impossible shop design: ${problems.join("; ")}`, "see bazaar run shop --help");
  const normalized = normalizeOffers(normalizeArms(d));
  if (normalized.clients) return normalized;
  const { clients: _, ...rest } = normalized;
  return rest;
}

/** A design without offers spells none of their settings (it is the plain shop's design). */
function normalizeOffers(d: ShopDesign): ShopDesign {
  const { negotiable, negotiators, offerRounds, ...rest } = d;
  if (!negotiable) return rest;
  return { ...rest, negotiable, negotiators: negotiators ?? 1, ...(offerRounds ? { offerRounds } : {}) };
}

/** A negotiable listing's private cost as a share of its list price: uniform on this range. */
export const COST_SHARE = [0.6, 0.9] as const;

/**
 * Which of `n` listings take offers — exactly round(share × n) of them (rounded at random), chosen
 * independently of anything else drawn — and the seller negotiator role each is dealt, in turn
 * from a random start among the `k`; undefined for a listing sold only at its price.
 */
export function dealNegotiators(n: number, share: number, k: number, rng: Rng): (string | undefined)[] {
  const out: (string | undefined)[] = Array.from({ length: n }, () => undefined);
  if (share <= 0) return out;
  const chosen = rng.shuffle([...treated(rng.fork("which"), n, share)].sort((a, b) => a - b));
  const start = rng.int(k);
  chosen.forEach((i, j) => {
    out[i] = sellerRole(1 + ((start + j) % k));
  });
  return out;
}

/** The shop's negotiable listings, each with a private cost drawn as a share of its list price. */
function drawNegotiation(
  prices: readonly number[],
  d: Pick<ShopDesign, "negotiable" | "negotiators">,
  rng: Rng,
): (Listing["negotiation"] | undefined)[] {
  const roles = dealNegotiators(prices.length, d.negotiable ?? 0, d.negotiators ?? 1, rng);
  const costs = rng.fork("costs");
  return roles.map((seller, i) =>
    seller === undefined
      ? undefined
      : { seller, cost: roundCents(prices[i]! * costs.uniform(COST_SHARE[0], COST_SHARE[1])) },
  );
}

/**
 * One spelling per design: arms in DESCRIPTION_ARMS order with neutral (the control) among them,
 * and a neutral design's arm settings at their defaults (they do nothing there, so they do not
 * make it another design).
 */
function normalizeArms(d: ShopDesign): ShopDesign {
  if (d.descriptions === "neutral") return { ...d, arms: [...DESCRIPTION_ARMS], armRate: DEFAULT_ARM_RATE };
  const chosen = new Set<DescriptionArm>([...d.arms, "neutral"]);
  return { ...d, arms: DESCRIPTION_ARMS.filter((a) => chosen.has(a)) };
}

/** How many tasks each family gets: shares by largest remainder, summing to `tasks`. */
export function familyCounts(design: ShopDesign): Record<TaskFamily, number> {
  const weights = TASK_FAMILIES.map((f) => design.families[f] ?? 0);
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (design.tasks * w) / total);
  const counts = exact.map(Math.floor);
  let left = design.tasks - counts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return Object.fromEntries(TASK_FAMILIES.map((f, i) => [f, counts[i]!])) as Record<TaskFamily, number>;
}

/** Pool text the result cards could not show unambiguously: named per hotel, with what to change. */
export function checkPoolForShop(pool: readonly Hotel[]): void {
  const bad: string[] = [];
  for (const h of pool) {
    const texts = [h.name, h.neighborhood, ...h.roomTypes];
    if (texts.some((t) => t.includes(CARD_SEPARATOR) || t.includes("\n"))) {
      bad.push(
        `hotel ${h.id} has "${CARD_SEPARATOR.trim()}" or a line break in its name, neighborhood or room types`,
      );
    } else if (/[()]/.test(h.neighborhood)) {
      bad.push(`hotel ${h.id}'s neighborhood "${h.neighborhood}" has parentheses`);
    } else if (/,| or /.test(areaOf(h.neighborhood))) {
      bad.push(`hotel ${h.id}'s area "${areaOf(h.neighborhood)}" has a comma or " or "`);
    }
  }
  if (bad.length > 0) {
    throw new UserError(
      `the hotel pool cannot be shown as shop listings: ${bad.slice(0, 5).join("; ")}${bad.length > 5 ? ` (and ${bad.length - 5} more)` : ""}`,
      "result cards separate fields with ' · ' and areas with ', ' and ' or ': rename those hotels",
    );
  }
}

type Compared = Pick<Listing, "price" | "reviewScore" | "stars" | "freeCancellation" | "breakfast">;

/** A dominates B: cheaper, better rated, at least as many stars, and every amenity B has. */
export function dominates(a: Compared, b: Compared): boolean {
  return (
    a.price < b.price &&
    a.reviewScore > b.reviewScore &&
    a.stars >= b.stars &&
    (a.freeCancellation || !b.freeCancellation) &&
    (a.breakfast || !b.breakfast)
  );
}

type Draft = Omit<Listing, "id" | "treatments" | "description">;

function draft(hotel: Hotel, rng: Rng): Draft {
  return { ...drawAppearance(hotel, rng), area: areaOf(hotel.neighborhood) };
}

function weightedPick<T>(rng: Rng, items: readonly T[], weight: (t: T) => number): T {
  const total = items.reduce((a, t) => a + weight(t), 0);
  let u = rng.next() * total;
  for (const t of items) {
    u -= weight(t);
    if (u < 0) return t;
  }
  return items[items.length - 1] as T;
}

function drawConstraints(rng: Rng, byArea: Map<string, Hotel[]>): HardConstraints | null {
  const areaNames = [...byArea.keys()];
  const wanted = areaNames.length > 1 && !rng.bernoulli(0.6) ? 2 : 1;
  const areas: string[] = [];
  while (areas.length < wanted) {
    const a = weightedPick(
      rng,
      areaNames.filter((n) => !areas.includes(n)),
      (n) => byArea.get(n)!.length,
    );
    areas.push(a);
  }
  const u = rng.next();
  const minStars = u < 0.25 ? null : u < 0.7 ? 3 : 4;
  const amenities = drawRequiredAmenities(rng);
  const eligible = areas
    .flatMap((a) => byArea.get(a)!)
    .filter((h) => minStars === null || h.stars >= minStars);
  if (eligible.length === 0) return null;
  const mids = eligible.map((h) => (h.priceMin + h.priceMax) / 2).sort((a, b) => a - b);
  const q = rng.uniform(0.4, 0.85);
  const mid = mids[Math.min(mids.length - 1, Math.floor(q * mids.length))]!;
  return { maxPrice: Math.ceil(mid / 10) * 10, minStars, areas: areas.sort(), amenities };
}

function couldBeAdmissible(h: Hotel, c: HardConstraints): boolean {
  if (c.maxPrice !== null && h.priceMin > c.maxPrice) return false;
  if (c.minStars !== null && h.stars < c.minStars) return false;
  if (c.areas !== null && !c.areas.includes(areaOf(h.neighborhood))) return false;
  for (const a of c.amenities) {
    if ((a === "free_cancellation" ? h.freeCancellationProb : h.breakfastProb) <= 0) return false;
  }
  return true;
}

function admissibleTarget(family: TaskFamily, d: ShopDesign, rng: Rng): number {
  switch (family) {
    case "open":
      return d.minAdmissible + rng.int(d.maxAdmissible - d.minAdmissible + 1);
    case "dominance":
      return 2 + rng.int(Math.max(1, d.maxAdmissible - 1));
    case "needle":
      return 1;
    case "infeasible":
      return 0;
  }
}

function findDominance(drafts: readonly Draft[], rng: Rng): [number, number] | null {
  const pairs: [number, number][] = [];
  for (let i = 0; i < drafts.length; i++)
    for (let j = 0; j < drafts.length; j++)
      if (i !== j && dominates(drafts[i]!, drafts[j]!)) pairs.push([i, j]);
  return pairs.length > 0 ? rng.pick(pairs) : null;
}

/** Exactly round(rate × n) of n listings, rounded at random, chosen uniformly. */
/** Exactly round(p × n) of n indexes (the fraction rounded at random), chosen uniformly. */
export function treated(rng: Rng, n: number, p: number): Set<number> {
  const exact = p * n;
  const count = Math.floor(exact) + (rng.bernoulli(exact - Math.floor(exact)) ? 1 : 0);
  return new Set(rng.shuffle(Array.from({ length: n }, (_, i) => i)).slice(0, count));
}

function listingId(rng: Rng, taken: Set<string>): string {
  for (;;) {
    let id = ID_CHARS[rng.int(24)]!;
    for (let i = 0; i < 5; i++) id += ID_CHARS[rng.int(ID_CHARS.length)]!;
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

interface Composition {
  constraints: HardConstraints;
  admissible: Draft[];
  others: Draft[];
  dominance: [number, number] | null;
}

function compose(
  family: TaskFamily,
  d: ShopDesign,
  pool: readonly Hotel[],
  byArea: Map<string, Hotel[]>,
  rng: Rng,
): Composition | null {
  const constraints = drawConstraints(rng, byArea);
  if (!constraints) return null;
  const k = admissibleTarget(family, d, rng);
  const used = new Set<number>();
  const admissible: Draft[] = [];
  for (const h of rng.shuffle(pool.filter((h) => couldBeAdmissible(h, constraints)))) {
    if (admissible.length === k) break;
    for (let t = 0; t < 12; t++) {
      const x = draft(h, rng);
      if (isAdmissible(x, constraints)) {
        admissible.push(x);
        used.add(h.id);
        break;
      }
    }
  }
  if (admissible.length < k) return null;
  const dominance = family === "dominance" ? findDominance(admissible, rng) : null;
  if (family === "dominance" && !dominance) return null;
  const others: Draft[] = [];
  for (const h of rng.shuffle(pool.filter((h) => !used.has(h.id)))) {
    if (others.length === d.listings - k) break;
    for (let t = 0; t < 5; t++) {
      const x = draft(h, rng);
      if (!isAdmissible(x, constraints)) {
        others.push(x);
        break;
      }
    }
  }
  if (others.length < d.listings - k) return null;
  return { constraints, admissible, others, dominance };
}

/**
 * Each listing's description, in catalog (draft) order. Neutral template per listing from one
 * stream; in a battery, exactly round(armRate × n) listings (rounded at random, chosen uniformly
 * from another stream, so independently of rank and tags) get an arm drawn uniformly among the
 * design's non-neutral arms — a false claim only on a listing lacking an amenity (else another of
 * the arms is drawn; with none left the listing stays neutral) — and a wording of it that fits.
 */
export function drawDescriptions(
  listings: readonly Omit<Listing, "description">[],
  d: Pick<ShopDesign, "descriptions" | "arms" | "armRate">,
  rng: Rng,
  facilities: (hotelId: number) => readonly string[] | undefined,
  library?: ArmLibrary,
): Description[] {
  const templates = rng.fork("templates");
  const described = listings.map((l) => ({ ...l, facilities: facilities(l.hotelId) }));
  const template = described.map(() => templates.int(NEUTRAL_TEMPLATE_COUNT));
  const neutral = described.map((l, i) => neutralListingDescription(l, template[i]!));
  const arms = d.arms.filter((a): a is LibraryArm => a !== "neutral");
  if (d.descriptions === "neutral" || arms.length === 0) return neutral;
  const lib = library ?? defaultArmLibrary();
  const armed = treated(rng.fork("arms"), listings.length, d.armRate);
  const draw = rng.fork("wordings");
  return described.map((l, i) => {
    if (!armed.has(i)) return neutral[i]!;
    let arm = draw.pick(arms);
    if (!armApplicable(arm, l)) {
      const others = arms.filter((a) => armApplicable(a, l));
      if (others.length === 0) return neutral[i]!;
      arm = draw.pick(others);
    }
    return wordingDescription(l, draw.pick(wordingsFor(lib, arm, l)), template[i]!);
  });
}

function buildTask(
  index: number,
  family: TaskFamily,
  d: ShopDesign,
  pool: readonly Hotel[],
  byArea: Map<string, Hotel[]>,
  root: Rng,
  facilities: (hotelId: number) => readonly string[] | undefined,
  library: ArmLibrary | undefined,
): ShopTask {
  const taskRng = root.fork(`task-${index}`);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const rng = taskRng.fork(attempt);
    const c = compose(family, d, pool, byArea, rng);
    if (!c) continue;
    const n = d.listings;
    const drafts = [...c.admissible, ...c.others];
    // Ranks: a random permutation; a needle goes to the last third of the default order.
    let ranks = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
    if (family === "needle") {
      const low = n - Math.max(1, Math.ceil(n / 3)) + 1;
      const needleRank = low + rng.int(n - low + 1);
      ranks = [
        needleRank,
        ...rng.shuffle(Array.from({ length: n }, (_, i) => i + 1).filter((r) => r !== needleRank)),
      ];
    }
    const sponsored = treated(rng.fork("sponsored"), n, d.sponsoredRate);
    const endorsed = treated(rng.fork("endorsed"), n, d.endorsementRate);
    const scarce = treated(rng.fork("scarcity"), n, d.scarcityRate);
    const discounted = treated(rng.fork("discount"), n, d.discountRate);
    const ids = new Set<string>();
    const tags = rng.fork("tags");
    const undescribed = drafts.map((x, i) => ({
      id: listingId(tags, ids),
      ...x,
      treatments: {
        rank: ranks[i]!,
        sponsored: sponsored.has(i),
        endorsed: endorsed.has(i),
        roomsLeft: scarce.has(i) ? 1 + tags.int(3) : null,
        wasPrice: discounted.has(i) ? Math.ceil(x.price * tags.uniform(1.15, 1.45)) : null,
      },
    }));
    const descriptions = drawDescriptions(undescribed, d, rng.fork("descriptions"), facilities, library);
    const negotiation = drawNegotiation(
      undescribed.map((x) => x.price),
      d,
      rng.fork("negotiation"),
    );
    const listings: Listing[] = undescribed.map((x, i) => {
      const n = negotiation[i];
      return n
        ? { ...x, description: descriptions[i]!, negotiation: n }
        : { ...x, description: descriptions[i]! };
    });
    const byIndex = listings.slice();
    listings.sort((a, b) => a.treatments.rank - b.treatments.rank);
    const wishRng = rng.fork("wishes");
    const wishes = wishRng.shuffle(WISHES).slice(0, wishRng.int(3));
    const client = d.clients
      ? { client: drawClientProfile(c.constraints, listings, rng.fork("client")) }
      : {};
    return {
      env: "shop",
      taskId: `${family}-${String(index + 1).padStart(4, "0")}`,
      family,
      request: { text: requestText(c.constraints, wishes), constraints: c.constraints, wishes },
      listings,
      rules: {
        pageSize: d.pageSize,
        maxSteps: d.maxSteps,
        maxInvalid: d.maxInvalid,
        ...(d.negotiable ? { offers: true as const } : {}),
        ...(d.negotiable && d.offerRounds ? { offerRounds: d.offerRounds } : {}),
      },
      admissible: listings.filter((l) => isAdmissible(l, c.constraints)).map((l) => l.id),
      dominance: c.dominance
        ? { dominant: byIndex[c.dominance[0]]!.id, dominated: byIndex[c.dominance[1]]!.id }
        : null,
      ...client,
    };
  }
  throw new UserError(
    `cannot build a ${family} shop task from this hotel pool (${pool.length} hotels, ${d.listings} listings per catalog) after ${ATTEMPTS} attempts`,
    family === "infeasible" || family === "needle"
      ? "use a larger pool or fewer listings per catalog (--listings)"
      : "use a larger pool, fewer listings per catalog (--listings) or fewer admissible listings",
  );
}

/**
 * design → tasks. Same design and pool ⇒ byte-identical tasks. Tasks are numbered in a shuffled
 * family order, so a `--limit` prefix of a run still mixes the families.
 */
export function buildShopTasks(
  input: ShopDesignInput,
  pool: readonly Hotel[],
  library?: ArmLibrary,
): ShopTask[] {
  const d = parseShopDesign(input);
  checkPoolForShop(pool);
  if (pool.length < d.listings) {
    throw new UserError(
      `impossible shop design: ${d.listings} listings per catalog, but the hotel pool has ${pool.length} hotels`,
      `use --listings ${pool.length} or fewer, or a larger pool`,
    );
  }
  const byArea = new Map<string, Hotel[]>();
  for (const h of pool) {
    const a = areaOf(h.neighborhood);
    const list = byArea.get(a);
    if (list) list.push(h);
    else byArea.set(a, [h]);
  }
  const root = createRng(`bazaar/shop/${d.seed}`);
  const counts = familyCounts(d);
  const families = root
    .fork("order")
    .shuffle(TASK_FAMILIES.flatMap((f) => Array<TaskFamily>(counts[f]).fill(f)));
  const byId = new Map(pool.map((h) => [h.id, h]));
  const facilities = (hotelId: number) => byId.get(hotelId)?.amenities;
  return families.map((f, i) => buildTask(i, f, d, pool, byArea, root, facilities, library));
}

/** A request's required amenities: none half the time, else cancellation, breakfast or both (one draw). */
export function drawRequiredAmenities(rng: Rng): Amenity[] {
  const v = rng.next();
  return v < 0.5
    ? []
    : v < 0.75
      ? ["free_cancellation"]
      : v < 0.9
        ? ["breakfast"]
        : ["free_cancellation", "breakfast"];
}
