/**
 * A listing's description in an arm: the neutral text of one template, led — for any other arm —
 * by one library wording filled from the listing (a seller puts the hook first, so the result card,
 * which shows the first sentence, shows it too).
 */
import type { Description, DescriptionArm } from "../../environments/shop/types.ts";
import { type ArmLibrary, type ArmWording, type LibraryArm, wordingId } from "./schema.ts";
import { joinWithin, NEUTRAL_TEMPLATES, neutralSentences, neutralWordingId } from "./templates.ts";
import { type DescribedListing, fillSlots } from "./text.ts";

/** Whether an arm can be put on a listing: a false claim needs an amenity the listing lacks. */
export function armApplicable(
  arm: DescriptionArm,
  l: Pick<DescribedListing, "freeCancellation" | "breakfast">,
): boolean {
  return arm !== "false-claim" || !l.freeCancellation || !l.breakfast;
}

/** The library's wordings of `arm` that fit the listing (a false claim only of an amenity it lacks). */
export function wordingsFor(
  library: ArmLibrary,
  arm: LibraryArm,
  l: Pick<DescribedListing, "freeCancellation" | "breakfast">,
): ArmWording[] {
  return library.wordings.filter(
    (w) =>
      w.arm === arm && (w.claims === null || (w.claims === "breakfast" ? !l.breakfast : !l.freeCancellation)),
  );
}

/** The neutral description of a listing by template `template` (0-based), as a Description. */
export function neutralListingDescription(l: DescribedListing, template: number): Description {
  return {
    arm: "neutral",
    wording: neutralWordingId(template),
    text: joinWithin(neutralSentences(l, template)),
    claims: null,
  };
}

/**
 * The description of a listing in a wording's arm: the wording filled from the listing, then the
 * neutral text of `template`; trailing neutral sentences give way when it would pass 600 characters.
 */
export function wordingDescription(l: DescribedListing, wording: ArmWording, template: number): Description {
  return {
    arm: wording.arm,
    wording: wordingId(wording),
    text: joinWithin([fillSlots(wording.text, l), ...neutralSentences(l, template)]),
    claims: wording.claims,
  };
}

/** How many neutral templates there are (a design draws one per listing). */
export const NEUTRAL_TEMPLATE_COUNT = NEUTRAL_TEMPLATES.length;
