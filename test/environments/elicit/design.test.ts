import { describe, expect, it } from "vitest";
import {
  buildElicitTasks,
  type ElicitTask,
  renderElicitMessages,
} from "../../../environments/elicit/index.ts";

describe("the elicit design", () => {
  const tasks = buildElicitTasks({ seed: 7 });
  const main = tasks.filter((t) => t.collection === "main");
  const paths = tasks.filter((t) => t.collection === "paths");

  it("has the paper's 300 main queries: 60 item and 240 offer-pair, in 9 audit groups", () => {
    expect(main).toHaveLength(300);
    expect(main.filter((t) => t.queryType === "item")).toHaveLength(60);
    expect(new Set(main.map((t) => t.group)).size).toBe(9);
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(tasks.length);
    expect(main[0]!.group).toMatch(/^(flights|apartments|hotels)\/[a-z-]+\/[a-z-]+\/main$/);
  });

  it("gives every comparison a direct query and two complete two-step paths (96 P1, 48 P2)", () => {
    const byComparison = new Map<string, { direct: number; steps: Set<string> }>();
    for (const t of main) {
      if (t.queryType !== "offer-pair") continue;
      for (const u of t.uses) {
        const key = `${t.group}|${u.comparison}`;
        const entry = byComparison.get(key) ?? { direct: 0, steps: new Set<string>() };
        if (u.kind === "direct") entry.direct++;
        else entry.steps.add(`${u.path}:${u.step}/${u.steps}`);
        byComparison.set(key, entry);
      }
    }
    expect(byComparison.size).toBe(48);
    for (const e of byComparison.values()) {
      expect(e.direct).toBe(1);
      expect([...e.steps].sort()).toEqual(["b1:1/2", "b1:2/2", "b2:1/2", "b2:2/2"]);
    }
  });

  it("has the path-length stress: 4 paths, each a direct query and 2 + 8 + 16 steps", () => {
    expect(paths).toHaveLength(4 * 27);
    expect(new Set(paths.map((t) => t.group))).toEqual(
      new Set(["flights/family-visit/bos-sea-paths/paths", "apartments/commuter/portland-paths/paths"]),
    );
    const steps = paths.flatMap((t) => (t.queryType === "offer-pair" ? t.uses : []));
    for (const k of [2, 8, 16])
      expect(steps.filter((u) => u.kind === "step" && u.steps === k)).toHaveLength(4 * k);
  });

  it("is a pure seeded function: same seed, same tasks; another seed, another order and answers", () => {
    expect(buildElicitTasks({ seed: 7 })).toEqual(tasks);
    const other = buildElicitTasks({ seed: 8 });
    expect(other.map((t) => t.taskId).sort()).toEqual(tasks.map((t) => t.taskId).sort());
    expect(other.map((t) => t.taskId)).not.toEqual(tasks.map((t) => t.taskId));
    expect(other[0]!.seed).toBe(8);
  });

  it("restricts domains and collections, and refuses an empty design", () => {
    const hotels = buildElicitTasks({ domains: ["hotels"] });
    expect(hotels).toHaveLength(3 * 23);
    expect(buildElicitTasks({ collections: ["paths"] })).toHaveLength(108);
    expect(() => buildElicitTasks({ domains: ["hotels"], collections: ["paths"] })).toThrow(/no queries/);
  });

  it("words every query of a type the same way: only context, utterance and content vary", () => {
    const skeleton = (t: ElicitTask) =>
      renderElicitMessages(t)[1]!
        .content.replace(t.context, "<context>")
        .replace(t.utterance.text, "<utterance>")
        .replace(/\n[A-Z][^:\n]{0,30}: [^\n]*/g, "")
        .replace(/ per (month|night)/g, "")
        .replace(/this (flight|apartment|room)/, "this <noun>")
        .replace(/The (flight|apartment|room):/, "The <noun>:");
    const items = new Set(main.filter((t) => t.queryType === "item").map(skeleton));
    const pairs = new Set(main.filter((t) => t.queryType === "offer-pair").map(skeleton));
    expect(items.size).toBe(1);
    expect(pairs.size).toBe(1);
    expect([...pairs][0]).toContain("positive if Offer B could cost that much more");
  });
});
