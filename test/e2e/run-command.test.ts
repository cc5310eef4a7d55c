/**
 * `bazaar run <environment>`: one subcommand per environment, each with only its own options and
 * the shared ones; another environment's option is refused by name; and a run ends with the
 * environment's headline estimates — the numbers its analysis computes — and the next commands.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const ENVIRONMENTS = ["choice", "elicit", "bargain", "cue"];

/** The long flags a help text lists. */
function flags(help: string): string[] {
  return [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!);
}

describe("one subcommand per environment", () => {
  it("`run --help` lists the environments, one line each", async () => {
    const r = await runCli(["run", "--help"]);
    expect(r.code).toBe(0);
    for (const env of ENVIRONMENTS)
      expect(r.stdout).toMatch(new RegExp(`^ {2}${env} \\[options\\] +\\S`, "m"));
    expect(flags(r.stdout)).toEqual([]);
  });

  it("`run choice --help` and `run bargain --help` show their own options and the shared ones only", async () => {
    const [choice, bargain] = await Promise.all([
      runCli(["run", "choice", "--help"]),
      runCli(["run", "bargain", "--help"]),
    ]);
    expect(choice.code).toBe(0);
    expect(bargain.code).toBe(0);
    const c = flags(choice.stdout);
    const b = flags(bargain.stdout);
    for (const shared of [
      "--store",
      "--limit",
      "--concurrency",
      "--seed",
      "--base-url",
      "--model-concurrency",
    ]) {
      expect(c).toContain(shared);
      expect(b).toContain(shared);
    }
    expect(c).toEqual(expect.arrayContaining(["--agent", "--pool", "--pairs", "--variant", "--max-reasks"]));
    // Each environment's own defaults for LLM agents' calls, from its answer shape.
    expect(choice.stdout.replace(/\s+/g, " ")).toContain(
      "each model call capped at 512 tokens in text mode and 256 in tools mode (reasoning models get room for their reasoning on top); tools mode sends tool_choice required",
    );
    expect(bargain.stdout.replace(/\s+/g, " ")).toContain("tools mode sends tool_choice auto");
    expect(b).toEqual(expect.arrayContaining(["--buyer", "--seller", "--scenarios", "--og-schedule"]));
    // Nothing of bargaining, cue or elicitation in catalog choice's help, and the other way round.
    for (const other of ["--buyer", "--seller", "--scenarios", "--conditions", "--grid", "--completions"])
      expect(c).not.toContain(other);
    for (const other of [
      "--agent",
      "--pool",
      "--variant",
      "--pairs",
      "--conditions",
      "--completions",
      "--max-reasks",
    ])
      expect(b).not.toContain(other);
    expect(choice.stdout).toMatch(/choice options:[\s\S]*run options:[\s\S]*LLM agents/);
  });

  const stray: [string, string[], RegExp][] = [
    [
      "a cue option in choice",
      ["choice", "--conditions", "scarcity"],
      /--conditions is an option of `run cue`, not of `run choice`/,
    ],
    [
      "a bargaining option in cue",
      ["cue", "--buyer", "og-narrator"],
      /--buyer is an option of `run bargain` and `run market`, not of `run cue`/,
    ],
    [
      "an option two others share",
      ["elicit", "--pairs", "3"],
      /--pairs is an option of `run choice` and `run cue`, not of `run elicit`/,
    ],
    [
      "--flag=value form",
      ["bargain", "--variant=json"],
      /--variant is an option of `run choice`, not of `run bargain`/,
    ],
    [
      "no one's option",
      ["choice", "--pairz", "3"],
      /unknown option '--pairz' for `run choice`[\s\S]*did you mean --pairs/,
    ],
    ["an argument", ["choice", "hotels"], /`run choice` takes no arguments, got "hotels"/],
    ["no environment", [], /options go after the environment: bazaar run <environment> --store/],
    ["options before the environment", ["--limit", "5", "choice"], /options go after the environment/],
  ];
  for (const [name, args, message] of stray) {
    it(`refuses ${name} with exit code 2 and writes nothing`, async () => {
      const cwd = tempDir();
      const store = path.join(cwd, "s.db");
      // The store goes after the environment, as it must; where there is none, last.
      const r = await runInProcess(["run", ...args, "--store", store]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      const { existsSync } = await import("node:fs");
      expect(existsSync(store)).toBe(false);
    });
  }
});

it("`bazaar run` alone names the environments", async () => {
  const r = await runInProcess(["run"]);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/name the environment to run[\s\S]*valid environments: choice, elicit, bargain, cue/);
});

