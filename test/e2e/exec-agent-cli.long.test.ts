/**
 * `bazaar run <env> --agent 'exec:<command>'` as a user runs it (the compiled CLI): bazaar starts the
 * test client (test/fixtures/outside/client.mjs) once per trial and stores what it did. Faults give
 * failed trials (exit 3, and the same command runs them again) or non-answers, never a lost or a
 * doubled trial; the program sees nothing of bazaar's environment unless --pass-env names it; a
 * command that cannot start stops the run; a run without exec: agents loads no MCP SDK.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { BUILD_INFO, type BuildInfo, packageOf } from "../../scripts/build.ts";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const CLIENT = path.join(REPO_ROOT, "test/fixtures/outside/client.mjs");
const AGENT = `exec:node ${CLIENT}`;

interface RunJson {
  runId: string;
  stored: number;
  target: number;
  ranNow: number;
  nonResponsesNow: number;
  failed: number;
  failedNow: number;
  failures: { agent: string; label: string; trials: number }[];
}

/** `bazaar <args> --store <cwd>/s.db --json` in `cwd`, with its summary read. */
async function run(args: string[], cwd: string, env?: NodeJS.ProcessEnv) {
  const r = await runCli([...args, "--store", path.join(cwd, "s.db"), "--json"], { cwd, env });
  let json: RunJson | null = null;
  try {
    json = JSON.parse(r.stdout) as RunJson;
  } catch {
    // Not a run summary (a refused command): the caller reads stderr.
  }
  return { ...r, json };
}

async function exported<T>(cwd: string, runId: string): Promise<T[]> {
  const file = path.join(cwd, `export-${Math.random().toString(36).slice(2)}.jsonl`);
  const store = path.join(cwd, "s.db");
  const r = await runInProcess(["export", runId, "--store", store, "--format", "jsonl", "--out", file]);
  expect(r.code, r.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as T);
}

/** The failed trials a store holds (the store keeps them until a later run plays them). */
function failedTrials(cwd: string): { seq: number; kind: string; message: string }[] {
  const db = new Database(path.join(cwd, "s.db"), { readonly: true });
  try {
    const rows = db.prepare("SELECT seq, kind, error FROM failed_trials ORDER BY seq").all() as {
      seq: number;
      kind: string;
      error: string;
    }[];
    return rows.map((r) => ({
      seq: r.seq,
      kind: r.kind,
      message: (JSON.parse(r.error) as { message: string }).message,
    }));
  } finally {
    db.close();
  }
}

interface ShopRecord {
  seq: number;
  agent: string;
  taskId: string;
  endReason: string;
  booked: { id: string } | null;
  steps: number;
  trajectory: unknown[];
  nonResponse: { reason: string } | null;
}

const SHOP = ["run", "shop", "--tasks", "8", "--replicates", "1", "--limit", "4"];
const FAULTS = "--pass-env=FIXTURE_FAULT,FIXTURE_FAULT_SLOTS";

