import { z } from "zod";

/** Amenities a request can require and a search can filter on (the listing's terms). */
export const AMENITIES = ["free_cancellation", "breakfast"] as const;
export type Amenity = (typeof AMENITIES)[number];

/** A request's hard constraints; a null (or empty) field is a constraint the request does not have. */
export const HardConstraintsSchema = z.object({
  /** Highest acceptable nightly price, dollars. */
  maxPrice: z.number().positive().nullable(),
  minStars: z.number().int().min(1).max(5).nullable(),
  /** Acceptable areas (a listing is acceptable when its area is one of them). */
  areas: z.array(z.string()).min(1).nullable(),
  /** Amenities the listing must offer. */
  amenities: z.array(z.enum(AMENITIES)),
});
export type HardConstraints = z.infer<typeof HardConstraintsSchema>;
