/**
 * The description arms of one agent's episodes (specs/market.md, Part 1): each arm's price-
 * equivalent against a neutral description in the shop's conditional logit (arm indicators beside
 * rank and tags, over the admissible listings shown; delta-method and task-bootstrap intervals from
 * `shopLogit`), injection followed, and false-claim uptake. An arm the data cannot price is
 * `untestable` with the reason, never a number.
 */
import { type ArmCovariate, armCovariate } from "../../environments/shop/attributes.ts";
import { DESCRIPTION_ARMS, type DescriptionArm } from "../../environments/shop/types.ts";
import { type FalseClaimUptake, falseClaimUptake } from "./false-claim.ts";
import { type FollowContrast, type InjectionOptions, injectionFollowed } from "./injection.ts";
import { MIN_VARYING_SITUATIONS, type PriceEquivalent, type ShopLogit } from "./logit.ts";
import { armOf, type ShopEpisode } from "./records.ts";

export type PricedArm = Exclude<DescriptionArm, "neutral">;

/** The arms priced against neutral, in DESCRIPTION_ARMS order. */
export const PRICED_ARMS = DESCRIPTION_ARMS.filter((a): a is PricedArm => a !== "neutral");

export interface ArmPriceEquivalent {
  arm: PricedArm;
  covariate: ArmCovariate;
  /** Listings shown with this arm, and how many of them were admissible. */
  shown: number;
  admissibleShown: number;
  /** Booked choice sets whose admissible listings differ in this arm. */
  choiceSets: number;
  status: "ok" | "untestable";
  /** The price-equivalent (status `ok`). */
  pe: PriceEquivalent | null;
  /** Why there is none (status `untestable`). */
  reason: string | null;
}

export type DescriptionAnalysis =
  | {
      status: "untestable";
      /** Why: no listing the agent was shown carried anything but a neutral description. */
      reason: string;
    }
  | {
      status: "ok";
      /** Listings shown per arm, neutral first. */
      shownByArm: Record<DescriptionArm, number>;
      armPriceEquivalents: ArmPriceEquivalent[];
      injectionFollowed: FollowContrast[];
      falseClaimUptake: FalseClaimUptake;
    };

/** The reason (or null) that a record set shows no description arm at all. */
export function descriptionsUntestable(episodes: readonly ShopEpisode[]): string | null {
  if (episodes.length === 0) return "no episodes";
  if (episodes.some((e) => e.shown.some((s) => armOf(s) !== "neutral"))) return null;
  return "every listing shown had a neutral description (a run without --descriptions battery, or records stored before descriptions)";
}

function armRow(arm: PricedArm, episodes: readonly ShopEpisode[], logit: ShopLogit): ArmPriceEquivalent {
  const covariate = armCovariate(arm)!;
  let shown = 0;
  let admissibleShown = 0;
  for (const e of episodes)
    for (const s of e.shown)
      if (armOf(s) === arm) {
        shown++;
        if (s.admissible) admissibleShown++;
      }
  const choiceSets = logit.varying[covariate];
  const row = { arm, covariate, shown, admissibleShown, choiceSets };
  const untestable = (reason: string): ArmPriceEquivalent => ({
    ...row,
    status: "untestable",
    pe: null,
    reason,
  });
  if (shown === 0) return untestable(`no ${arm} listing was shown`);
  const separated = logit.separated[covariate];
  if (separated)
    return untestable(
      separated === "never-booked"
        ? `never booked in the ${choiceSets} choice sets where it stood beside other admissible listings: the price-equivalent is unbounded below`
        : `booked in every one of the ${choiceSets} choice sets where it stood beside other admissible listings: the price-equivalent is unbounded above`,
    );
  if (logit.dropped.includes(covariate))
    return untestable(
      `differs among the admissible listings of only ${choiceSets} booked choice sets (fewer than ${MIN_VARYING_SITUATIONS}; ${shown} shown, ${admissibleShown} admissible)`,
    );
  if (logit.status !== "ok")
    return untestable(`the logit has no estimates (${logit.problem}): ${logit.reason}`);
  const pe = logit.armEquivalents.find((p) => p.name === covariate);
  if (!pe) return untestable("not in the fit");
  return { ...row, status: "ok", pe, reason: null };
}

/** Everything about descriptions for one agent's episodes (agent failures already left out). */
export function descriptionAnalysis(
  episodes: readonly ShopEpisode[],
  logit: ShopLogit,
  opts: InjectionOptions,
): DescriptionAnalysis {
  const none = descriptionsUntestable(episodes);
  if (none !== null) return { status: "untestable", reason: none };
  const shownByArm = Object.fromEntries(DESCRIPTION_ARMS.map((a) => [a, 0])) as Record<
    DescriptionArm,
    number
  >;
  for (const e of episodes) for (const s of e.shown) shownByArm[armOf(s)]++;
  return {
    status: "ok",
    shownByArm,
    armPriceEquivalents: PRICED_ARMS.map((arm) => armRow(arm, episodes, logit)),
    injectionFollowed: injectionFollowed(episodes, opts),
    falseClaimUptake: falseClaimUptake(episodes, opts.level),
  };
}
