/**
 * The LLM path's recovery end to end (long: 3,200 choice trials through the CLI and ChatOpenAI over
 * HTTP): serve-sim's steep shopper's known coefficients come back out of the stored trials.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { CHOICE_PRESETS } from "../../agents/sim/index.ts";
import { fitBinaryLogit, withIntercept } from "../../analysis/logit/index.ts";
import { bedRank } from "../../environments/choice/attributes.ts";
import type { ChoiceOption } from "../../environments/choice/types.ts";
import { exported, run, type Trial } from "../helpers/choice-runs.ts";
import { tempDir } from "../helpers/cli.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

/** The steep shopper's attributes as first − second differences: its utility is linear in these. */
function binaryDesign(trials: Trial[]) {
  const names = ["lnPrice", "review", "stars", "bed", "cancel", "breakfast", "reviews100"];
  const row = (o: ChoiceOption) => [
    Math.log(o.price),
    o.reviewScore,
    o.stars,
    bedRank(o.roomType),
    o.freeCancellation ? 1 : 0,
    o.breakfast ? 1 : 0,
    o.reviewCount / 100,
  ];
  const chains = ["Hilton", "Marriott", "Hyatt", "IHG", "Wyndham"];
  const X: number[][] = [];
  const y: (0 | 1)[] = [];
  const clusters: string[] = [];
  for (const t of trials) {
    if (t.kind !== "binary" || t.chosenSlot === null) continue;
    const [a, b] = [t.options[0]!, t.options[1]!];
    const ra = row(a);
    const rb = row(b);
    X.push([
      ...ra.map((v, i) => v - rb[i]!),
      ...chains.map((c) => (a.chain === c ? 1 : 0) - (b.chain === c ? 1 : 0)),
    ]);
    y.push(t.chosenSlot === 0 ? 1 : 0);
    clusters.push(t.cluster);
  }
  return { X: withIntercept(X), y, clusters, names: ["firstSlot", ...names, ...chains] };
}

describe("the LLM path: ChatOpenAI over HTTP against serve-sim", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("recovers the simulated shopper's known coefficients through the real client (text mode)", async () => {
    const cwd = tempDir();
    const r = await run(cwd, [
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--pairs",
      "400",
      "--triples",
      "0",
      "--fives",
      "0",
      "--concurrency",
      "32",
    ]);
    expect(r.stored).toBe(3200);
    const trials = await exported(cwd, r.runId);
    expect(trials.filter((t) => t.nonResponse !== null)).toHaveLength(0);
    const fit = fitBinaryLogit(binaryDesign(trials));
    expect(fit.status).toBe("ok");
    if (fit.status !== "ok") return;
    const truth = CHOICE_PRESETS.steep!.params!;
    const coef = (name: string) => fit.coefficients.find((c) => c.name === name)!;
    // Each true value lies inside the 99.9% interval (±3.3 SE) of its estimate.
    const within = (name: string, value: number) => {
      const c = coef(name);
      expect(
        Math.abs(c.estimate - value) / c.se,
        `${name}: ${c.estimate} ± ${c.se} vs ${value}`,
      ).toBeLessThan(3.3);
    };
    within("lnPrice", truth.betaPrice);
    within("review", truth.betaReview);
    within("stars", truth.betaStars);
    within("cancel", truth.betaCancellation);
    within("firstSlot", 0);
    expect(coef("lnPrice").se).toBeLessThan(0.8);
  });
});
