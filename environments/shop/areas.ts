/**
 * Areas of New York, each a group of neighborhoods: a request names acceptable areas, a search
 * filters by an area (or by one neighborhood). Neighborhoods of a user's pool that this table does
 * not know fall back to the borough after a comma ("Astoria, Queens" → Queens), else to themselves.
 */

const AREA_OF: Readonly<Record<string, string>> = {
  Midtown: "Midtown",
  "Midtown East": "Midtown",
  "Times Square": "Midtown",
  "Hell's Kitchen": "Midtown",
  "Hudson Yards": "Midtown",
  "Garment District": "Midtown",
  Koreatown: "Midtown",
  "Murray Hill": "Midtown",
  NoMad: "Midtown",
  "Kips Bay": "Midtown",
  Chelsea: "Downtown",
  Flatiron: "Downtown",
  Gramercy: "Downtown",
  "Greenwich Village": "Downtown",
  "West Village": "Downtown",
  "East Village": "Downtown",
  "Lower East Side": "Downtown",
  SoHo: "Downtown",
  Nolita: "Downtown",
  Chinatown: "Downtown",
  TriBeCa: "Downtown",
  "Financial District": "Downtown",
  "Battery Park City": "Downtown",
  "Upper East Side": "Uptown",
  "Upper West Side": "Uptown",
  Harlem: "Uptown",
};

/** The area a neighborhood belongs to. */
export function areaOf(neighborhood: string): string {
  const known = AREA_OF[neighborhood];
  if (known) return known;
  const comma = neighborhood.lastIndexOf(", ");
  return comma >= 0 ? neighborhood.slice(comma + 2) : neighborhood;
}

/** "Midtown", "Midtown or Downtown", "Midtown, Downtown or Brooklyn". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
