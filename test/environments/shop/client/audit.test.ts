import { describe, expect, it } from "vitest";
import { clientReply, PLANTED, plantFault } from "../../../../agents/sim/client/index.ts";
import { OPEN_QUESTION, TOPIC_QUESTIONS } from "../../../../agents/sim/shop/index.ts";
import { auditReply } from "../../../../environments/shop/client/audit.ts";
import { PERSONAS } from "../../../../environments/shop/client/personas.ts";
import { readClientText } from "../../../../environments/shop/client/reader.ts";
import type { ClientView, Topic } from "../../../../environments/shop/client/types.ts";
import { taskIndex } from "../../../../environments/shop/rules.ts";
import type { ShopTask } from "../../../../environments/shop/types.ts";
import { clientTasks } from "./helpers.ts";

const QUESTIONS = [
  OPEN_QUESTION,
  ...Object.values(TOPIC_QUESTIONS),
  "Would you pay more for a better guest rating?",
  "What is your budget, and anything else I should know?",
  "Shall I go ahead?",
];

function viewOf(task: ShopTask, message: string, known: Topic[] = []): ClientView {
  return {
    requirements: task.request.constraints,
    utility: task.client!.utility,
    wishes: task.request.wishes,
    areas: taskIndex(task).areas,
    places: [...taskIndex(task).places],
    conversation: [{ step: 0, from: "client", text: "", topics: known }],
    message,
  };
}

function audit(task: ShopTask, text: string, message: string, known: Topic[] = []) {
  const idx = taskIndex(task);
  return auditReply(text, readClientText(text, idx.areas), {
    requirements: task.request.constraints,
    utility: task.client!.utility,
    persona: PERSONAS.terse,
    message,
    known,
    places: [...idx.places],
  });
}

describe("the client auditor", () => {
  it("finds no fault in any honest reply of any persona, to any question, on any task", () => {
    for (const task of clientTasks())
      for (const persona of Object.values(PERSONAS))
        for (const q of QUESTIONS) {
          const reply = clientReply(viewOf(task, q), persona);
          const idx = taskIndex(task);
          const faults = auditReply(reply, readClientText(reply, idx.areas), {
            requirements: task.request.constraints,
            utility: task.client!.utility,
            persona,
            message: q,
            known: [],
            places: [...idx.places],
          });
          expect(faults, `${persona.name} / ${q}: ${reply}`).toEqual([]);
        }
  });

  it("finds each fault the faulty client plants, once, and nothing else", () => {
    const seen = new Map<string, number>();
    for (const task of clientTasks())
      for (const q of QUESTIONS) {
        const view = viewOf(task, q);
        const honest = clientReply(view, PERSONAS.terse);
        const planted = plantFault(view, PERSONAS.terse, honest);
        const kinds = audit(task, planted.text, q).map((f) => f.kind);
        expect(kinds, planted.text).toEqual(planted.kind === null ? [] : [planted.kind]);
        if (planted.kind) seen.set(planted.kind, (seen.get(planted.kind) ?? 0) + 1);
      }
    expect([...seen.keys()].sort()).toEqual([...PLANTED].sort());
  });

  it("says what each fault was", () => {
    const task = clientTasks().find(
      (t) => t.request.constraints.maxPrice !== null && t.request.constraints.minStars !== null,
    )!;
    const cap = task.request.constraints.maxPrice!;
    expect(audit(task, `My budget is at most $${cap + 40} a night.`, TOPIC_QUESTIONS.price)).toEqual([
      { kind: "contradicts", detail: `price: said $${cap + 40}, the profile's is $${cap}` },
    ]);
    // Said unasked, and not said before: revealed; said before: not revealed again.
    expect(
      audit(task, `I need at least ${task.request.constraints.minStars} stars.`, TOPIC_QUESTIONS.price)[0]
        ?.kind,
    ).toBe("reveals");
    expect(
      audit(task, `I need at least ${task.request.constraints.minStars} stars.`, TOPIC_QUESTIONS.price, [
        "stars",
      ]),
    ).toEqual([]);
    expect(audit(task, "", TOPIC_QUESTIONS.price)).toEqual([{ kind: "silent", detail: "an empty reply" }]);
    expect(audit(task, "Here are some options I found.", TOPIC_QUESTIONS.price).map((f) => f.kind)).toEqual([
      "as-assistant",
    ]);
  });
});
