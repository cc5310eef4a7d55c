export { DEFAULT_ELICIT_DOMAINS } from "./default.ts";
export { domainProblems, loadElicitDomain, parseElicitDomain } from "./load.ts";
export { type PricedItem, pathItemId, pathOffers } from "./paths.ts";
export {
  type Comparison,
  ComparisonSchema,
  ELICIT_DOMAINS,
  type ElicitDomain,
  type ElicitDomainName,
  ElicitDomainNameSchema,
  ElicitDomainSchema,
  type ElicitItem,
  ElicitItemSchema,
  type FeatureSpec,
  FeatureSpecSchema,
  type FeatureValue,
  type OfferRef,
  OfferRefSchema,
  type PathSpec,
  PathSpecSchema,
  type Utterance,
  UtteranceSchema,
} from "./schema.ts";
