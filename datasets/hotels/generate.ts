import { UserError } from "../../environments/kernel/errors.ts";
import { createRng, type Rng } from "../../environments/kernel/rng.ts";
import { inferChain } from "./chains.ts";
import { CHAIN_FAMILIES, type Chain, type Hotel, HotelSchema } from "./schema.ts";
import {
  BRANDS,
  type Brand,
  CITY_LABELS,
  LANDMARK_QUALIFIERS,
  NAME_WORDS,
  NEIGHBORHOODS,
  type Neighborhood,
  QUALIFIERS,
  ROOM_TYPES_BY_STARS,
} from "./vocabulary.ts";

export const DEFAULT_POOL_SEED = 2026;
export const DEFAULT_POOL_SIZE = 179;
/** The cheapest nightly price of the pool and the dearest, in US dollars; the pool spans both. */
export const POOL_PRICE_FLOOR = 45;
export const POOL_PRICE_CEILING = 1650;

type Stars = 1 | 2 | 3 | 4 | 5;
type ByStars = readonly [number, number, number, number, number];

/** Share of chain properties, and how the chain properties split across families. */
const CHAIN_SHARE = 0.4;
const FAMILY_SHARES: Readonly<Record<(typeof CHAIN_FAMILIES)[number], number>> = {
  Hilton: 0.24,
  Marriott: 0.32,
  IHG: 0.18,
  Hyatt: 0.13,
  Wyndham: 0.13,
};
const INDEPENDENT_STAR_WEIGHTS: ByStars = [0.05, 0.1, 0.2, 0.43, 0.22];
/** Median lower end of the nightly price range, and its log-scale spread, by stars. */
const PRICE_MEDIAN: ByStars = [50, 80, 140, 210, 470];
const PRICE_LOG_SD: ByStars = [0.08, 0.18, 0.2, 0.22, 0.35];
const PRICE_RATIO: readonly [number, number] = [1.3, 1.9];
const REVIEW_MEAN: ByStars = [7.1, 7.4, 7.9, 8.4, 8.9];
const REVIEW_SD = 0.35;
const REVIEW_BOUNDS: readonly [number, number] = [6.0, 9.6];
const REVIEW_COUNT_MEDIAN: ByStars = [2600, 1900, 2300, 2100, 950];
/** Review counts saturate smoothly below this scale instead of piling up at a hard cap. */
const REVIEW_COUNT_SCALE = 13_000;
const CANCELLATION_BASE: ByStars = [0.25, 0.35, 0.5, 0.55, 0.5];
const ROOM_TYPE_COUNT_WEIGHTS = [0.12, 0.5, 0.28, 0.1] as const;

/** Amenities in display order, with the probability of each by stars (or a rule). */
const AMENITY_ODDS: readonly (readonly [string, ByStars])[] = [
  ["Air conditioning", [0.5, 0.5, 0, 0, 0]],
  ["Shared lounge", [0.8, 0.2, 0, 0, 0]],
  ["Shared kitchen", [0.5, 0.1, 0, 0, 0]],
  ["24-hour front desk", [0.3, 0.3, 0.3, 0.3, 0.3]],
  ["Fitness center", [0, 0.2, 0.65, 0.85, 0.95]],
  ["Restaurant", [0, 0.1, 0.45, 0.7, 0.95]],
  ["Bar", [0.15, 0.2, 0.35, 0.6, 0.85]],
  ["Rooftop bar", [0, 0.05, 0.1, 0.2, 0.2]],
  ["Spa", [0, 0, 0, 0.1, 0.65]],
  ["Pool", [0, 0, 0.03, 0.08, 0.2]],
  ["Concierge", [0, 0, 0.05, 0.3, 0.9]],
  ["Laundry", [0.15, 0.15, 0.15, 0.15, 0.15]],
];

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round5 = (x: number): number => Math.round(x / 5) * 5;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const at = (values: ByStars, stars: Stars): number => values[stars - 1]!;

function weightedIndex(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let u = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}

