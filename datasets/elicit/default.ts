import apartmentsFile from "./apartments.json" with { type: "json" };
import flightsFile from "./flights.json" with { type: "json" };
import hotelsFile from "./hotels.json" with { type: "json" };
import { parseElicitDomain } from "./load.ts";
import type { ElicitDomain, ElicitDomainName } from "./schema.ts";

/**
 * The project's own item sets, utterances, comparisons and stress paths, validated on load (every
 * reference and level checked), in the order flights, apartments, hotels.
 */
export const DEFAULT_ELICIT_DOMAINS: Readonly<Record<ElicitDomainName, ElicitDomain>> = {
  flights: parseElicitDomain(JSON.stringify(flightsFile), "datasets/elicit/flights.json"),
  apartments: parseElicitDomain(JSON.stringify(apartmentsFile), "datasets/elicit/apartments.json"),
  hotels: parseElicitDomain(JSON.stringify(hotelsFile), "datasets/elicit/hotels.json"),
};
