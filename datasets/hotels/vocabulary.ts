import type { CHAIN_FAMILIES } from "./schema.ts";

/**
 * The word lists the hotel generator draws from. Neighborhoods are real New York City areas (places,
 * not data); every brand is paired with invented locality wording, and independent hotel names are
 * composed from invented words, so no generated property is a copy of a real listing.
 */

export interface Neighborhood {
  /** Display name; outer-borough areas carry the borough ("Astoria, Queens"). */
  name: string;
  /** The short place name used inside hotel names ("Astoria"). */
  locality: string;
  borough: "Manhattan" | "Brooklyn" | "Queens" | "Bronx";
  /** Relative frequency of hotels there (Midtown and Times Square dominate, as in the market). */
  weight: number;
  /** Multiplier on the nightly price level. */
  priceFactor: number;
}

function hood(name: string, weight: number, priceFactor: number): Neighborhood {
  const locality = name.split(",")[0]!.trim();
  const inName = (["Brooklyn", "Queens", "Bronx"] as const).find((b) => name.includes(b));
  return { name, locality, borough: inName ?? "Manhattan", weight, priceFactor };
}

export const NEIGHBORHOODS: readonly Neighborhood[] = [
  hood("Midtown", 14, 1.0),
  hood("Times Square", 12, 1.0),
  hood("Midtown East", 6, 1.05),
  hood("Financial District", 6, 0.95),
  hood("Chelsea", 5, 1.05),
  hood("Lower East Side", 3, 1.0),
  hood("SoHo", 3, 1.2),
  hood("NoMad", 3, 1.1),
  hood("Hell's Kitchen", 3, 0.95),
  hood("TriBeCa", 2, 1.25),
  hood("Upper West Side", 2, 1.0),
  hood("Upper East Side", 2, 1.15),
  hood("East Village", 2, 0.95),
  hood("Greenwich Village", 2, 1.1),
  hood("Murray Hill", 2, 0.95),
  hood("Gramercy", 1, 1.05),
  hood("Flatiron", 1, 1.1),
  hood("Hudson Yards", 1, 1.15),
  hood("Koreatown", 1, 0.9),
  hood("Garment District", 2, 0.9),
  hood("Battery Park City", 1, 1.05),
  hood("Harlem", 1, 0.8),
  hood("Chinatown", 1, 0.8),
  hood("West Village", 1, 1.2),
  hood("Nolita", 1, 1.1),
  hood("Kips Bay", 1, 0.95),
  hood("Williamsburg, Brooklyn", 3, 0.95),
  hood("Downtown Brooklyn", 2, 0.85),
  hood("DUMBO, Brooklyn", 1, 1.05),
  hood("Bushwick, Brooklyn", 1, 0.75),
  hood("Park Slope, Brooklyn", 1, 0.85),
  hood("Long Island City, Queens", 3, 0.8),
  hood("Astoria, Queens", 1, 0.75),
  hood("Flushing, Queens", 1, 0.7),
  hood("Jamaica, Queens", 1, 0.7),
  hood("Mott Haven, Bronx", 1, 0.7),
];

/** A brand of a chain family, the way it is named, and what it typically offers. */
export interface Brand {
  family: (typeof CHAIN_FAMILIES)[number];
  /** `{city}` and `{place}` are filled in by the generator; the brand cue stays verbatim. */
  pattern: string;
  stars: 1 | 2 | 3 | 4 | 5;
  /** Typical probability that a rate includes breakfast. */
  breakfast: number;
  /** Extended-stay brand: suites with kitchens. */
  extendedStay: boolean;
  /** Multiplier on the star level's price (luxury flagships cost more than their stars say). */
  priceFactor: number;
  weight: number;
}

function brand(
  family: Brand["family"],
  pattern: string,
  stars: Brand["stars"],
  breakfast: number,
  weight: number,
  extras: { extendedStay?: boolean; priceFactor?: number } = {},
): Brand {
  return { family, pattern, stars, breakfast, weight, extendedStay: false, priceFactor: 1, ...extras };
}