/** Largest-remainder split of `total` by `shares`, every part at least one when total allows. */
function apportion(total: number, shares: readonly number[]): number[] {
  const sum = shares.reduce((a, b) => a + b, 0);
  const exact = shares.map((s) => (total * s) / sum);
  const parts = exact.map((x) => Math.max(total >= shares.length ? 1 : 0, Math.floor(x)));
  const order = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; parts.reduce((a, b) => a + b, 0) < total; k++) parts[order[k % order.length]![1]]! += 1;
  return parts;
}

function chainSlots(rng: Rng, size: number): Chain[] {
  const chained = Math.round(size * CHAIN_SHARE);
  const quotas = apportion(
    chained,
    CHAIN_FAMILIES.map((f) => FAMILY_SHARES[f]),
  );
  const slots: Chain[] = CHAIN_FAMILIES.flatMap((family, i) => Array<Chain>(quotas[i]!).fill(family));
  while (slots.length < size) slots.push("Independent");
  return rng.shuffle(slots);
}

/** Every neighborhood once (as far as the size allows), the rest drawn by weight; then shuffled. */
function neighborhoodSlots(rng: Rng, size: number): Neighborhood[] {
  const slots = rng.shuffle(NEIGHBORHOODS).slice(0, size);
  const weights = NEIGHBORHOODS.map((n) => n.weight);
  while (slots.length < size) slots.push(NEIGHBORHOODS[weightedIndex(rng, weights)]!);
  return rng.shuffle(slots);
}

function fill(pattern: string, city: string, place: string): string {
  return pattern.replace("{city}", city).replace("{place}", place).replace(/\s+/g, " ").trim();
}

function brandName(rng: Rng, brand: Brand, hood: Neighborhood): string {
  const city = hood.borough === "Manhattan" ? rng.pick(CITY_LABELS) : hood.borough;
  // Real listings often say where in the area they stand ("… Midtown West").
  const qualifier = rng.pick(QUALIFIERS);
  const placed = QUALIFIERS.some((q) => hood.locality.includes(q));
  const place = rng.bernoulli(0.35) && !placed ? `${hood.locality} ${qualifier}` : hood.locality;
  // "Downtown Brooklyn" already says its borough.
  return fill(brand.pattern, hood.locality.includes(city) ? "" : city, place);
}

function independentName(rng: Rng, stars: Stars, hood: Neighborhood): string {
  const w = NAME_WORDS;
  const noun = rng.pick(w.nouns);
  const other = rng.pick(w.nouns.filter((n) => n !== noun));
  const adj = rng.pick(w.adjectives);
  const surname = rng.pick(w.surnames);
  const place = hood.locality;
  const byTier: Record<Stars, string[]> = {
    1: [`${adj} ${rng.pick(["Hostel", "Pods", "Bunkhouse"])} ${place}`, `The ${noun} Hostel`, `${noun} Pods`],
    2: [
      `The ${noun} ${rng.pick(w.budgetNouns)}`,
      `${surname} ${rng.pick(["Inn", "Rooms", "Guesthouse"])}`,
      `${adj} ${noun} Inn ${place}`,
    ],
    3: [`Hotel ${surname}`, `The ${adj} ${noun} Hotel`, `${noun} & ${other} Hotel`, `${place} ${noun} Hotel`],
    4: [`The ${surname}`, `The ${adj} ${noun}`, `${noun} House ${place}`, `${surname} Hotel ${place}`],
    5: [`The ${surname} ${rng.pick(w.luxurySuffixes)}`, `${surname} Park Hotel`, `The ${surname}, ${place}`],
  };
  return rng.pick(byTier[stars]);
}

