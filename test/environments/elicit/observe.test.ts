import { describe, expect, it } from "vitest";
import {
  buildElicitTasks,
  ELICIT_SYSTEM_PROMPT,
  formatFeature,
  observeElicit,
  readElicitQuery,
  renderElicitMessages,
  viewOf,
} from "../../../environments/elicit/index.ts";

describe("reading a rendered query back (serve-sim's observe)", () => {
  const tasks = buildElicitTasks({ seed: 3 });

  it("is the exact inverse of the rendering for every query of the design", () => {
    for (const t of tasks) {
      const observed = observeElicit(renderElicitMessages(t));
      expect(observed?.view, t.taskId).toEqual(viewOf(t));
    }
  });

  it("shows items as labelled lines and prices in dollars with the unit", () => {
    const pair = tasks.find((t) => t.queryType === "offer-pair" && t.domain === "apartments")!;
    const user = renderElicitMessages(pair)[1]!.content;
    expect(user).toMatch(/Offer A:\nBedrooms: [^\n]+\nSize: [\d,]+ sq ft\n/);
    expect(user).toMatch(/Price: \$\d,\d{3} per month\n\nOffer B:/);
    const flight = tasks.find((t) => t.queryType === "item" && t.domain === "flights")!;
    expect(renderElicitMessages(flight)[1]!.content).toContain(
      "What is the most this person would pay for this flight?",
    );
  });

  it("formats minutes as hours and minutes", () => {
    const spec = { key: "t", label: "T", kind: "continuous" as const, unit: "minutes" as const, grain: 5 };
    expect(formatFeature(spec, 385)).toBe("6 h 25 min");
    expect(formatFeature(spec, 420)).toBe("7 h");
  });

  it("returns null for anything that is not exactly an elicit prompt", () => {
    const [system, user] = renderElicitMessages(tasks[0]!);
    expect(observeElicit([{ role: "user", content: user!.content }])).toBeNull();
    expect(observeElicit([{ role: "system", content: "You are helpful." }, user!])).toBeNull();
    expect(
      observeElicit([system!, { role: "user", content: user!.content.replace("Price: $", "Cost: $") }]),
    ).toBeNull();
    expect(readElicitQuery(user!.content.replace(/"\n/, '" \n'))).toBeNull();
    expect(readElicitQuery("Book me a hotel.")).toBeNull();
    expect(system!.content).toBe(ELICIT_SYSTEM_PROMPT);
  });
});
