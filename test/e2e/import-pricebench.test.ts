import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFixtureRelease } from "../datasets/pricebench/release-fixture.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

describe("bazaar import pricebench <dir> (as a user runs it)", () => {
  it("imports one run per model; analyze reports both conventions, labelled", async () => {
    const cwd = tempDir();
    writeFixtureRelease(path.join(cwd, "release"), {
      models: { steep: "steep", quality: "quality", locked: "locked" },
      responsesFolder: true,
    });
    const imp = await runCli(["import", "pricebench", "release", "--store", "pb.db"], { cwd });
    expect(imp.stderr).toBe("");
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/pricebench-steep\s+pricebench:steep/);
    expect(imp.stdout).toMatch(/--with-runs 'pricebench-\*'/);
    expect(imp.stdout).toMatch(
      /your model on the same tasks: bazaar run choice --tasks release --agent <agent>/,
    );
    const runs = await runCli(["runs", "--store", "pb.db", "--json"], { cwd });
    expect((JSON.parse(runs.stdout) as { id: string }[]).map((r) => r.id).sort()).toEqual([
      "pricebench-locked",
      "pricebench-quality",
      "pricebench-steep",
    ]);
    const again = await runCli(["import", "pricebench", "release", "--store", "pb.db", "--json"], { cwd });
    expect((JSON.parse(again.stdout) as { runs: { created: boolean }[] }).runs.every((r) => !r.created)).toBe(
      true,
    );

    const an = await runCli(
      [
        "analyze",
        "pricebench-steep",
        "--store",
        "pb.db",
        "--with-runs",
        "pricebench-*",
        "--bootstrap",
        "20",
        "--json",
      ],
      { cwd },
    );
    expect(an.code).toBe(0);
    const doc = JSON.parse(an.stdout) as {
      runs: string[];
      analyses: Record<
        string,
        { convention: { label: string }; agents: { agent: string; status: string }[] }
      >;
    };
    expect(doc.runs).toHaveLength(3);
    expect(Object.keys(doc.analyses)).toEqual(["default", "reference"]);
    expect(doc.analyses.reference!.convention.label).toMatch(/every non-"A" binary answer coded "B"/);
    expect(doc.analyses.default!.agents.find((a) => a.agent === "pricebench:locked")!.status).toBe("locked");
    const text = await runCli(["analyze", "pricebench-steep", "--store", "pb.db", "--bootstrap", "0"], {
      cwd,
    });
    expect(text.stdout).toMatch(/== default: first-shown form/);
    expect(text.stdout).toMatch(/== PriceBench reference: label form/);
    const one = await runCli(
      [
        "analyze",
        "pricebench-steep",
        "--store",
        "pb.db",
        "--bootstrap",
        "0",
        "--convention",
        "default",
        "--json",
      ],
      { cwd },
    );
    expect(Object.keys((JSON.parse(one.stdout) as { analyses: object }).analyses)).toEqual(["default"]);
  });

  it("a malformed file: exit 2, file, row and field named, no store written", async () => {
    const cwd = tempDir();
    const { dir } = writeFixtureRelease(path.join(cwd, "release"), { models: { steep: "steep" } });
    const file = path.join(dir, "conjoint_results_steep.csv");
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = "two,A,A";
    writeFileSync(file, lines.join("\n"));
    const r = await runCli(["import", "pricebench", "release", "--store", "pb.db"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /conjoint_results_steep\.csv, row 2, task_id: expected a whole number, got "two"/,
    );
    expect(existsSync(path.join(cwd, "pb.db"))).toBe(false);
    const missing = await runCli(["import", "pricebench", "nowhere"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere is not a folder/);
  });
});
