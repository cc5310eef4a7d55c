import { UserError } from "../../environments/kernel/errors.ts";
import { roundCents } from "../../environments/kernel/money.ts";
import { createRng, type Rng } from "../../environments/kernel/rng.ts";
import { DEFAULT_CATALOG_SEED, DEFAULT_CATALOG_SIZE } from "./catalog-defaults.ts";
import { formatCatalogMoney } from "./catalog-money.ts";
import {
  type AmazonHistoryPriceProduct,
  PRICE_HISTORY_CATEGORIES,
  type PriceHistoryCategory,
} from "./schema.ts";
import {
  BRAND_HEADS,
  BRAND_TAILS,
  CATEGORY_WEIGHTS,
  COLORS,
  DESCRIPTION_SENTENCES,
  FEATURE_LINES,
  KINDS,
  MONTHS,
  TITLE_QUALIFIERS,
} from "./vocabulary.ts";

export { DEFAULT_CATALOG_SEED, DEFAULT_CATALOG_SIZE };
/** The cheapest and dearest listed prices of the public data set; generated prices stay inside. */
export const LISTED_PRICE_FLOOR = 4.99;
export const LISTED_PRICE_CEILING = 4299.98;

/**
 * Quantiles of lowest price ÷ listed price in the public data set (min, 5%, 10%, 25%, 50%, 75%,
 * 90%, 95%, max): the generator draws the ratio by inverse-CDF interpolation between them, so about
 * 5% of products have a cost above the 0.8 × listed budget (conflicting interest), as in the data.
 */
const COST_RATIO_QUANTILES: readonly (readonly [number, number])[] = [
  [0, 0.086],
  [0.05, 0.217],
  [0.1, 0.26],
  [0.25, 0.369],
  [0.5, 0.508],
  [0.75, 0.647],
  [0.9, 0.75],
  [0.95, 0.8],
  [1, 0.998],
];
/** Spread of listed prices around a kind's median (log scale). */
const LISTED_LOG_SD = 0.45;
/** Every SMALL_GAP_EVERY-th product has |0.8 × listed − lowest| < $1, alternating below and above. */
const SMALL_GAP_EVERY = 30;

/** How many products each category gets: proportional to the public data set, at least 3 each. */
export function categoryCounts(size: number): Record<PriceHistoryCategory, number> {
  if (!Number.isInteger(size) || size < 3 * PRICE_HISTORY_CATEGORIES.length) {
    throw new UserError(
      `a generated catalog needs at least ${3 * PRICE_HISTORY_CATEGORIES.length} products (3 per category), got ${size}`,
    );
  }
  const total = Object.values(CATEGORY_WEIGHTS).reduce((a, b) => a + b, 0);
  const counts = {} as Record<PriceHistoryCategory, number>;
  for (const c of PRICE_HISTORY_CATEGORIES)
    counts[c] = Math.max(3, Math.round((size * CATEGORY_WEIGHTS[c]) / total));
  // Settle the rounding on the two largest categories, alternately.
  let diff = size - Object.values(counts).reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i++) {
    const c = i % 2 === 0 ? "other" : "electronics";
    counts[c] += Math.sign(diff);
    diff -= Math.sign(diff);
  }
  return counts;
}

function costRatio(u: number): number {
  for (let i = 1; i < COST_RATIO_QUANTILES.length; i++) {
    const [q1, r1] = COST_RATIO_QUANTILES[i]!;
    const [q0, r0] = COST_RATIO_QUANTILES[i - 1]!;
    if (u <= q1) return r0 + ((u - q0) / (q1 - q0)) * (r1 - r0);
  }
  return COST_RATIO_QUANTILES.at(-1)![1];
}

/** A shelf price: cheap items end in .99, dearer ones in .99, .95 or .00. */
function shelfPrice(usd: number, rng: Rng): number {
  const clamped = Math.min(LISTED_PRICE_CEILING, Math.max(LISTED_PRICE_FLOOR, usd));
  const dollars = Math.floor(clamped);
  const ending = clamped < 50 ? 0.99 : rng.pick([0.99, 0.99, 0.95, 0]);
  return Math.min(LISTED_PRICE_CEILING, Math.max(LISTED_PRICE_FLOOR, roundCents(dollars + ending)));
}

function date(rng: Rng, fromYear: number, toYear: number): string {
  const year = fromYear + rng.int(toYear - fromYear + 1);
  return `${rng.pick(MONTHS)} ${1 + rng.int(28)}, ${year}`;
}

