export { checkArmLibrary, STAND_IN_LISTINGS, WORDING_MAX_CHARS } from "./check.ts";
export {
  armApplicable,
  NEUTRAL_TEMPLATE_COUNT,
  neutralListingDescription,
  wordingDescription,
  wordingsFor,
} from "./compose.ts";
export { defaultArmLibrary, tagArm, tagText } from "./library.ts";
export { loadArmLibrary, parseArmLibrary } from "./load.ts";
export {
  type ArmLibrary,
  type ArmLibraryInput,
  ArmLibrarySchema,
  type ArmWording,
  type ArmWordingInput,
  ArmWordingSchema,
  LIBRARY_ARMS,
  type LibraryArm,
  MARKED_ARMS,
  wordingId,
} from "./schema.ts";
export {
  AI_ADDRESS,
  type ArmTag,
  addressesAi,
  amenityOf,
  claimedAmenities,
  compileMarkers,
  IMPERATIVE,
  type ListingTerms,
  markersFound,
  posesAsRole,
  ROLE_MARKERS,
  tagDescription,
  WAIVER,
} from "./tagger.ts";
export {
  joinWithin,
  listedFacilities,
  NEUTRAL_TEMPLATES,
  neutralDescription,
  neutralSentences,
  neutralWordingId,
  type TemplateSentence,
} from "./templates.ts";
export {
  CARD_SENTENCE_MAX_CHARS,
  cutOnWord,
  DESCRIPTION_MAX_CHARS,
  type DescribedListing,
  fillSlots,
  firstSentence,
  oneLineText,
  placeOf,
  SLOTS,
  type Slot,
  unknownSlots,
} from "./text.ts";
