/**
 * serve-sim's clients read their view back out of what an LLM client is sent, exactly: for every
 * task, persona and question, the client's messages read back (`observeClient`) to a view on which
 * the simulated client says what it says in process; anything the prompt does not write is not read.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_PRESETS, SimClient } from "../../../../agents/sim/client/index.ts";
import { OPEN_QUESTION, TOPIC_QUESTIONS } from "../../../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../../datasets/hotels/index.ts";
import { observeClient } from "../../../../environments/shop/client/observe.ts";
import { PERSONAS } from "../../../../environments/shop/client/personas.ts";
import { clientMessages } from "../../../../environments/shop/client/prompt.ts";
import { readClientText, topicsStated } from "../../../../environments/shop/client/reader.ts";
import { topicsAsked } from "../../../../environments/shop/client/topics.ts";
import type { ClientView } from "../../../../environments/shop/client/types.ts";
import { openingText } from "../../../../environments/shop/client/wording.ts";
import { buildShopTasks } from "../../../../environments/shop/design.ts";
import { taskIndex } from "../../../../environments/shop/rules.ts";

describe("serve-sim's clients", () => {
  const tasks = buildShopTasks({ tasks: 24, seed: 5, clients: true }, DEFAULT_HOTEL_POOL);

  it("read the LLM client's conversation back and answer it as in process, every task, persona and question", () => {
    for (const task of tasks)
      for (const [name, preset] of Object.entries(CLIENT_PRESETS)) {
        const sim = new SimClient(`sim:${name}`, preset.persona, preset.faulty);
        const idx = taskIndex(task);
        const opening = openingText(preset.persona, task.request.constraints, task.request.wishes);
        const view: ClientView = {
          requirements: task.request.constraints,
          utility: task.client!.utility,
          wishes: task.request.wishes,
          areas: idx.areas,
          places: idx.areas.map((a) => a.toLowerCase()),
          // The topics as the machine reads them (the faulty client keeps back what it has not said).
          conversation: [
            {
              step: 0,
              from: "client",
              text: opening,
              topics: topicsStated(readClientText(opening, idx.areas)),
            },
          ],
          message: null,
        };
        for (const q of [OPEN_QUESTION, ...Object.values(TOPIC_QUESTIONS)]) {
          view.conversation.push({ step: 1, from: "agent", text: q, topics: topicsAsked(q, idx.areas) });
          view.message = q;
          const read = observeClient(clientMessages(view, preset.persona.name));
          expect(read, `${task.taskId} ${name}`).not.toBeNull();
          const said = sim.decide(view);
          expect(sim.decide(read!.view), `${task.taskId} ${name} ${q}`).toEqual(said);
          const text = (said as { text: string }).text;
          view.conversation.push({
            step: 1,
            from: "client",
            text,
            topics: topicsStated(readClientText(text, idx.areas)),
          });
        }
      }
  });

  it("read nothing a client prompt did not write", () => {
    const task = tasks[0]!;
    const idx = taskIndex(task);
    const view: ClientView = {
      requirements: task.request.constraints,
      utility: task.client!.utility,
      wishes: task.request.wishes,
      areas: idx.areas,
      places: [],
      conversation: [
        { step: 0, from: "client", text: "I need a room.", topics: [] },
        { step: 1, from: "agent", text: "Budget?", topics: [] },
      ],
      message: "Budget?",
    };
    const messages = clientMessages(view, PERSONAS.terse.name);
    expect(observeClient(messages)).not.toBeNull();
    const edited = [
      { ...messages[0]!, content: messages[0]!.content.replace("at most", "under") },
      ...messages.slice(1),
    ];
    expect(observeClient(edited)).toBeNull();
    expect(observeClient([messages[0]!])).toBeNull();
    expect(
      observeClient([
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "Hi" },
      ]),
    ).toBeNull();
  });
});
