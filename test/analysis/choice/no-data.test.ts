/** An agent without a usable answer is "no data", never counted as engaged. */
import { describe, expect, it } from "vitest";
import { analyzeChoice } from "../../../analysis/choice/index.ts";
import { choiceSummaryLines } from "../../../analysis/report/index.ts";
import { presetAgents, simulateChoiceTrials } from "./simulate.ts";

const design = { pairs: 40, triples: 0, fives: 0 };

describe("catalog-choice triage of agents without usable answers", () => {
  it("an agent whose every answer is a non-response is not triaged, and not counted as engaged", () => {
    const silent = simulateChoiceTrials(presetAgents("steep"), design, 3).map((t) => ({
      ...t,
      agent: "silent",
      chosenSlot: null,
    }));
    const trials = [...simulateChoiceTrials(presetAgents("steep"), design, 3), ...silent];
    const analysis = analyzeChoice(trials, { bootstrapDraws: 0 });
    expect(analysis.agents.map((a) => [a.agent, a.status])).toEqual([
      ["sim:steep", "engaged"],
      ["silent", "no-data"],
    ]);
    const triage = choiceSummaryLines(analysis).find((l) => l.startsWith("Triage:"));
    expect(triage).toMatch(
      /^Triage: 1 engaged, 0 position-locked .*, 1 not triaged \(silent: no usable answer, 320 of 320 trials non-responses\)/,
    );
    expect(analysis.crossModel.engaged).toBe(1);
  });

  it("an agent with only five-option answers has nothing to triage: said so, not 'no usable answer'", () => {
    const trials = simulateChoiceTrials(presetAgents("steep"), { pairs: 0, triples: 0, fives: 10 }, 4);
    const analysis = analyzeChoice(trials, { bootstrapDraws: 0 });
    expect(analysis.agents[0]!.status).toBe("no-data");
    const triage = choiceSummaryLines(analysis).find((l) => l.startsWith("Triage:"));
    expect(triage).toMatch(
      /^Triage: 0 engaged, 0 position-locked .*, 1 not triaged \(sim:steep: no binary or ternary answer booking A or B to triage\)/,
    );
  });
});
