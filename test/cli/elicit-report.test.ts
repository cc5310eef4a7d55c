/** The elicit report's group figure colours an untestable group as untestable, never as a verdict. */
import { describe, expect, it } from "vitest";
import { auditAgent, type QueryData } from "../../analysis/consistency/index.ts";
import { groupSpec } from "../../cli/analyzers/elicit-report.ts";

const empty: QueryData = {
  queryId: "q",
  queryType: "offer-pair",
  source: { item: "a", price: 100 },
  target: { item: "b", price: 120 },
  uses: [{ kind: "direct", comparison: "q" }],
  values: [],
  nonFinite: 3,
};

describe("the elicit group figure", () => {
  it("labels an untestable group 'untestable' and draws no T for it", () => {
    const audit = auditAgent(
      {
        agent: "m",
        groups: [
          {
            group: "hotels/u/s/main",
            domain: "hotels",
            utterance: "u",
            itemSet: "s",
            collection: "main",
            queries: [empty],
          },
        ],
        nonFiniteReasons: {},
      },
      { draws: 50 },
    );
    const values = (groupSpec(audit).data as { values: { verdict: string; relative: number }[] }).values;
    expect(values).toEqual([{ group: "hotels/u", relative: Number.NaN, verdict: "untestable" }]);
  });
});
