import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { startRunView } from "../../../cli/tui/live/run-view.ts";
import { plainEpisode } from "../../../cli/tui/plain.ts";
import { episodeModel } from "../../../cli/tui/records/index.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { fixtureRun, longBargainRecord } from "./fixtures.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes
const ESCAPE = /\u001b/;

describe("plain episodes (no terminal)", () => {
  it("bargaining: every message, the prices, the outcome with profits", () => {
    const text = plainEpisode(episodeModel(longBargainRecord(20)));
    expect(text).toHaveLength(4 + 40 + 1);
    expect(text[2]).toBe("electronics_7 · MI · listed $200.00 · budget B $160.00 · cost C $90.00");
    expect(text.at(-2)).toBe("turn 20 seller: DEAL $136.00 — Deal.");
    expect(text.at(-1)).toBe(
      "deal at $136.00 (deal) · profit buyer $24.00 (normalized 0.343) · seller $46.00 (normalized 0.657)",
    );
  });

  it("every environment's episode is escape-free text", async () => {
    for (const env of ["choice", "cue", "elicit", "bargain"]) {
      const r = await fixtureRun(env, 3);
      const text = plainEpisode(episodeModel(r.records[0]!, r.plan.tasks[0])).join("\n");
      r.store.close();
      expect(text).not.toMatch(ESCAPE);
      expect(text).toContain(`episode #0 · ${r.records[0]!.agent} · ${env}`);
    }
  });
});

describe("run --watch without a terminal", () => {
  it("prints plain progress lines, then per-agent totals and running statistics", async () => {
    const { plan, store } = await fixtureRun("choice", 1, { agent: "sim:steep,sim:locked" });
    const log: string[] = [];
    const stdout = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false });
    const view = await startRunView({
      plan,
      target: 600,
      storedByAgent: new Map([["sim:steep", 1]]),
      stdout: stdout as unknown as NodeJS.WriteStream,
      log: (l) => log.push(l),
      onStop: () => {},
    });
    const result = await executeRun(plan, store, {
      concurrency: 4,
      limit: 600,
      batchSize: 50,
      onProgress: (p) => view.onProgress(p),
      onTrial: (r) => view.onTrial(r),
    });
    await view.finish(result);
    store.close();
    const text = log.join("\n");
    expect(text).not.toMatch(ESCAPE);
    expect(log[0]).toBe(`watching run ${plan.runId} (choice): 600 trials · agents sim:steep, sim:locked`);
    expect(log.filter((l) => l.startsWith("[")).at(-1)).toMatch(/^\[100\.0%\] 600\/600 stored · /);
    expect(log).toContainEqual(expect.stringMatching(/^sim:steep: 300\/300 · .* non-responses 0 · errors 0/));
    expect(log).toContainEqual(expect.stringMatching(/^sim:locked: 300\/300 /));
    expect(log).toContainEqual("sim:locked — running choice shares:");
    expect(log).toContainEqual(expect.stringMatching(/^ {2}first-slot rate: binary 9\d\.\d%/));
  });
});