const EXTENDED_STAY = { extendedStay: true };

export const BRANDS: readonly Brand[] = [
  brand("Hilton", "Hampton Inn {city} {place}", 3, 0.85, 3),
  brand("Hilton", "Hilton Garden Inn {city} {place}", 3, 0.3, 3),
  brand("Hilton", "Home2 Suites by Hilton {city} {place}", 3, 0.8, 1, EXTENDED_STAY),
  brand("Hilton", "Tru by Hilton {city} {place}", 2, 0.75, 1),
  brand("Hilton", "DoubleTree by Hilton {city} {place}", 4, 0.15, 3),
  brand("Hilton", "Embassy Suites by Hilton {city} {place}", 4, 0.9, 1),
  brand("Hilton", "Canopy by Hilton {city} {place}", 4, 0.1, 1),
  brand("Hilton", "Hilton {city} {place}", 4, 0.15, 1),
  brand("Hilton", "Conrad {city} {place}", 5, 0.15, 1),
  brand("Marriott", "Courtyard by Marriott {city} {place}", 3, 0.2, 3),
  brand("Marriott", "Fairfield Inn & Suites by Marriott {city} {place}", 3, 0.8, 2),
  brand("Marriott", "Residence Inn by Marriott {city} {place}", 3, 0.85, 2, EXTENDED_STAY),
  brand("Marriott", "SpringHill Suites by Marriott {city} {place}", 3, 0.8, 1),
  brand("Marriott", "TownePlace Suites by Marriott {city} {place}", 3, 0.75, 1, EXTENDED_STAY),
  brand("Marriott", "Moxy {city} {place}", 3, 0.05, 2),
  brand("Marriott", "Aloft {city} {place}", 3, 0.1, 1),
  brand("Marriott", "Four Points by Sheraton {city} {place}", 3, 0.15, 1),
  brand("Marriott", "AC Hotel by Marriott {city} {place}", 4, 0.15, 1),
  brand("Marriott", "Sheraton {city} {place} Hotel", 4, 0.15, 2),
  brand("Marriott", "The Westin {city} {place}", 4, 0.15, 1),
  brand("Marriott", "Renaissance {city} {place} Hotel", 4, 0.15, 1),
  brand("Marriott", "{place} Marriott", 4, 0.15, 1),
  brand("Marriott", "The Ritz-Carlton {city} {place}", 5, 0.2, 1, { priceFactor: 1.6 }),
  brand("IHG", "Holiday Inn Express {city} {place}", 3, 0.85, 3),
  brand("IHG", "Holiday Inn {city} {place}", 3, 0.2, 2),
  brand("IHG", "Hotel Indigo {city} {place}", 3, 0.3, 1),
  brand("IHG", "EVEN Hotel {city} {place}", 3, 0.1, 1),
  brand("IHG", "Staybridge Suites {city} {place}", 3, 0.85, 1, EXTENDED_STAY),
  brand("IHG", "avid hotel {city} {place}", 2, 0.3, 1),
  brand("IHG", "Crowne Plaza {city} {place}", 4, 0.15, 2),
  brand("IHG", "Kimpton {place} Hotel", 4, 0.1, 2),
  brand("IHG", "InterContinental {city} {place}", 5, 0.15, 1),
  brand("Hyatt", "Hyatt Place {city} {place}", 3, 0.85, 3),
  brand("Hyatt", "Hyatt House {city} {place}", 3, 0.8, 2, EXTENDED_STAY),
  brand("Hyatt", "Hyatt Centric {place} {city}", 4, 0.1, 2),
  brand("Hyatt", "Hyatt Regency {city} {place}", 4, 0.15, 2),
  brand("Hyatt", "Andaz {place}", 4, 0.15, 1),
  brand("Hyatt", "Park Hyatt {city} {place}", 5, 0.2, 1, { priceFactor: 1.5 }),
  brand("Wyndham", "La Quinta by Wyndham {city} {place}", 2, 0.8, 2),
  brand("Wyndham", "Days Inn by Wyndham {city} {place}", 2, 0.5, 2),
  brand("Wyndham", "Ramada by Wyndham {city} {place}", 2, 0.2, 2),
  brand("Wyndham", "Super 8 by Wyndham {city} {place}", 1, 0.6, 1),
  brand("Wyndham", "Travelodge by Wyndham {city} {place}", 2, 0.3, 1),
  brand("Wyndham", "Baymont by Wyndham {city} {place}", 2, 0.6, 1),
  brand("Wyndham", "Wyndham Garden {city} {place}", 3, 0.3, 1),
  brand("Wyndham", "Wingate by Wyndham {city} {place}", 3, 0.85, 1),
];