/** Invented words of independent names; each names one hotel, so no two read as sister hotels. */
const INVENTED: ReadonlySet<string> = new Set([
  ...NAME_WORDS.nouns,
  ...NAME_WORDS.adjectives,
  ...NAME_WORDS.surnames,
]);
const inventedWords = (name: string): string[] => name.split(/[^\p{L}]+/u).filter((w) => INVENTED.has(w));
/** Two properties of one brand in one place differ by more than the city label. */
const stem = (name: string): string =>
  CITY_LABELS.reduce((n, label) => n.replace(label, ""), name)
    .replace(/\s+/g, " ")
    .trim();

/** Names already given (as stems), and the invented words already used. */
interface NameBook {
  taken: Set<string>;
  usedWords: Set<string>;
}

/**
 * A name not yet taken, whose brand cues give exactly its chain under both rules, and which reuses
 * no invented word (after many tries that last wish is waived, never the rest).
 */
function uniqueName(rng: Rng, book: NameBook, chain: Chain, draw: () => string): string {
  const cuesFit = (name: string): boolean =>
    !book.taken.has(stem(name)) && inferChain(name) === chain && inferChain(name, "pricebench") === chain;
  const wordsFit = (name: string): boolean => inventedWords(name).every((w) => !book.usedWords.has(w));
  const accept = (name: string): string => {
    book.taken.add(stem(name));
    for (const w of inventedWords(name)) book.usedWords.add(w);
    return name;
  };
  for (let attempt = 0; attempt < 60; attempt++) {
    const name = draw();
    if (cuesFit(name) && wordsFit(name)) return accept(name);
  }
  for (let attempt = 0; attempt < 60; attempt++) {
    const name = draw();
    if (cuesFit(name)) return accept(name);
    const compass = QUALIFIERS.some((q) => name.includes(q));
    for (const q of rng.shuffle(compass ? LANDMARK_QUALIFIERS : QUALIFIERS)) {
      if (!name.includes(q) && cuesFit(`${name} ${q}`)) return accept(`${name} ${q}`);
    }
  }
  for (let n = 2; n < 100_000; n++) {
    const name = `${draw()} ${n}`;
    if (cuesFit(name)) return accept(name);
  }
  throw new Error(
    `no name fits a ${chain} hotel: the generator's word lists carry another family's brand cue`,
  );
}

function amenities(rng: Rng, stars: Stars, brand: Brand | undefined): string[] {
  const out = ["Free WiFi"];
  for (const [amenity, odds] of AMENITY_ODDS) if (rng.bernoulli(at(odds, stars))) out.push(amenity);
  if (brand?.extendedStay) out.push("Kitchenette");
  if (brand && rng.bernoulli(0.3)) out.push("Business center");
  return out;
}

function roomTypes(rng: Rng, stars: Stars): string[] {
  const list = ROOM_TYPES_BY_STARS[stars];
  const count = Math.min(list.length, weightedIndex(rng, ROOM_TYPE_COUNT_WEIGHTS) + 1);
  const chosen = new Set(rng.shuffle(list).slice(0, count));
  return list.filter((r) => chosen.has(r));
}

function priceRange(rng: Rng, stars: Stars, factor: number): { priceMin: number; priceMax: number } {
  const level = at(PRICE_MEDIAN, stars) * factor * Math.exp(at(PRICE_LOG_SD, stars) * rng.normal());
  const ratio = rng.uniform(PRICE_RATIO[0], PRICE_RATIO[1]);
  const priceMin = clamp(
    round5(level),
    POOL_PRICE_FLOOR,
    Math.floor(POOL_PRICE_CEILING / PRICE_RATIO[0] / 5) * 5,
  );
  const priceMax = clamp(round5(priceMin * ratio), priceMin + 5, POOL_PRICE_CEILING);
  return { priceMin, priceMax };
}

function breakfastProb(rng: Rng, stars: Stars, brand: Brand | undefined): number {
  if (brand) return round2(clamp(brand.breakfast + rng.uniform(-0.05, 0.05), 0, 1));
  if (stars <= 2) return round2(rng.uniform(0, 0.1));
  if (stars === 5) return round2(rng.uniform(0.1, 0.3));
  return round2(rng.bernoulli(0.15) ? rng.uniform(0.6, 0.85) : rng.uniform(0, 0.25));
}

