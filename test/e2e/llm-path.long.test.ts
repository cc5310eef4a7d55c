/**
 * The LLM path end to end, long: serve-sim's steep shopper's known coefficients come back out of
 * 3,200 choice trials through the CLI and ChatOpenAI over HTTP; under 10% 429s and 5% 500s every
 * trial ends answered, a non-response, or failed and re-run; the API key is never written anywhere.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { CHOICE_PRESETS } from "../../agents/sim/index.ts";
import { fitBinaryLogit, withIntercept } from "../../analysis/logit/index.ts";
import { bedRank } from "../../environments/choice/attributes.ts";
import type { ChoiceOption } from "../../environments/choice/types.ts";
import { exported, run, type Trial } from "../helpers/choice-runs.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

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

describe("failures: 10% 429s and 5% 500s", () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({
      port: 0,
      faults: { rate429: 0.1, rate500: 0.05 },
      retryAfterSeconds: 0,
      seed: 3,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("every trial ends answered, a non-response, or failed (then re-run); none lost or duplicated", async () => {
    const cwd = tempDir();
    const args = [
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--limit",
      "400",
      "--concurrency",
      "16",
    ];
    const r = await run(cwd, args);
    expect(r.stored).toBe(400);
    expect(r.retries).toBeGreaterThan(20);
    const trials = await exported(cwd, r.runId);
    expect(new Set(trials.map((t) => t.trialKey)).size).toBe(400);
    for (const t of trials) expect(t.chosenSlot !== null || t.nonResponse !== null).toBe(true);
    expect(trials.filter((t) => t.chosenSlot !== null).length).toBeGreaterThan(390);

    // With no retries allowed, a failed call is a failed trial — missing data, not a non-response —
    // and the same command (with retries) runs exactly those again.
    const strictDir = tempDir();
    const strict = await run(strictDir, [...args, "--max-retries", "0"]);
    expect(strict.failedNow).toBeGreaterThan(30);
    // Not whole: exit code 3, and a line saying how many failed and that the same command re-runs them.
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(
      /\d+ trials of the run failed \(missing data, in no estimate\); the same command runs them again/,
    );
    expect(strict.stored + strict.failedNow).toBe(400);
    const answers = await exported(strictDir, strict.runId);
    expect(answers).toHaveLength(strict.stored);
    expect(answers.filter((t) => t.nonResponse?.reason.startsWith("agent error"))).toEqual([]);
    const again = await run(strictDir, args);
    expect(again.code).toBe(0);
    expect(again.ranNow).toBe(strict.failedNow);
    expect(again.stored).toBe(400);
    expect(again.failed).toBe(0);
  });

  it("never writes the API key into the store, exports or output", async () => {
    const cwd = tempDir();
    const key = "sk-planted-0123456789abcdefPLANTED";
    const env = { OPENAI_API_KEY: key };
    const args = [
      "run",
      "choice",
      "--agent",
      "openai:sim-steep",
      "--base-url",
      server.url,
      "--limit",
      "100",
      "--max-retries",
      "1",
    ];
    const r = await runCli(args, { cwd, env });
    const runId = (await runCli(["runs", "--json"], { cwd })).stdout;
    const id = (JSON.parse(runId) as { id: string }[])[0]!.id;
    const jsonl = await runCli(["export", id], { cwd });
    const csv = await runCli(["export", id, "--format", "csv"], { cwd });
    const stats = await runCli(["cache", "stats"], { cwd });
    const texts = [r.stdout, r.stderr, jsonl.stdout, csv.stdout, stats.stdout];
    for (const f of ["bazaar.db", "bazaar.db-wal"]) {
      try {
        texts.push(readFileSync(path.join(cwd, f)).toString("latin1"));
      } catch {}
    }
    for (const t of texts) expect(t.includes(key)).toBe(false);
    expect(jsonl.stdout.length).toBeGreaterThan(1000);
  });
});
