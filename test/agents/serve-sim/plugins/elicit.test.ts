import { describe, expect, it } from "vitest";
import { ELICIT_MODEL_PREFIX, elicitSimPlugin } from "../../../../agents/serve-sim/index.ts";
import { RESPONDENT_PRESETS } from "../../../../agents/sim/index.ts";
import {
  buildElicitTasks,
  observeElicit,
  renderElicitMessages,
} from "../../../../environments/elicit/index.ts";

describe("the serve-sim plugin", () => {
  const tasks = buildElicitTasks({ seed: 3, domains: ["hotels"] });
  const pair = tasks.find((t) => t.queryType === "offer-pair")!;

  it("serves every respondent preset as sim-elicit-<preset>", () => {
    expect(Object.keys(elicitSimPlugin.models)).toEqual(
      Object.keys(RESPONDENT_PRESETS).map((p) => `${ELICIT_MODEL_PREFIX}${p}`),
    );
  });

  it("says a finite text answer as an `answer` call, and keeps an unusable one as text", () => {
    const obs = observeElicit(renderElicitMessages(pair))!;
    expect(elicitSimPlugin.reply({ type: "reply", text: "minus $35" }, obs)).toEqual({
      kind: "action",
      tool: "answer",
      args: { amount: -35 },
      text: "minus $35",
    });
    expect(elicitSimPlugin.reply({ type: "reply", text: "between $1 and $2" }, obs)).toEqual({
      kind: "text",
      text: "between $1 and $2",
    });
    expect(elicitSimPlugin.reply({ type: "answer", amount: 12 }, obs)).toMatchObject({
      tool: "answer",
      args: { amount: 12 },
    });
  });
});
