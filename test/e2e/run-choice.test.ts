import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.ts";

const SMALL = ["--pairs", "150", "--triples", "30", "--fives", "10"];

interface Exported {
  kind: string;
  chosenSlot: number | null;
  trialKey: string;
  options: unknown[];
  agent: string;
}

function jsonl(text: string): Exported[] {
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Exported);
}

function firstSlotRate(trials: Exported[]): number {
  const answered = trials.filter((t) => t.kind === "binary" && t.chosenSlot !== null);
  return answered.filter((t) => t.chosenSlot === 0).length / answered.length;
}

describe("bazaar run choice (as a user runs it)", () => {
  it("runs, lists and exports a run; sim:steep and sim:locked show their first-slot rates", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "choice", "--agent", "sim:steep,sim:locked", ...SMALL, "--json"], {
      cwd,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; stored: number; total: number; store: string };
    expect(result.stored).toBe(result.total);
    expect(result.store).toBe(path.join(cwd, "bazaar.db"));

    const runs = await runCli(["runs", "--json"], { cwd });
    expect(runs.code).toBe(0);
    expect(JSON.parse(runs.stdout)).toMatchObject([
      { id: result.runId, done: result.total, agents: ["sim:steep", "sim:locked"] },
    ]);

    const exported = await runCli(["export", result.runId, "--format", "jsonl"], { cwd });
    expect(exported.code).toBe(0);
    const trials = jsonl(exported.stdout);
    expect(trials).toHaveLength(result.total);
    const steep = firstSlotRate(trials.filter((t) => t.agent === "sim:steep"));
    const locked = firstSlotRate(trials.filter((t) => t.agent === "sim:locked"));
    // 1,200 binary answers each: the steep shopper has no position bias; the locked one takes slot A 97%.
    expect(Math.abs(steep - 0.5)).toBeLessThan(0.05);
    expect(locked).toBeGreaterThan(0.95);

    const csv = await runCli(["export", result.runId, "--format", "csv", "--out", "trials.csv"], { cwd });
    expect(csv.code).toBe(0);
    const lines = readFileSync(path.join(cwd, "trials.csv"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(result.total + 1);
    const header = lines[0]!.split(",");
    for (const col of [
      "run",
      "trialKey",
      "agent",
      "taskId",
      "cluster",
      "chosenSlot",
      "options1_price",
      "options5_hotelId",
    ]) {
      expect(header).toContain(col);
    }

    const human = await runCli(["runs"], { cwd });
    expect(human.stdout).toContain(result.runId);
    const again = await runCli(["run", "choice", "--agent", "sim:steep,sim:locked", ...SMALL], { cwd });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 this time/);
  });

  it("runs only a prefix with --limit and says how to finish", async () => {
    const cwd = tempDir();
    const r = await runCli(["run", "choice", "--limit", "25"], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/run choice-\w+: 25 of 8,700 trials stored/);
    expect(r.stdout).toMatch(/non-responses this time: 0/);
    expect(r.stdout).toMatch(/without --limit/);
  });
});

describe("bad input gets a one-line error, exit code 2, and no store write", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "unknown agent",
      ["run", "choice", "--agent", "sim:nope"],
      /unknown agent "sim:nope".*\n.*valid agents: sim:steep/,
    ],
    [
      "unknown environment",
      ["run", "auction"],
      /unknown environment "auction".*\n.*valid environments: choice/,
    ],
    ["unknown option", ["run", "choice", "--speed", "9"], /unknown option '--speed'/],
    ["bad number", ["run", "choice", "--replicates", "two"], /--replicates: expected a number/],
    ["bad variant", ["run", "choice", "--variant", "loud"], /--variant: expected one of plain, json/],
    [
      "impossible design",
      ["run", "choice", "--pairs", "20000"],
      /impossible choice design: 20000 unique binary sets/,
    ],
    ["unbalanced triples", ["run", "choice", "--triple-appearances", "4"], /multiple of 3/],
    ["missing pool", ["run", "choice", "--pool", "nowhere.json"], /nowhere\.json/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const cwd = tempDir();
      const r = await runCli(args, { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(path.join(cwd, "bazaar.db"))).toBe(false);
    });
  }

  it("malformed pool file: names the file, row and field", async () => {
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, "pool.json"),
      JSON.stringify([{ id: 1, name: "X", stars: 9, neighborhood: "Y", chain: "Independent" }]),
    );
    const r = await runCli(["run", "choice", "--pool", "pool.json"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pool\.json/);
    expect(r.stderr).toMatch(/stars/);
    expect(existsSync(path.join(cwd, "bazaar.db"))).toBe(false);
  });

  it("a store that is not a bazaar store, and one that cannot be written", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "notes.txt"), "hello\n".repeat(100));
    const r = await runCli(["run", "choice", "--limit", "5", "--store", "notes.txt"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/notes\.txt is not a bazaar store/);
    expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("hello\n".repeat(100));
    const ro = await runCli(["run", "choice", "--limit", "5", "--store", "/proc/no-such-dir/x.db"], { cwd });
    expect(ro.code).toBe(2);
    expect(ro.stderr).toMatch(/cannot (open|write) the store at \/proc\/no-such-dir\/x\.db/);
  });

  it("export of an unknown run lists the runs there; runs on a missing store says so", async () => {
    const cwd = tempDir();
    await runCli(["run", "choice", "--limit", "3"], { cwd });
    const r = await runCli(["export", "choice-nope"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no run "choice-nope".*\n.*runs there: choice-/);
    const missing = await runCli(["runs", "--store", "absent.db"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no store at absent\.db/);
  });

  it("--help works on every command and exits 0", async () => {
    for (const args of [["--help"], ["run", "--help"], ["runs", "--help"], ["export", "--help"]]) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage: bazaar/);
    }
  });
});
