/**
 * How a listing, where it was shown, enters a shopper's utility: the covariates of the revealed-
 * preference logit of specs/shop.md. Simulated shoppers and the estimator that recovers them code
 * the same listing the same way from here, so a known parameter is a coefficient of this coding.
 */
import { bedRank } from "../choice/attributes.ts";
import type { DescriptionArm } from "./types.ts";

/**
 * Covariates in the order of the logit: the listing's own attributes, rank fixed effects against
 * rank 1 (ranks 2–5 apart, 6 and beyond pooled), a later-page indicator, and the four treatments.
 */
export const SHOP_COVARIATES = [
  "lnPrice",
  "review",
  "stars",
  "bedRank",
  "freeCancellation",
  "breakfast",
  "rank2",
  "rank3",
  "rank4",
  "rank5",
  "rank6plus",
  "laterPage",
  "sponsored",
  "endorsed",
  "scarcity",
  "discount",
  "socialProof",
  "authority",
  "urgency",
  "lossAversion",
  "injectionBasic",
  "injectionStrong",
  "falseClaim",
] as const;
export type ShopCovariate = (typeof SHOP_COVARIATES)[number];

/** The listing's own attributes among the covariates: the agent's tastes, free of the platform. */
export const ATTRIBUTE_COVARIATES = [
  "lnPrice",
  "review",
  "stars",
  "bedRank",
  "freeCancellation",
  "breakfast",
] as const satisfies readonly ShopCovariate[];

/** The platform treatments among the covariates, whose price-equivalents the analysis reports. */
export const TREATMENT_COVARIATES = ["sponsored", "endorsed", "scarcity", "discount"] as const;
export type TreatmentCovariate = (typeof TREATMENT_COVARIATES)[number];

/** The description arms among the covariates (against `neutral`), in DESCRIPTION_ARMS order. */
export const ARM_COVARIATES = [
  "socialProof",
  "authority",
  "urgency",
  "lossAversion",
  "injectionBasic",
  "injectionStrong",
  "falseClaim",
] as const satisfies readonly ShopCovariate[];
export type ArmCovariate = (typeof ARM_COVARIATES)[number];

/** The covariate of a description arm (null for `neutral`, the reference). */
export function armCovariate(arm: DescriptionArm): ArmCovariate | null {
  return arm === "neutral"
    ? null
    : (arm.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as ArmCovariate);
}

export const RANK_COVARIATES = ["rank2", "rank3", "rank4", "rank5", "rank6plus"] as const;

/** The rank fixed effect a 1-based position on a page falls in (null for rank 1, the reference). */
export function rankCovariate(rank: number): (typeof RANK_COVARIATES)[number] | null {
  if (rank <= 1) return null;
  return rank >= 6 ? "rank6plus" : (`rank${rank}` as (typeof RANK_COVARIATES)[number]);
}

/** What the coding reads of a listing (a listing of the catalog, a viewed detail or a record). */
export interface CodedListing {
  price: number;
  reviewScore: number;
  stars: number;
  roomType: string;
  freeCancellation: boolean;
  breakfast: boolean;
  sponsored: boolean;
  endorsed: boolean;
  roomsLeft: number | null;
  wasPrice: number | null;
  /** The description's arm; absent (neutral) in records stored before descriptions. */
  arm?: DescriptionArm;
}

/** The covariate row of a listing shown at `rank` on `page`, in SHOP_COVARIATES order. */
export function shopCovariates(l: CodedListing, rank: number, page: number): number[] {
  const r = rankCovariate(rank);
  return [
    Math.log(l.price),
    l.reviewScore,
    l.stars,
    bedRank(l.roomType),
    l.freeCancellation ? 1 : 0,
    l.breakfast ? 1 : 0,
    r === "rank2" ? 1 : 0,
    r === "rank3" ? 1 : 0,
    r === "rank4" ? 1 : 0,
    r === "rank5" ? 1 : 0,
    r === "rank6plus" ? 1 : 0,
    page > 1 ? 1 : 0,
    l.sponsored ? 1 : 0,
    l.endorsed ? 1 : 0,
    l.roomsLeft !== null ? 1 : 0,
    l.wasPrice !== null ? 1 : 0,
    ...ARM_COVARIATES.map((a) => (l.arm !== undefined && armCovariate(l.arm) === a ? 1 : 0)),
  ];
}
