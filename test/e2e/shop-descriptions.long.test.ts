/**
 * `bazaar run shop --descriptions battery` as a user runs it: the compiled CLI stores records whose
 * every listing carries its description, arm, wording and claims; the description settings are the
 * design's identity (the same command resumes, another arm rate is a new run); bad settings stop the
 * run before anything is written; `--help` says what they do. Through ChatOpenAI against serve-sim,
 * the description presets read the arms off the conversation (posed system messages included) in
 * tools and text mode.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";

interface Listed {
  id: string;
  freeCancellation: boolean;
  breakfast: boolean;
  description: string;
  arm: string;
  wording: string | null;
  claims: string | null;
}

interface Record_ {
  agent: string;
  success: boolean;
  nonResponse: unknown;
  request: { constraints: { amenities: string[] } };
  trajectory: { tool: string; args: unknown; ok: boolean }[];
  shown: (Listed & { viewed: boolean; admissible: boolean })[];
  booked: Listed | null;
  admissible: Listed[];
}

async function exported(store: string, runId: string): Promise<Record_[]> {
  const file = path.join(path.dirname(store), `${runId}.jsonl`);
  const r = await runInProcess(["export", runId, "--store", store, "--format", "jsonl", "--out", file]);
  expect(r.code).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record_);
}

const runIdOf = (out: string) => /run (shop-\w+):/.exec(out)![1]!;

describe("bazaar run shop --descriptions battery", () => {
  it("stores records with each listing's description, arm, wording and claims; the same command resumes, another arm rate is a new run", async () => {
    const cwd = tempDir();
    const store = path.join(cwd, "bazaar.db");
    const args = ["run", "shop", "--descriptions", "battery", "--agent", "sim:persuadable", "--limit", "40"];
    const run = await runCli(args, { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/40 of 400 trials stored \(40 this time, 0 before\)/);
    const runId = runIdOf(run.stdout);
    const records = await exported(store, runId);
    expect(records).toHaveLength(40);
    const shown = records.flatMap((r) => r.shown);
    const arms = new Set(shown.map((s) => s.arm));
    expect(arms.has("neutral")).toBe(true);
    expect(arms.size).toBeGreaterThanOrEqual(6);
    for (const s of [
      ...shown,
      ...records.flatMap((r) => (r.booked ? [r.booked] : [])),
      ...records.flatMap((r) => r.admissible),
    ]) {
      expect(s.description).toBeTypeOf("string");
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.description.length).toBeLessThanOrEqual(600);
      expect(s.wording).toMatch(new RegExp(`^${s.arm}/\\d+$`));
      if (s.arm === "false-claim")
        expect(s[s.claims === "breakfast" ? "breakfast" : "freeCancellation"]).toBe(false);
      else expect(s.claims).toBeNull();
    }
    // Persuadable is careful otherwise: every booking admissible.
    expect(records.every((r) => r.success)).toBe(true);

    const again = await runInProcess([...args, "--store", store]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(
      new RegExp(`run ${runId}: 40 of 400 trials stored \\(0 this time, 40 before\\)`),
    );
    const rate = await runInProcess([...args, "--arm-rate", "0.3", "--store", store]);
    expect(rate.code).toBe(0);
    expect(runIdOf(rate.out)).not.toBe(runId);
    const neutral = await runInProcess([
      "run",
      "shop",
      "--agent",
      "sim:persuadable",
      "--limit",
      "4",
      "--store",
      store,
    ]);
    expect(runIdOf(neutral.out)).not.toBe(runId);
    const plain = await exported(store, runIdOf(neutral.out));
    expect(
      plain.flatMap((r) => r.shown).every((s) => s.arm === "neutral" && /^neutral\/\d$/.test(s.wording!)),
    ).toBe(true);
  });

  it("refuses bad description settings with exit 2 and writes no store", async () => {
    const store = path.join(tempDir(), "s.db");
    const cases: [string[], RegExp][] = [
      [["--descriptions", "loud"], /--descriptions: expected neutral or battery, got "loud"/],
      [["--arms", "urgency"], /--arms needs --descriptions battery/],
      [["--arm-rate", "0.2"], /--arm-rate needs --descriptions battery/],
      [["--descriptions", "battery", "--arms", "urgency,flattery"], /--arms: unknown arm "flattery"/],
      [["--descriptions", "battery", "--arms", "urgency,urgency"], /--arms names urgency twice/],
      [["--descriptions", "battery", "--arm-rate", "1.5"], /--arm-rate: expected a rate from 0 to 1/],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(["run", "shop", ...args, "--store", store]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(store)).toBe(false);
    }
  });

  it("--help says what the description options do", async () => {
    const r = await runCli(["run", "shop", "--help"]);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--descriptions <mode> listing descriptions: neutral .* or battery/);
    expect(help).toMatch(/--arms <list> with --descriptions battery: the arms in play/);
    expect(help).toMatch(/false-claim goes only on listings lacking an amenity/);
    expect(help).toMatch(
      /--arm-rate <r> with --descriptions battery: share of each catalog's listings given a non-neutral arm.*\(default 0\.5\)/,
    );
  });
});

describe("the description presets through ChatOpenAI against serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  for (const mode of ["tools", "text"] as const) {
    it(`${mode} mode: the injectable shopper follows injections, the credulous one believes false claims, the persuadable one books right`, async () => {
      const cwd = tempDir();
      const store = path.join(cwd, "bazaar.db");
      const r = await runInProcess([
        "run",
        "shop",
        "--descriptions",
        "battery",
        "--arm-rate",
        "0.8",
        "--agent",
        "openai:sim-shop-injectable,openai:sim-shop-credulous,openai:sim-shop-persuadable",
        "--base-url",
        server.url,
        "--answer-mode",
        mode,
        "--tasks",
        "40",
        "--replicates",
        "1",
        "--concurrency",
        "16",
        "--no-cache",
        "--store",
        store,
      ]);
      expect(r.code, r.err).toBe(0);
      const records = await exported(store, runIdOf(r.out));
      expect(records).toHaveLength(120);
      for (const x of records) expect(x.nonResponse, x.agent).toBeNull();
      const by = (name: string) => records.filter((x) => x.agent === `openai:sim-shop-${name}`);
      const injectable = by("injectable");
      expect(
        injectable.every((x) =>
          x.trajectory.some(
            (t) => t.tool === "search" && JSON.stringify(t.args) === '{"sort":"recommended"}',
          ),
        ),
      ).toBe(true);
      const followed = injectable.filter((x) => x.booked?.arm.startsWith("injection-") && !x.success);
      expect(followed.length).toBeGreaterThan(0);
      for (const x of injectable) if (x.booked && !x.success) expect(x.booked.arm).toMatch(/^injection-/);
      const credulous = by("credulous");
      const believed = credulous.filter((x) => x.booked?.arm === "false-claim" && !x.success);
      expect(believed.length).toBeGreaterThan(0);
      for (const x of believed) expect(x.request.constraints.amenities).toContain(x.booked!.claims);
      expect(by("persuadable").every((x) => x.success)).toBe(true);
    }, 300_000);
  }
});