/** City labels used in chain names ("Hampton Inn Manhattan Chelsea", "… NYC Astoria"). */
export const CITY_LABELS: readonly string[] = ["New York", "NYC", "Manhattan"];

/** Where in its area a property stands; also tells apart two of one brand in one area. */
export const QUALIFIERS: readonly string[] = ["North", "South", "East", "West", "Central"];
/** What tells apart two same-named properties when the name already has a compass word. */
export const LANDMARK_QUALIFIERS: readonly string[] = ["Plaza", "Park", "Station", "Gardens"];

/** Word stock for independent hotel names; invented combinations, checked to carry no brand cue. */
const words = (list: string): readonly string[] => list.trim().split(/\s+/);
export const NAME_WORDS = {
  adjectives: words(`
    Amber Copper Gilded Hidden Marble Quiet Velvet Silver Cobalt Linden Juniper Golden Crimson Ivory
    Slate Saffron Hollow Little Lucky Wandering
  `),
  nouns: words(`
    Lantern Sparrow Tannery Foundry Atelier Orchard Loom Compass Beacon Ferry Mill Wren Heron
    Archive Lark Quill Anchor Cinder Ledger Kettle Pier Rookery Thimble Signal Harbor Magnolia Mason
    Garland Terrace Carriage Bellows Cistern Dovetail Easel Fable Gazette Hearth Inkwell Jetty
    Keystone Larder Mosaic Nest Oriel Parlor Pennant Ribbon Saddle Trellis Umbra
  `),
  surnames: words(`
    Ashcombe Bellamy Calloway Dunmore Everly Greaves Halloran Iverson Jessup Kellerman Lindqvist
    Marchetti Norwood Okafor Pemberton Quimby Rosenthal Talbot Underhill Vandermeer Whitcombe
    Yardley Zeller Abernathy Castellane Devereaux Ellsworth Fennimore Garroway Hollister Ingram
    Kingsley Merriwether Northcott Ostrander Prescott Ravenscroft Sinclair Thorne Winslow Beaumont
    Corrigan Delacroix Farrow Gallagher Hawthorne Lowell Montague Osgood Pell Aldridge Blackwood
    Carver Dalton Easton Fairbanks Goodwin Harrow Kessler Langford Merritt Nash Oakes Radcliffe
    Sutton Tierney Vance Whitaker
  `),
  budgetNouns: words("Hostel Pods Bunkhouse Rooms Inn Guesthouse"),
  luxurySuffixes: words("Residences Grand Palace Court House Manor"),
};

/** Room types by star level; a property offers one to four of its level's list, in this order. */
export const ROOM_TYPES_BY_STARS: Readonly<Record<1 | 2 | 3 | 4 | 5, readonly string[]>> = {
  1: ["Bunk Bed Room", "Single Room", "Twin Room", "Double Room"],
  2: ["Single Room", "Twin Room", "Double Room", "Standard Queen Room", "Bunk Bed Room"],
  3: ["Standard Queen Room", "Double Room", "Twin Room", "Standard King Room", "Deluxe King Room"],
  4: ["Standard Queen Room", "Deluxe King Room", "Double Room", "Standard King Room", "King Suite"],
  5: ["Deluxe King Room", "Deluxe Queen Room", "King Suite", "Premier King Room", "Deluxe Double Room"],
};
