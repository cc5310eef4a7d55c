import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes
const ESCAPE = /\u001b/;

describe.concurrent("bazaar run --watch and bazaar watch, piped (no terminal)", () => {
  it("choice: plain progress and summary, then the run replayed as lines", async () => {
    const cwd = tempDir();
    const run = await runCli(
      ["run", "choice", "--agent", "sim:steep,sim:locked", "--limit", "2000", "--watch"],
      {
        cwd,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(ESCAPE);
    const runId = /^run (choice-\w+): 2,000 of 17,400 trials stored/m.exec(run.stdout)?.[1];
    expect(runId).toBeDefined();
    expect(run.stderr).toMatch(
      /^watching run choice-\w+ \(choice\): 2,000 trials · agents sim:steep, sim:locked$/m,
    );
    expect(run.stderr).toMatch(/^\[100\.0%\] 2,000\/2,000 stored · /m);
    expect(run.stderr).toMatch(
      /^sim:locked: 1,000\/1,000 · .*non-responses 0 · errors 0 · retries 0 · tokens 0 in \/ 0 out/m,
    );
    expect(run.stderr).toMatch(/^ {2}first-slot rate: binary 9\d\.\d%/m);

    // Two readers of the same store at once, as a user with two terminals would have.
    const [list, episode] = await Promise.all([
      runCli(["watch", runId!, "--agent", "sim:locked", "--outcome", "B", "--limit", "3"], { cwd }),
      runCli(["watch", runId!, "--episode", "3"], { cwd }),
    ]);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(ESCAPE);
    const lines = list.stdout.trim().split("\n");
    expect(lines[1]).toMatch(/^filters: agent=sim:locked, outcome=B · \d+ matching$/);
    expect(lines.slice(2, 5).every((l) => /^#\d+ sim:locked · B · binary · /.test(l))).toBe(true);
    expect(lines[5]).toMatch(/^… \d+ more/);

    expect(episode.code).toBe(0);
    expect(episode.stdout).toMatch(/^episode #3 · sim:locked · choice$/m);
    expect(episode.stdout).toMatch(/^Option B( {2}<- booked)?\nHotel: /m);
    expect(episode.stdout).toMatch(/^booked [AB]: /m);
    expect(episode.stdout).toMatch(/^running choice shares \(sim:locked, up to this episode\):$/m);
  });

  it("bargain: plain progress, then sessions filtered by outcome and MI/CI", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "bargain", "--limit", "300", "--watch"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(ESCAPE);
    const runId = /^run (bargain-\w+): 300 of /m.exec(run.stdout)?.[1];
    expect(runId).toBeDefined();
    expect(run.stderr).toMatch(/^\[100\.0%\] 300\/300 stored/m);
    expect(run.stderr).toMatch(/^ {2}deal rate: MI \d+\.\d% · CI/m);

    const deals = await runCli(["watch", runId!, "--outcome", "deal", "--interest", "MI", "--limit", "5"], {
      cwd,
    });
    expect(deals.code).toBe(0);
    const lines = deals.stdout.trim().split("\n");
    expect(lines.slice(2, 7).every((l) => /^#\d+ .+ vs .+ · deal \$[\d,.]+ · MI · /.test(l))).toBe(true);
  });
});

describe("bazaar watch filters", () => {
  it("are checked against the run's agents and environment, with the valid values named", async () => {
    const { registerWatch } = await import("../../cli/commands/watch.ts");
    expect(registerWatch).toBeTypeOf("function");
    const { Command } = await import("commander");
    const { fixtureRun } = await import("../cli/tui/fixtures.ts");
    const { store, plan } = await fixtureRun("choice", 5);
    const errors: string[] = [];
    const program = new Command().exitOverride();
    registerWatch(program, { log: () => {}, error: (l) => errors.push(l) });
    const run = (...args: string[]) =>
      program.parseAsync(["watch", plan.runId, "--store", store.path, ...args], { from: "user" });
    store.close();
    await expect(run("--outcome", "deal")).rejects.toThrow("--outcome: expected one of A, B, C, D, E");
    await expect(run("--interest", "MI")).rejects.toThrow("--interest: choice runs have no interest filter");
    await expect(run("--agent", "sim:nobody")).rejects.toThrow(/has no agent "sim:nobody"/);
    await expect(run("--non-response", "maybe")).rejects.toThrow("--non-response: expected yes or no");
  });
});