describe("bazaar run with exec: agents", () => {
  it("stores the trials an exec: shopper plays, with the outcomes sim:first-result has natively", async () => {
    const cwd = tempDir("bazaar-exec-e2e-");
    const nativeCwd = tempDir("bazaar-exec-e2e-");
    const [viaExec, native] = await Promise.all([
      run([...SHOP, "--agent", AGENT, "--concurrency", "4"], cwd),
      run([...SHOP, "--agent", "sim:first-result"], nativeCwd),
    ]);
    expect(viaExec.stderr).toBe("");
    expect(viaExec.code).toBe(0);
    expect(viaExec.json).toMatchObject({ stored: 4, target: 4, ranNow: 4, nonResponsesNow: 0, failed: 0 });
    const a = await exported<ShopRecord>(cwd, viaExec.json!.runId);
    const b = await exported<ShopRecord>(nativeCwd, native.json!.runId);
    expect(a.map((r) => r.agent)).toEqual(Array(4).fill(AGENT));
    const outcome = (r: ShopRecord) => ({
      seq: r.seq,
      taskId: r.taskId,
      endReason: r.endReason,
      booked: r.booked?.id ?? null,
      steps: r.steps,
      trajectory: r.trajectory,
    });
    expect(a.map(outcome)).toEqual(b.map(outcome));
    expect(a.map((r) => r.endReason)).toContain("booked");
  });

  it("a program that exits non-zero leaves failed trials (exit 3); the same command plays them again", async () => {
    const cwd = tempDir("bazaar-exec-e2e-");
    const args = [...SHOP, "--agent", AGENT, FAULTS];
    // Two of the four episodes exit 3 after their first step.
    const faulty = await run(args, cwd, {
      FIXTURE_FAULT: "exit3",
      FIXTURE_FAULT_SLOTS: `${path.join(cwd, "slots")}:2`,
    });
    expect(faulty.code).toBe(3);
    expect(faulty.json).toMatchObject({ stored: 2, ranNow: 2, failed: 2, failedNow: 2, nonResponsesNow: 0 });
    expect(faulty.stderr).toContain(
      "2 trials of the run failed (missing data, in no estimate); the same command runs them again",
    );
    const failed = failedTrials(cwd);
    expect(failed).toHaveLength(2);
    for (const f of failed) {
      expect(f.kind).toBe("infrastructure");
      expect(f.message).toBe(
        "outside agent: the agent exited with code 3; stderr ended: fixture: giving up with code 3",
      );
    }
    // The summary and `bazaar runs` say what failed: the process's exit, not a model call.
    const label = { agent: AGENT, label: "the process exited 3", trials: 2 };
    expect(faulty.json!.failures).toEqual([label]);
    const runs = await runCli(["runs", "--store", path.join(cwd, "s.db")], { cwd });
    expect(runs.stdout).toContain(`  ${faulty.json!.runId} ${label.agent}: the process exited 3 (2)`);
    expect(runs.stdout).not.toMatch(/model call|timeouts, 5xx/);

    const again = await run(args, cwd);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ stored: 4, ranNow: 2, failed: 0, nonResponsesNow: 0 });
    const records = await exported<ShopRecord>(cwd, again.json!.runId);
    expect(records.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    expect(records.every((r) => r.nonResponse === null)).toBe(true);
  });

  it("a program that exits 0 before its episode is over leaves a non-answer; one silent past --episode-timeout a failed trial", async () => {
    const quitting = tempDir("bazaar-exec-e2e-");
    const hanging = tempDir("bazaar-exec-e2e-");
    const [quit, hang] = await Promise.all([
      run([...SHOP, "--agent", AGENT, FAULTS], quitting, { FIXTURE_FAULT: "exit0" }),
      run([...SHOP, "--limit", "2", "--agent", AGENT, FAULTS, "--episode-timeout", "3"], hanging, {
        FIXTURE_FAULT: "hang",
      }),
    ]);
    expect(quit.code).toBe(0);
    expect(quit.json).toMatchObject({ stored: 4, nonResponsesNow: 4, failed: 0 });
    const records = await exported<ShopRecord>(quitting, quit.json!.runId);
    for (const r of records) {
      expect(r.endReason).toBe("agent-error");
      expect(r.nonResponse?.reason).toBe(
        "agent error: the agent exited (code 0) before the episode was over; its output ended: I have seen enough of this shop; goodbye.",
      );
    }

    expect(hang.code).toBe(3);
    expect(hang.json).toMatchObject({ stored: 0, failed: 2 });
    expect(failedTrials(hanging).map((f) => f.message)).toEqual(
      Array(2).fill("outside agent: no tool call for 3 s (--episode-timeout)"),
    );
    expect(hang.json!.failures).toEqual([
      { agent: AGENT, label: "idle past --episode-timeout (3 s)", trials: 2 },
    ]);
  });

  it("the program's environment holds nothing of bazaar's beyond the minimal set and what --pass-env names", async () => {
    const env = { SECRET_PLANTED: "x" };
    const dumpOf = async (extra: string[]) => {
      const cwd = tempDir("bazaar-exec-env-");
      const r = await run([...SHOP, "--limit", "1", "--agent", `${AGENT} --dump-env`, ...extra], cwd, env);
      expect(r.code, r.stderr).toBe(0);
      const [file] = readdirSync(cwd).filter((f) => f.startsWith("env-dump-"));
      return (JSON.parse(readFileSync(path.join(cwd, file!), "utf8")) as { env: Record<string, string> }).env;
    };
    const [plain, passed] = await Promise.all([dumpOf([]), dumpOf(["--pass-env", "SECRET_PLANTED"])]);
    expect(plain.SECRET_PLANTED).toBeUndefined();
    expect(
      Object.keys(plain)
        .filter((k) => !k.startsWith("BAZAAR_"))
        .sort(),
    ).toEqual(
      ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM", "USER", "SHELL"]
        .filter((k) => process.env[k])
        .sort(),
    );
    expect(passed.SECRET_PLANTED).toBe("x");
  });

  it("an exec: negotiator, as buyer and as seller, stores the sessions rule:linear stores natively", async () => {
    type Session = {
      seq: number;
      agent: string;
      outcome: string;
      endedBy: string;
      dealPrice: number | null;
      transcript: { role: string; action: string; price: number | null }[];
    };
    const sessions = async (buyer: string, seller: string) => {
      const cwd = tempDir("bazaar-exec-e2e-");
      const r = await run(
        ["run", "bargain", "--buyer", buyer, "--seller", seller, "--limit", "4", "--concurrency", "4"],
        cwd,
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({ stored: 4, nonResponsesNow: 0, failed: 0 });
      return exported<Session>(cwd, r.json!.runId);
    };
    const [execBuyer, nativeBuyer, execSeller, nativeSeller] = await Promise.all([
      sessions(AGENT, "rule:boulware"),
      sessions("rule:linear", "rule:boulware"),
      sessions("rule:boulware", AGENT),
      sessions("rule:boulware", "rule:linear"),
    ]);
    expect(execBuyer.map((s) => s.agent)).toEqual(Array(4).fill(`${AGENT} vs rule:boulware`));
    expect(execSeller.map((s) => s.agent)).toEqual(Array(4).fill(`rule:boulware vs ${AGENT}`));
    const played = (s: Session) => ({
      seq: s.seq,
      outcome: s.outcome,
      endedBy: s.endedBy,
      dealPrice: s.dealPrice,
      moves: s.transcript.map((t) => [t.role, t.action, t.price]),
    });
    expect(execBuyer.map(played)).toEqual(nativeBuyer.map(played));
    expect(execSeller.map(played)).toEqual(nativeSeller.map(played));
    expect(execBuyer.map((s) => s.outcome)).toContain("deal");
  });

  it("an exec: chooser books one of the options shown", async () => {
    const cwd = tempDir("bazaar-exec-e2e-");
    const choice = await run(["run", "choice", "--agent", AGENT, "--limit", "4", "--concurrency", "4"], cwd);
    expect(choice.stderr).toBe("");
    expect(choice.code).toBe(0);
    expect(choice.json).toMatchObject({ stored: 4, nonResponsesNow: 0, failed: 0 });
    // The client books the cheapest option: the letter it sent named the one it meant.
    const trials = await exported<{ options: { hotelId: number; price: number }[]; chosenHotelId: number }>(
      cwd,
      choice.json!.runId,
    );
    for (const t of trials) {
      const cheapest = t.options.reduce((a, b) => (b.price < a.price ? b : a));
      expect(t.chosenHotelId).toBe(cheapest.hotelId);
    }
  });

  it("a command that cannot be started stops the run before any trial is stored", async () => {
    const cwd = tempDir("bazaar-exec-e2e-");
    const r = await run([...SHOP, "--agent", "exec:no-such-program-for-bazaar --x"], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "bazaar: exec: the agent's command could not be started: spawn no-such-program-for-bazaar ENOENT",
    );
    expect(r.stderr).toContain('check the program "no-such-program-for-bazaar"');
    expect(r.stderr).toContain("the run stopped with 0 of 4 trials stored");
    const quote = await run([...SHOP, "--agent", "exec:node 'agent.mjs"], cwd);
    expect(quote.code).toBe(2);
    expect(quote.stderr).toContain("has a single quote that is never closed");
  });

  it("loads the MCP SDK only when a run has exec: agents", async () => {
    const cwd = tempDir("bazaar-exec-e2e-");
    const sim = await packagesLoaded(["run", "shop", "--limit", "8", "--store", "a.db"], cwd);
    expect(sim.has("zod")).toBe(true);
    expect(sim.has("@modelcontextprotocol/sdk")).toBe(false);
    const exec = await packagesLoaded(
      ["run", "shop", "--limit", "1", "--agent", AGENT, "--store", "b.db"],
      cwd,
    );
    expect(exec.has("@modelcontextprotocol/sdk")).toBe(true);
  });
});

/** The packages a command's process loaded (test/helpers/load-trace.mjs, read as startup.test.ts does). */
async function packagesLoaded(args: string[], cwd: string): Promise<Set<string>> {
  const file = path.join(cwd, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const r = await runCli(args, {
    cwd,
    env: { BAZAAR_LOAD_TRACE: file },
    nodeArgs: ["--import", path.join(REPO_ROOT, "test/helpers/load-trace.mjs")],
  });
  expect(r.code, r.stderr).toBe(0);
  const bundled = (JSON.parse(readFileSync(BUILD_INFO, "utf8")) as BuildInfo).packages;
  const dist = `file://${path.join(REPO_ROOT, "dist")}/`;
  const packages = new Set<string>();
  for (const url of readFileSync(file, "utf8").split("\n")) {
    const external = packageOf(url);
    if (external) packages.add(external);
    if (url.startsWith(dist)) for (const p of bundled[url.slice(dist.length)] ?? []) packages.add(p);
  }
  return packages;
}