describe("a run ends with its result", () => {
  it("catalog choice: the headline is the analysis's own numbers, then the next commands", async () => {
    const store = path.join(tempDir(), "s.db");
    const design = ["--pairs", "80", "--pair-appearances", "2", "--triples", "0", "--fives", "0"];
    const text = await runInProcess([
      "run",
      "choice",
      ...design,
      "--agent",
      "sim:steep,sim:locked",
      "--store",
      store,
    ]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/catalog choice \(default: first-shown form/);
    expect(text.out).toMatch(
      /^sim:steep +320 +engaged +\d+\.\d% +-\d\.\d+ \[-\d\.\d+, -\d\.\d+\] +\$\d+ \[\$\d+, \$\d+\] +\$\d+\.\d\d$/m,
    );
    expect(text.out).toMatch(/^sim:locked +320 +position-locked +9\d\.\d%/m);
    const runId = /run (choice-\w+):/.exec(text.out)![1]!;
    expect(text.out).toMatch(
      new RegExp(`next:\\n  bazaar analyze ${runId} --store ${store.replaceAll("/", "\\/")} +every estimate`),
    );
    expect(text.out).toMatch(new RegExp(`bazaar watch ${runId} --store \\S+ +step through the episodes`));

    // --json: the same headline as JSON, equal to what `analyze` computes.
    const json = await runInProcess([
      "run",
      "choice",
      ...design,
      "--agent",
      "sim:steep,sim:locked",
      "--store",
      store,
      "--json",
    ]);
    const ran = JSON.parse(json.out) as {
      headline: {
        agents: { agent: string; firstShownRate: number; betaLnPrice: { estimate: number } | null }[];
      };
      next: { command: string }[];
    };
    const analyzed = JSON.parse((await runInProcess(["analyze", runId, "--store", store, "--json"])).out) as {
      analyses: {
        default: {
          agents: {
            agent: string;
            triage: { firstShownRate: number };
            binary: { log: { coefficients: { name: string; estimate: number }[] } } | null;
          }[];
        };
      };
    };
    for (const a of analyzed.analyses.default.agents) {
      const h = ran.headline.agents.find((x) => x.agent === a.agent)!;
      expect(h.firstShownRate).toBe(a.triage.firstShownRate);
      const lnp = a.binary?.log.coefficients.find((c) => c.name === "lnPrice")?.estimate ?? null;
      expect(h.betaLnPrice?.estimate ?? null).toBe(lnp);
    }
    expect(ran.headline.agents.find((a) => a.agent === "sim:locked")!.betaLnPrice).toBeNull();
    expect(ran.next.map((n) => n.command)).toHaveLength(3);
  });

  it("bargaining: deal rate and SNP per buyer, and OG-Narrator against the plain buyer", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "bargain",
      "--scenarios",
      "30",
      "--seller",
      "rule:boulware,rule:linear",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^og-narrator +60 +\d+\.\d% +[+−]\d+\.\d$/m);
    expect(r.out).toMatch(/^sim:llm +60 +\d+\.\d% +[+−]\d+\.\d$/m);
    expect(r.out).toMatch(
      /og-narrator − sim:llm \(paired on 30 scenarios, 95% intervals\): deal rate [+−]\d+\.\d pts \[[+−]\d+\.\d, [+−]\d+\.\d\], buyer SNP/,
    );
  });

  it("elicitation: the groups rejected per agent", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "elicit",
      "--agent",
      "sim:inconsistent",
      "--domains",
      "hotels",
      "--collections",
      "main",
      "--completions",
      "6",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/stated preferences, self-consistency/);
    expect(r.out).toMatch(/^sim:inconsistent: \d+ of \d+ audit groups rejected at Bonferroni p ≤ /m);
  });

  it("cue injection: the top price-equivalents", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess([
      "run",
      "cue",
      "--conditions",
      "authority,scarcity,price-only",
      "--categories",
      "headphones",
      "--n-per-cell",
      "8",
      "--store",
      store,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/cue injection, top price-equivalents/);
    expect(r.out).toMatch(/^sim:paper +headphones +1 +\S+ +\d+\.\d%/m);
  });

  it("a --limit run says its estimates rest on a prefix of the design, and on how many trials", async () => {
    const store = path.join(tempDir(), "s.db");
    const r = await runInProcess(["run", "choice", "--limit", "40", "--store", store]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/estimates from the 40 of 8,700 trials stored so far:\ncatalog choice/);
    expect(r.out).toMatch(/^sim:steep +40 /m);
  });
});
