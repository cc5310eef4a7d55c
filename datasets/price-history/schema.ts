import { z } from "zod";
import { CATALOG_MONEY } from "./catalog-money.ts";

/** The 18 categories of AmazonHistoryPrice; each is one file `<category>.json` of the data set. */
export const PRICE_HISTORY_CATEGORIES = [
  "automotive",
  "baby-products",
  "beauty",
  "books",
  "electronics",
  "health-personal-care",
  "home-kitchen",
  "industrial-scientific",
  "movies-tv",
  "music",
  "other",
  "patio-lawn-garden",
  "pet-supplies",
  "software",
  "sports-outdoors",
  "tools-home-improvement",
  "toys-games",
  "video-games",
] as const;
export type PriceHistoryCategory = (typeof PRICE_HISTORY_CATEGORIES)[number];

const money = z.string().regex(CATALOG_MONEY, 'expected a dollar amount like "$1,123.50"');
const date = z.string().regex(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/, 'expected a date like "Oct 12, 2023"');

/**
 * One product object of the AmazonHistoryPrice files, as the public data set writes it: money as
 * strings, snake_case keys. `description` (832 of 930 products), `features` (793), `camel_img`,
 * the Amazon fields and `current_price_date` are sometimes absent. Unknown keys are ignored.
 */
export const AmazonHistoryPriceProductSchema = z.object({
  title: z.string().min(1, "expected a non-empty title"),
  current_price: money,
  current_price_date: date.optional(),
  list_price: money,
  average_price: money,
  highest_price: money,
  highest_price_date: date,
  lowest_price: money,
  lowest_price_date: date,
  category: z.enum(PRICE_HISTORY_CATEGORIES, {
    error: () => `expected one of the 18 categories (${PRICE_HISTORY_CATEGORIES.join(", ")})`,
  }),
  badge: z.string(),
  link: z.string(),
  amazon_title: z.string().optional(),
  amazon_link: z.string().optional(),
  img: z.string().optional(),
  camel_img: z.string().optional(),
  description: z.string().optional(),
  features: z.string().optional(),
});
export type AmazonHistoryPriceProduct = z.infer<typeof AmazonHistoryPriceProductSchema>;

/** A product as bazaar uses it: money as numbers, the text a prompt shows, a codename. */
export interface PriceHistoryProduct {
  /** `<category>_<n>`: the n-th product of its category file, as the reference code names it. */
  id: string;
  title: string;
  category: PriceHistoryCategory;
  /** The description, or the features when the description is shorter than 5 characters (the reference rule). */
  description: string;
  hasDescription: boolean;
  hasFeatures: boolean;
  currentPrice: number;
  listPrice: number;
  averagePrice: number;
  highestPrice: number;
  lowestPrice: number;
}
