/**
 * The shipped arm library (arms.json — validated and checked when first used, exactly as a user's
 * file is; first use, not import, so that a command's `--help` pays nothing for it) and the tagger
 * over it: `tagArm(text)` gives the arm of any text.
 */
import type { DescriptionArm } from "../../environments/shop/types.ts";
import armsFile from "./arms.json" with { type: "json" };
import { parseArmLibrary } from "./load.ts";
import type { ArmLibrary } from "./schema.ts";
import { type ArmTag, type ListingTerms, tagDescription } from "./tagger.ts";

let shipped: ArmLibrary | null = null;

/** The shipped library, datasets/descriptions/arms.json. */
export function defaultArmLibrary(): ArmLibrary {
  shipped ??= parseArmLibrary(JSON.stringify(armsFile), "datasets/descriptions/arms.json");
  return shipped;
}

/**
 * The arm of a description by the library's markers and the tagger's rules (the shipped library
 * unless another is given); pass the listing's terms to judge amenity claims against them.
 */
export function tagArm(text: string, terms?: ListingTerms, library?: ArmLibrary): DescriptionArm {
  return tagDescription(text, library ?? defaultArmLibrary(), terms).arm;
}

/** The tag with the amenity a false claim claims and the text that decided it. */
export function tagText(text: string, terms?: ListingTerms, library?: ArmLibrary): ArmTag {
  return tagDescription(text, library ?? defaultArmLibrary(), terms);
}
