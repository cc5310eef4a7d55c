import { describe, expect, it } from "vitest";
import { LlmLikeNegotiator } from "../../../agents/bargain/llm-like.ts";
import { MeteredAgent } from "../../../agents/bargain/metered.ts";
import { parseSchedule } from "../../../agents/bargain/offer-generator.ts";
import { OgNarratorBuyer } from "../../../agents/bargain/og-narrator.ts";
import {
  bargainAgentNames,
  resolveBargainPairs,
  resolveBargainPlayer,
  splitSpecs,
} from "../../../agents/bargain/registry.ts";
import { LlmAgent } from "../../../agents/llm/index.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

describe("bargaining agent specs", () => {
  it("resolve every kind for its roles", () => {
    expect(resolveBargainPlayer("og-narrator", "buyer").agent).toBeInstanceOf(OgNarratorBuyer);
    expect(resolveBargainPlayer("og-narrator:openai:gpt-4o-mini", "buyer").identity).toMatchObject({
      kind: "og-narrator",
      schedule: "linear:0.5:1",
      narrator: { kind: "openai", narrator: "llm", model: "gpt-4o-mini", temperature: 0.3 },
    });
    expect(resolveBargainPlayer("openai:gpt-4o-mini", "seller").agent).toBeInstanceOf(LlmAgent);
    const sim = resolveBargainPlayer("sim:llm/anchoring=0.9/noise=0.5", "buyer");
    expect(sim.agent).toBeInstanceOf(LlmLikeNegotiator);
    expect((sim.agent as LlmLikeNegotiator).params).toMatchObject({ anchoring: 0.9, noise: 0.5, open: 0.6 });
    expect((resolveBargainPlayer("sim:llm", "seller").agent as LlmLikeNegotiator).params.open).toBe(1);
    expect(resolveBargainPlayer("rule:tit-for-tat", "seller").identity).toMatchObject({
      kind: "rule",
      preset: "tit-for-tat",
    });
    expect(
      resolveBargainPlayer("og-narrator", "buyer", undefined, { ogSchedule: parseSchedule("exp") }).identity,
    ).toMatchObject({
      schedule: "exp:0.5:1",
    });
  });

  it("refuse unknown names, the OG-Narrator as seller and bad overrides, listing what is valid", () => {
    const cases: [string, "buyer" | "seller", RegExp][] = [
      ["rule:stubborn", "seller", /unknown seller "rule:stubborn"/],
      ["og-narrator", "seller", /plays only the buyer/],
      ["og-narrator:anthropic:x", "buyer", /narrator must be openai:<model>/],
      ["sim:llm/anchoring=high", "buyer", /"anchoring=high" is not a parameter override/],
      ["sim:llm/speed=1", "buyer", /not a parameter override/],
      ["gpt-4o", "buyer", /unknown buyer/],
    ];
    for (const [spec, role, message] of cases) {
      expect(() => resolveBargainPlayer(spec, role)).toThrow(UserError);
      expect(() => resolveBargainPlayer(spec, role)).toThrow(message);
    }
    expect(bargainAgentNames("seller")).not.toContain("og-narrator");
    expect(() => splitSpecs("a,,a", "buyer")).toThrow(/named twice/);
    expect(() => splitSpecs(" , ", "seller")).toThrow(/--seller is empty/);
  });

  it("pair every buyer with every seller, buyers first, each side metered", () => {
    const pairs = resolveBargainPairs(["og-narrator", "sim:llm"], ["rule:boulware", "sim:llm"]);
    expect(pairs.map((p) => p.label)).toEqual([
      "og-narrator vs rule:boulware",
      "og-narrator vs sim:llm",
      "sim:llm vs rule:boulware",
      "sim:llm vs sim:llm",
    ]);
    expect(pairs[0]!.players.buyer).toBeInstanceOf(MeteredAgent);
    expect(pairs[0]!.players.buyer).toBe(pairs[1]!.players.buyer);
    expect(pairs[1]!.players.seller).not.toBe(pairs[3]!.players.buyer);
    expect(pairs[0]!.identity).toMatchObject({
      buyer: { kind: "og-narrator" },
      seller: { kind: "rule", preset: "boulware" },
    });
  });
});
