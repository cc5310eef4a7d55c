import { z } from "zod";

/** Chain families recognised by the PriceBench reference; everything else is independent. */
export const CHAIN_FAMILIES = ["Hilton", "Marriott", "IHG", "Hyatt", "Wyndham"] as const;
export const CHAINS = [...CHAIN_FAMILIES, "Independent"] as const;
export type Chain = (typeof CHAINS)[number];

/**
 * One hotel property of a pool. Fixed attributes (name, stars, neighborhood, chain) are shown as is;
 * the variable ones are ranges and probabilities from which every appearance in a task re-draws.
 */
export const HotelSchema = z
  .object({
    id: z.number().int().nonnegative(),
    name: z.string().trim().min(1),
    stars: z.number().int().min(1).max(5),
    neighborhood: z.string().trim().min(1),
    chain: z.enum(CHAINS),
    /** Base guest review score on the 0–10 scale; each appearance draws base ± 0.2. */
    reviewScoreBase: z.number().min(0).max(10),
    /** Base review count; each appearance draws base ± 10%. */
    reviewCountBase: z.number().int().nonnegative(),
    /** Nightly price range in US dollars; each appearance draws uniformly within it. */
    priceMin: z.number().positive(),
    priceMax: z.number().positive(),
    roomTypes: z.array(z.string().trim().min(1)).min(1),
    freeCancellationProb: z.number().min(0).max(1),
    breakfastProb: z.number().min(0).max(1),
    amenities: z.array(z.string()).default([]),
  })
  .refine((h) => h.priceMin <= h.priceMax, {
    message: "priceMin must not exceed priceMax",
    path: ["priceMax"],
  });

export type Hotel = z.infer<typeof HotelSchema>;
