/**
 * A command loads what it uses (DESIGN.md § Start-up): the packages each command's process loads, read
 * by a module-loader hook (helpers/load-trace.mjs) — those loaded from node_modules by URL, those
 * bundled into dist/ by the files of dist/ it loaded (dist/build-info.json says what is in each) —
 * pinned. `--version` and `--help` load commander
 * alone; a run of simulated agents no model client; `analyze` without `--report` no Vega; a SQLite
 * store no PostgreSQL driver. What the commands cost is measured in bench/startup.ts, not here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_INFO, type BuildInfo, packageOf } from "../../scripts/build.ts";
import { REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";

const TRACE = path.join(REPO_ROOT, "test/helpers/load-trace.mjs");
const DIST_URL = `file://${path.join(REPO_ROOT, "dist")}/`;

/** The packages (names) a command's process loaded, and what it printed. */
async function packagesLoaded(
  args: string[],
  cwd: string,
): Promise<{ packages: Set<string>; stdout: string }> {
  const file = path.join(cwd, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const r = await runCli(args, { cwd, env: { BAZAAR_LOAD_TRACE: file }, nodeArgs: ["--import", TRACE] });
  if (r.code !== 0) throw new Error(`bazaar ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  const bundled = (JSON.parse(readFileSync(BUILD_INFO, "utf8")) as BuildInfo).packages;
  const packages = new Set<string>();
  for (const url of readFileSync(file, "utf8").split("\n")) {
    const external = packageOf(url);
    if (external) packages.add(external);
    if (url.startsWith(DIST_URL)) for (const p of bundled[url.slice(DIST_URL.length)] ?? []) packages.add(p);
  }
  return { packages, stdout: r.stdout };
}

const MODEL_CLIENT = ["@langchain/core", "@langchain/openai", "@langchain/langgraph", "openai", "langsmith"];
const TERMINAL_UI = ["ink", "react"];
const FIGURES = ["vega", "vega-lite"];

function expectNone(packages: Set<string>, forbidden: readonly string[]): void {
  expect(forbidden.filter((p) => packages.has(p))).toEqual([]);
}

describe("a command loads what it uses", () => {
  const cwd = tempDir("bazaar-startup-");
  let run: Awaited<ReturnType<typeof packagesLoaded>>;
  let runId: string;
  beforeAll(async () => {
    run = await packagesLoaded(["run", "choice", "--limit", "40", "--store", "s.db", "--json"], cwd);
    runId = (JSON.parse(run.stdout) as { runId: string }).runId;
  });

  it("--version, --help and run choice --help load commander and nothing else", async () => {
    for (const args of [
      ["--version"],
      ["--help"],
      ["run", "choice", "--help"],
      ["analyze", "--help"],
      ["view", "--help"],
    ]) {
      const { packages } = await packagesLoaded(args, cwd);
      expect([...packages], args.join(" ")).toEqual(["commander"]);
    }
  });

  it("a run of simulated agents on a SQLite store loads no model client, terminal UI, figures or pg", () => {
    // What it does need, loaded (the trace sees packages at all).
    for (const p of ["xstate", "zod", "better-sqlite3"]) expect(run.packages.has(p), p).toBe(true);
    expectNone(run.packages, [...MODEL_CLIENT, ...TERMINAL_UI, ...FIGURES, "pg", "pg-cursor"]);
  });

  it("analyze loads Vega only for --report", async () => {
    const tables = await packagesLoaded(["analyze", runId, "--store", "s.db", "--bootstrap", "0"], cwd);
    expectNone(tables.packages, [...FIGURES, ...MODEL_CLIENT, ...TERMINAL_UI, "pg"]);
    const report = await packagesLoaded(
      ["analyze", runId, "--store", "s.db", "--bootstrap", "0", "--report", "out"],
      cwd,
    );
    for (const p of FIGURES) expect(report.packages.has(p), p).toBe(true);
    expectNone(report.packages, [...MODEL_CLIENT, ...TERMINAL_UI]);
  });

  it("runs, export and cache stats load the store and no model client, terminal UI or figures", async () => {
    for (const args of [["runs"], ["export", runId], ["cache", "stats"]]) {
      const { packages } = await packagesLoaded([...args, "--store", "s.db"], cwd);
      expect(packages.has("better-sqlite3"), args.join(" ")).toBe(true);
      expectNone(packages, [...MODEL_CLIENT, ...TERMINAL_UI, ...FIGURES, "pg"]);
    }
  });
});
