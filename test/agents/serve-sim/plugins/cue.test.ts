import { describe, expect, it } from "vitest";
import { CUE_MODEL_PREFIX, cueSimPlugin, SIM_PLUGINS } from "../../../../agents/serve-sim/index.ts";
import { DEFAULT_CUE_LIBRARY, DEFAULT_PRODUCT_PAIRS } from "../../../../datasets/products/index.ts";
import { buildCueTasks, renderCueMessages, shownCard } from "../../../../environments/cue/index.ts";

describe("the cue serve-sim plugin", () => {
  const [task] = buildCueTasks(
    { conditions: ["authority"], blocks: ["main"], categories: ["coffee-machines"], grid: [0, 0.04] },
    DEFAULT_PRODUCT_PAIRS,
    DEFAULT_CUE_LIBRARY,
  );

  it("is registered and serves sim-cue-<preset> models", () => {
    expect(SIM_PLUGINS).toContain(cueSimPlugin);
    expect(Object.keys(cueSimPlugin.models)).toEqual(
      expect.arrayContaining([
        `${CUE_MODEL_PREFIX}paper`,
        `${CUE_MODEL_PREFIX}moderate`,
        `${CUE_MODEL_PREFIX}locked`,
      ]),
    );
  });

  it("reads the shopper's view back out of the conversation, category included", () => {
    if (!task) throw new Error("no task");
    const cards = [shownCard(task.options[0]), shownCard(task.options[1])] as [
      ReturnType<typeof shownCard>,
      ReturnType<typeof shownCard>,
    ];
    const messages = renderCueMessages(cards, task.item, 2);
    const obs = cueSimPlugin.observe(messages);
    expect(obs?.view).toEqual({
      cards,
      letters: ["A", "B"],
      category: "coffee-machines",
      item: "a coffee machine",
      attempt: 0,
    });
    const again = cueSimPlugin.observe([
      ...messages,
      { role: "assistant", content: "Hmm" },
      { role: "user", content: "Please reply with only one letter: A or B." },
    ]);
    expect(again?.view).toMatchObject({ attempt: 1 });
    expect(cueSimPlugin.observe([{ role: "user", content: "Book me a hotel." }])).toBeNull();
  });

  it("says a letter as the choose tool when it can, and off-format text as text", () => {
    const obs = { messages: [], view: {} };
    expect(cueSimPlugin.reply({ type: "reply", text: "B" }, obs)).toEqual({
      kind: "action",
      tool: "choose",
      args: { option: "B" },
      text: "B",
    });
    expect(cueSimPlugin.reply({ type: "reply", text: "Either is fine." }, obs)).toEqual({
      kind: "text",
      text: "Either is fine.",
    });
  });
});