function brandName(rng: Rng): string {
  return rng.pick(BRAND_HEADS) + rng.pick(BRAND_TAILS);
}

function modelCode(rng: Rng): string {
  return String.fromCharCode(65 + rng.int(26)) + (2 + rng.int(98));
}

/** One generated product object in the AmazonHistoryPrice schema. */
function product(
  category: PriceHistoryCategory,
  index: number,
  rng: Rng,
  usedTitles: Set<string>,
): AmazonHistoryPriceProduct {
  const kind = rng.pick(KINDS[category]);
  const brand = brandName(rng);
  const qualifier = rng.bernoulli(0.4) ? ` ${rng.pick(TITLE_QUALIFIERS)}` : "";
  const color = rng.pick(COLORS);
  let title = "";
  do title = `${brand} ${modelCode(rng)}${qualifier} ${kind.noun}, ${color}`;
  while (usedTitles.has(title));
  usedTitles.add(title);

  const list = shelfPrice(kind.median * Math.exp(LISTED_LOG_SD * rng.normal()), rng);
  const shape = rng.next();
  const highest =
    shape < 0.55
      ? list
      : shape < 0.8
        ? roundCents(list * rng.uniform(0.8, 0.99))
        : roundCents(list * rng.uniform(1.01, 1.4));
  const listed = Math.max(list, highest);
  let lowest: number;
  if (index % SMALL_GAP_EVERY === SMALL_GAP_EVERY - 1) {
    // |B − C| < $1 on purpose, below and above zero in turn, to exercise the small-gap rule.
    const below = Math.floor(index / SMALL_GAP_EVERY) % 2 === 0;
    lowest = roundCents(0.8 * listed + (below ? -1 : 1) * rng.uniform(0.05, 0.95));
  } else {
    lowest = roundCents(costRatio(rng.next()) * listed);
  }
  lowest = Math.min(highest, Math.max(0.01, lowest));
  const current = roundCents(lowest + (highest - lowest) * rng.next() ** 1.5);
  const average = roundCents(lowest + (highest - lowest) * rng.uniform(0.3, 0.7));

  const code = `${category}-${index + 1}`;
  const sentences = rng.shuffle(DESCRIPTION_SENTENCES).slice(0, 1 + rng.int(3));
  const description = `The ${brand} ${kind.noun} in ${color.toLowerCase()}. ${sentences.join(" ")}`;
  const features = rng
    .shuffle(FEATURE_LINES)
    .slice(0, 2 + rng.int(3))
    .join("\n");
  const badgeDraw = rng.next();
  const out: AmazonHistoryPriceProduct = {
    title,
    current_price: formatCatalogMoney(current),
    list_price: formatCatalogMoney(list),
    average_price: formatCatalogMoney(average),
    category,
    badge: badgeDraw < 0.5 ? "" : badgeDraw < 0.91 ? "Best Price" : "Good Deal",
    link: `https://price-history.invalid/product/${code}`,
    amazon_title: `${brand} ${kind.noun}`,
    amazon_link: `https://shop.invalid/dp/${code}`,
    img: `https://images.invalid/${code}.jpg`,
    lowest_price_date: date(rng, 2016, 2023),
    lowest_price: formatCatalogMoney(lowest),
    highest_price_date: date(rng, 2016, 2023),
    highest_price: formatCatalogMoney(highest),
  };
  if (rng.bernoulli(0.6)) out.camel_img = `https://images.invalid/${code}-small.jpg`;
  if (rng.bernoulli(0.97)) out.current_price_date = `Nov ${1 + rng.int(28)}, 2023`;
  if (rng.bernoulli(0.89)) out.description = description;
  if (rng.bernoulli(0.85)) out.features = features;
  return out;
}

/**
 * A seeded, invented price-history catalog in the AmazonHistoryPrice schema, products ordered by
 * category (alphabetically) as the public folder's files are read. Same seed and size ⇒ the
 * identical catalog; each product draws from its own forked stream.
 */
export function generatePriceHistoryCatalog(
  seed: number | string = DEFAULT_CATALOG_SEED,
  size: number = DEFAULT_CATALOG_SIZE,
): AmazonHistoryPriceProduct[] {
  const counts = categoryCounts(size);
  const root = createRng(`bazaar/price-history/${seed}`);
  const usedTitles = new Set<string>();
  const out: AmazonHistoryPriceProduct[] = [];
  for (const category of PRICE_HISTORY_CATEGORIES) {
    for (let i = 0; i < counts[category]; i++) {
      out.push(product(category, out.length, root.fork(`${category}/${i}`), usedTitles));
    }
  }
  return out;
}