function makeHotel(id: number, chain: Chain, hood: Neighborhood, rng: Rng, book: NameBook): Hotel {
  const brand =
    chain === "Independent"
      ? undefined
      : (() => {
          const options = BRANDS.filter((b) => b.family === chain);
          return options[
            weightedIndex(
              rng,
              options.map((b) => b.weight),
            )
          ]!;
        })();
  const stars: Stars = brand ? brand.stars : ((weightedIndex(rng, INDEPENDENT_STAR_WEIGHTS) + 1) as Stars);
  const name = uniqueName(rng, book, chain, () =>
    brand ? brandName(rng, brand, hood) : independentName(rng, stars, hood),
  );
  const review = at(REVIEW_MEAN, stars) + REVIEW_SD * rng.normal();
  const rawCount = at(REVIEW_COUNT_MEDIAN, stars) * (brand ? 1.2 : 1) * Math.exp(0.75 * rng.normal());
  const cancellation = at(CANCELLATION_BASE, stars) + (brand ? 0.1 : 0) + rng.uniform(-0.08, 0.08);
  return {
    id,
    name,
    stars,
    neighborhood: hood.name,
    chain,
    reviewScoreBase: Math.round(clamp(review, REVIEW_BOUNDS[0], REVIEW_BOUNDS[1]) * 10) / 10,
    reviewCountBase: Math.max(
      120,
      Math.round(REVIEW_COUNT_SCALE * (1 - Math.exp(-rawCount / REVIEW_COUNT_SCALE))),
    ),
    ...priceRange(rng, stars, hood.priceFactor * (brand?.priceFactor ?? 1)),
    roomTypes: roomTypes(rng, stars),
    freeCancellationProb: round2(clamp(cancellation, 0.05, 0.95)),
    breakfastProb: breakfastProb(rng, stars, brand),
    amenities: amenities(rng, stars, brand),
  };
}

/**
 * Pin the pool's cheapest lower price to the floor and its dearest upper price to the ceiling,
 * keeping each of the two properties' own max/min ratio, so every pool spans exactly $45–$1,650.
 */
function anchorPriceBounds(hotels: Hotel[]): void {
  if (hotels.length < 2) return;
  const cheapest = hotels.reduce((a, b) => (b.priceMin < a.priceMin ? b : a));
  const ratioLow = cheapest.priceMax / cheapest.priceMin;
  cheapest.priceMin = POOL_PRICE_FLOOR;
  cheapest.priceMax = round5(POOL_PRICE_FLOOR * ratioLow);
  const dearest = hotels.filter((h) => h !== cheapest).reduce((a, b) => (b.priceMax > a.priceMax ? b : a));
  const ratioHigh = dearest.priceMax / dearest.priceMin;
  dearest.priceMax = POOL_PRICE_CEILING;
  dearest.priceMin = round5(POOL_PRICE_CEILING / ratioHigh);
}

/**
 * A seeded pool of New-York-like hotel profiles. Same seed and size ⇒ identical pool; every name and
 * text is invented. See README.md in this folder for the distributions.
 */
export function generateHotelPool(
  seed: number | string = DEFAULT_POOL_SEED,
  size = DEFAULT_POOL_SIZE,
): Hotel[] {
  if (!Number.isInteger(size) || size < 1) {
    throw new UserError(`hotel pool size must be a positive integer, got ${size}`);
  }
  const rng = createRng(`bazaar/hotels/${seed}`);
  const chains = chainSlots(rng.fork("chains"), size);
  const hoods = neighborhoodSlots(rng.fork("neighborhoods"), size);
  const book: NameBook = { taken: new Set(), usedWords: new Set() };
  const hotels = chains.map((chain, i) =>
    makeHotel(i + 1, chain, hoods[i]!, rng.fork(`hotel-${i + 1}`), book),
  );
  anchorPriceBounds(hotels);
  return hotels.map((h) => HotelSchema.parse(h));
}
