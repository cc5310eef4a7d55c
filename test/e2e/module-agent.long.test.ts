/**
 * `bazaar run <env> --agent module:<file>[#export]` as a user runs it (the compiled CLI in dist/,
 * plain node: a .ts module loads through tsx): a module wrapping a simulated policy stores what the
 * policy stores natively, task by task (policies that draw nothing, so that the module's own trial
 * keys do not matter; the in-process tests compare the drawing ones under matched keys); a
 * LangGraph graph module books through the shop's tools; the same command again resumes, storing
 * nothing twice; a missing file is refused before anything runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const FIX = path.join(REPO_ROOT, "test/fixtures/outside-modules");

interface Run {
  runId: string;
  stored: number;
  total: number;
}

async function run(cwd: string, args: string[]): Promise<Run> {
  const r = await runCli(["run", ...args, "--store", "bazaar.db", "--json"], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Run;
}

async function exported(cwd: string, runId: string): Promise<Record<string, unknown>[]> {
  const file = path.join(cwd, `${runId}.jsonl`);
  const r = await runInProcess(["export", runId, "--store", path.join(cwd, "bazaar.db"), "--out", file]);
  expect(r.code, r.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A record without what names the run and the agent, or times the messages. */
function outcomeOf(record: Record<string, unknown>): unknown {
  const drop = new Set(["run", "trialKey", "agent", "buyer", "seller", "ms"]);
  const strip = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(strip)
      : x && typeof x === "object"
        ? Object.fromEntries(
            Object.entries(x)
              .filter(([k]) => !drop.has(k))
              .map(([k, v]) => [k, strip(v)]),
          )
        : x;
  return strip(record);
}

describe("bazaar run with a module: agent", () => {
  it("a module wrapping sim:first-result stores its outcomes, task by task, and resumes", async () => {
    const cwd = tempDir();
    const args = ["--tasks", "12", "--replicates", "1", "--limit", "4"];
    const spec = `module:${path.relative(cwd, path.join(FIX, "sim-agents.ts"))}#firstResult`;
    const viaModule = await run(cwd, ["shop", "--agent", spec, ...args]);
    expect(viaModule.stored).toBe(4);
    const native = await run(cwd, ["shop", "--agent", "sim:first-result", ...args]);
    const [m, n] = await Promise.all([exported(cwd, viaModule.runId), exported(cwd, native.runId)]);
    expect(m.map((r) => r.agent)).toEqual(Array(4).fill(spec));
    expect(m.map((r) => r.taskId)).toEqual(n.map((r) => r.taskId));
    expect(m.map(outcomeOf)).toEqual(n.map(outcomeOf));
    // The same command again: the same run (the identity holds), nothing stored twice.
    const again = await runCli(["run", "shop", "--agent", spec, ...args, "--store", "bazaar.db"], { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`run ${viaModule.runId}: 4 of 12 trials stored (0 this time, 4 before)`);
  });

  it("bargaining: rule negotiators as module buyer and seller store what they store natively", async () => {
    const cwd = tempDir();
    const mod = `module:${path.join(FIX, "sim-agents.ts")}`;
    const args = ["--scenarios", "6", "--replicates", "1"];
    const viaModule = await run(cwd, [
      "bargain",
      "--buyer",
      `${mod}#boulware`,
      "--seller",
      `${mod}#titForTat`,
      ...args,
    ]);
    const native = await run(cwd, [
      "bargain",
      "--buyer",
      "rule:boulware",
      "--seller",
      "rule:tit-for-tat",
      ...args,
    ]);
    expect(viaModule.stored).toBe(6);
    const [m, n] = await Promise.all([exported(cwd, viaModule.runId), exported(cwd, native.runId)]);
    expect(m.map(outcomeOf)).toEqual(n.map(outcomeOf));
    expect(new Set(m.map((r) => r.outcome)).size).toBeGreaterThan(0);
  });

  it("a LangGraph graph module books through the shop's tools; a .mjs module needs no tsx", async () => {
    const cwd = tempDir();
    const graph = await run(cwd, [
      "shop",
      "--agent",
      `module:${path.join(FIX, "shop-graph.ts")}`,
      "--tasks",
      "8",
      "--replicates",
      "1",
      "--limit",
      "4",
    ]);
    expect(graph.stored).toBe(4);
    for (const r of await exported(cwd, graph.runId)) {
      expect(r.endReason).toBe("booked");
      expect((r.trajectory as { tool: string }[]).map((t) => t.tool)).toEqual([
        "search",
        "view",
        "view",
        "book",
      ]);
      expect(r.usage).toMatchObject({ calls: 3, inputTokens: 300 });
    }
    const js = await run(cwd, [
      "shop",
      "--agent",
      `module:${path.join(FIX, "give-up.mjs")}`,
      "--tasks",
      "3",
      "--replicates",
      "1",
    ]);
    for (const r of await exported(cwd, js.runId)) expect(r.endReason).toBe("gave-up");
  });

  it("a missing file is refused before anything runs", async () => {
    const cwd = tempDir();
    const r = await runCli(["run", "shop", "--agent", "module:./my-agent.ts", "--store", "bazaar.db"], {
      cwd,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `agent "module:./my-agent.ts": there is no file ${path.join(cwd, "my-agent.ts")}`,
    );
    expect(r.stderr).toContain("relative to this directory");
  });
});
