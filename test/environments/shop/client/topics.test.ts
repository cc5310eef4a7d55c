import { describe, expect, it } from "vitest";
import { isOpenQuestion, placesNamed, topicsAsked } from "../../../../environments/shop/client/topics.ts";

describe("topic words", () => {
  it("reads what a message asks about, several topics at once", () => {
    expect(topicsAsked("What is your budget per night?")).toEqual(["price"]);
    expect(topicsAsked("How many stars, and do you need breakfast?")).toEqual(["stars", "breakfast"]);
    expect(topicsAsked("Which neighborhood? Is free cancellation important?")).toEqual([
      "area",
      "free_cancellation",
    ]);
    expect(topicsAsked("Any must-have amenities?")).toEqual(["free_cancellation", "breakfast"]);
    expect(topicsAsked("Would you pay more for a better guest rating?")).toEqual(["tradeoff"]);
    // "star rating" is about stars, not the guest rating.
    expect(topicsAsked("What star rating do you need?")).toEqual(["stars"]);
    expect(topicsAsked("Is SoHo fine?", ["soho", "midtown"])).toEqual(["area"]);
    expect(topicsAsked("I will look now.")).toEqual([]);
  });

  it("tells an open question from a question about a topic", () => {
    expect(isOpenQuestion("What matters most to you for this stay?")).toBe(true);
    expect(isOpenQuestion("Do you have any preferences?")).toBe(true);
    expect(isOpenQuestion("What are your requirements on price?")).toBe(false);
    expect(isOpenQuestion("What is your budget, and anything else I should know?")).toBe(true);
    expect(isOpenQuestion("Do you need breakfast?")).toBe(false);
  });

  it("names the longest place where names overlap", () => {
    const areas = ["Brooklyn", "Downtown", "Downtown Brooklyn", "Midtown"];
    expect(placesNamed("It has to be in Downtown Brooklyn or Midtown.", areas)).toEqual([
      "Downtown Brooklyn",
      "Midtown",
    ]);
    expect(placesNamed("Downtown or Brooklyn", areas)).toEqual(["Brooklyn", "Downtown"]);
    expect(placesNamed("midtownish", areas)).toEqual([]);
  });
});
