import { describe, expect, it } from "vitest";
import { PERSONAS } from "../../../../environments/shop/client/personas.ts";
import { nothingStated, readClientText, withReading } from "../../../../environments/shop/client/reader.ts";
import { REQUIREMENT_TOPICS } from "../../../../environments/shop/client/types.ts";
import { openingText, topicAnswer } from "../../../../environments/shop/client/wording.ts";
import { taskIndex } from "../../../../environments/shop/rules.ts";
import { clientTasks } from "./helpers.ts";

describe("reading the client's words", () => {
  it("reads every fixed answer back to exactly the profile's requirement, on every task", () => {
    for (const task of clientTasks()) {
      const c = task.request.constraints;
      const u = task.client!.utility;
      const areas = taskIndex(task).areas;
      let stated = nothingStated();
      for (const t of REQUIREMENT_TOPICS)
        stated = withReading(stated, readClientText(topicAnswer(t, c, u), areas));
      expect(stated.known).toEqual([...REQUIREMENT_TOPICS]);
      expect(stated.constraints).toEqual(c);
      const trade = readClientText(topicAnswer("tradeoff", c, u), areas).tradeoff!;
      expect(trade.review).toBe(u.review);
      expect(trade.stars).toBe(u.stars);
      for (const [a, w] of Object.entries(trade.amenities)) expect(w).toBe(u.amenities[a as "breakfast"]);
      for (const [a, w] of Object.entries(trade.areas)) expect(w).toBe(u.areas[a]);
    }
  });

  it("reads each persona's opening: complete states every topic, partial price and area, terse nothing", () => {
    for (const task of clientTasks().slice(0, 12)) {
      const c = task.request.constraints;
      const areas = taskIndex(task).areas;
      const read = (p: keyof typeof PERSONAS) =>
        withReading(nothingStated(), readClientText(openingText(PERSONAS[p], c, task.request.wishes), areas));
      const complete = read("complete");
      expect(complete.known).toEqual([...REQUIREMENT_TOPICS]);
      expect(complete.constraints).toEqual(c);
      expect(complete.wishes).toEqual(task.request.wishes);
      // The complete opening is the shop's own request, word for word (the control).
      expect(openingText(PERSONAS.complete, c, task.request.wishes)).toBe(task.request.text);
      const partial = read("partial");
      expect(partial.known).toEqual(["price", "area"]);
      expect(partial.constraints).toMatchObject({
        maxPrice: c.maxPrice,
        areas: c.areas,
        minStars: null,
        amenities: [],
      });
      expect(read("terse").known).toEqual([]);
    }
  });

  it("reads an LLM's own phrasing as well as rules can, and what a client should never say", () => {
    const areas = ["Brooklyn", "Downtown", "Midtown", "Uptown"];
    const r = readClientText(
      "I'd like to keep it under $1,200 per night. Four stars minimum, and it really has to be in Midtown. Breakfast isn't needed, but I must have free cancellation.",
      areas,
    );
    expect(r).toMatchObject({
      price: 1200,
      stars: 4,
      areas: ["Midtown"],
      breakfast: false,
      free_cancellation: true,
    });
    expect(readClientText("Any area is fine, and I don't mind about stars.", areas)).toMatchObject({
      areas: null,
      stars: null,
    });
    const bad = readClientText(
      "I also need a pool. Let me search for one. Never mind, I'll book it myself.",
      areas,
    );
    expect(bad.unknownRequirements).toEqual(["pool"]);
    expect(bad.asAssistant).toBe("let me search");
    expect(bad.ends).toBe("never mind");
    expect(readClientText("Nice to have: a quiet room; a big bed.", areas).wishes).toEqual([
      "a quiet room",
      "a big bed",
    ]);
  });
});
