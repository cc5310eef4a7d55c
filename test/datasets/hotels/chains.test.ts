import { describe, expect, it } from "vitest";
import { CHAIN_BRAND_CUES, CHAIN_FAMILIES, inferChain } from "../../../datasets/hotels/index.ts";

describe("inferChain", () => {
  it("finds each family from its brand names and sub-brands", () => {
    expect(inferChain("Hilton Garden Inn Riverside Yards")).toBe("Hilton");
    expect(inferChain("Hampton Inn Queens Plaza")).toBe("Hilton");
    expect(inferChain("Embassy Suites by Hilton Canal Street")).toBe("Hilton");
    expect(inferChain("Courtyard by Marriott Harbor Point")).toBe("Marriott");
    expect(inferChain("Brookside Marriott")).toBe("Marriott");
    expect(inferChain("Moxy Lower Bowery")).toBe("Marriott");
    expect(inferChain("The Westin Pier Row")).toBe("Marriott");
    expect(inferChain("Holiday Inn Express Maple Heights")).toBe("IHG");
    expect(inferChain("Lakeview InterContinental")).toBe("IHG");
    expect(inferChain("Kimpton Orchard Hotel")).toBe("IHG");
    expect(inferChain("Hyatt Place Midtown Row")).toBe("Hyatt");
    expect(inferChain("Andaz Harbor Lane")).toBe("Hyatt");
    expect(inferChain("Wyndham Garden Elm Park")).toBe("Wyndham");
    expect(inferChain("La Quinta by Wyndham Bay Ridge")).toBe("Wyndham");
    expect(inferChain("Super 8 Crossing")).toBe("Wyndham");
  });

  it("returns Independent when no brand is named", () => {
    expect(inferChain("The Copper Lantern")).toBe("Independent");
    expect(inferChain("Hotel Ashcombe")).toBe("Independent");
    expect(inferChain("")).toBe("Independent");
  });

  it("matches whole words only", () => {
    expect(inferChain("Hiltonia Suites")).toBe("Independent");
    expect(inferChain("The Hamptons Getaway")).toBe("Independent");
    expect(inferChain("Hampton Street Suites")).toBe("Independent");
    expect(inferChain("Evening Star Inn")).toBe("Independent");
    expect(inferChain("Wyndhamshire Lodge")).toBe("Independent");
    expect(inferChain("Super 80 Motel")).toBe("Independent");
  });

  it("ignores case, accents and punctuation", () => {
    expect(inferChain("MOXY NYC Dockside")).toBe("Marriott");
    expect(inferChain("holiday inn harbor")).toBe("IHG");
    expect(inferChain("Le Méridien Crescent")).toBe("Marriott");
    expect(inferChain("Le Meridien Crescent")).toBe("Marriott");
    expect(inferChain("The Ritz Carlton, Elm Park")).toBe("Marriott");
    expect(inferChain("The St. Regis Elm Park")).toBe("Marriott");
    expect(inferChain("Oak Bay/Hyatt House")).toBe("Hyatt");
  });

  it("gives a name with two families' cues to the first family in CHAIN_FAMILIES order", () => {
    expect(inferChain("Four Points by Sheraton at the Hilton Annex")).toBe("Hilton");
    expect(inferChain("Wyndham Suites near Hyatt Plaza")).toBe("Hyatt");
  });

  it("has cues for every family, each cue classifying to its own family", () => {
    for (const family of CHAIN_FAMILIES) {
      expect(CHAIN_BRAND_CUES[family].length).toBeGreaterThan(0);
      for (const cue of CHAIN_BRAND_CUES[family]) expect(inferChain(`${cue} Elm Park`), cue).toBe(family);
    }
  });

  it("follows the PriceBench reference's keyword list under the pricebench rule", () => {
    expect(inferChain("Ink 48 Annex", "pricebench")).toBe("Hilton");
    expect(inferChain("Ink 48 Annex")).toBe("Independent");
    expect(inferChain("Lotte Riverside Hotel", "pricebench")).toBe("Marriott");
    expect(inferChain("Lotte Riverside Hotel")).toBe("Independent");
    expect(inferChain("Best Western Plus Elm Park", "pricebench")).toBe("Wyndham");
    expect(inferChain("Best Western Plus Elm Park")).toBe("Independent");
    expect(inferChain("The Elm Park, Autograph Collection", "pricebench")).toBe("Independent");
    expect(inferChain("The Elm Park, Autograph Collection")).toBe("Marriott");
    expect(inferChain("Hampton Inn Elm Park", "pricebench")).toBe("Hilton");
  });
});
