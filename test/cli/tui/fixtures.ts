/**
 * Trial records for the terminal tests, made by the real environments: a few trials of each run
 * through the runner (so they are exactly what `onTrial` and `export` see), and a long bargaining
 * session built with the environment's own record function (typed, so a renamed field fails here).
 */
import path from "node:path";
import { ENVIRONMENT_CLIS } from "../../../cli/run/index.ts";
import type { TrialRecord } from "../../../cli/tui/records/index.ts";
import { bargainTrialRecord } from "../../../environments/bargain/record.ts";
import type { BargainOutcome, BargainTask, TranscriptEntry } from "../../../environments/bargain/types.ts";
import { emptyUsage } from "../../../environments/kernel/types.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import type { RunPlan } from "../../../environments/runner/plan.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";

export interface FixtureRun {
  plan: RunPlan;
  store: Store;
  records: TrialRecord[];
}

/** Small designs, so that building the tasks takes milliseconds. */
const SMALL: Record<string, Record<string, string>> = {
  cue: { blocks: "main", conditions: "scarcity,price-only", nPerCell: "4", grid: "0,10" },
  elicit: { domains: "flights", collections: "main", completions: "3" },
};

/** The first `limit` trials of an environment's small run (simulated agents), stored and recorded. */
export async function fixtureRun(
  env: string,
  limit = 30,
  options: Record<string, string> = {},
  store = Store.open(path.join(tempDir("bazaar-tui-"), "t.db"), { create: true }),
): Promise<FixtureRun> {
  const cli = ENVIRONMENT_CLIS.find((e) => e.name === env);
  if (!cli) throw new Error(`no environment ${env}`);
  // Commander's defaults for the options the environment has (elicitation takes --completions).
  const defaults = env === "elicit" ? {} : { replicates: "1", maxReasks: "2" };
  const plan = (await cli.planner())({ ...defaults, ...SMALL[env], ...options }, { settings: {} });
  const records: TrialRecord[] = [];
  await executeRun(plan, store, { concurrency: 2, limit, onTrial: (r) => records.push(r) });
  records.sort((a, b) => Number(a.seq) - Number(b.seq));
  return { plan, store, records };
}

export const LONG_TASK: BargainTask = {
  env: "bargain",
  taskId: "electronics_7",
  scenarioId: "electronics_7",
  product: {
    id: "electronics_7",
    title: "Novtra S97 Portable SSD with a rather long product title that will not fit one line",
    category: "electronics",
    description: "A fast drive.",
  },
  listedPrice: 200,
  budget: 160,
  cost: 90,
  interest: "MI",
  maxTurns: 20,
};

/** A session of `turns` turns: the buyer climbs from $60, the seller comes down from $200, then a deal. */
export function longBargainRecord(turns = 20, seq = 41): TrialRecord {
  const transcript: TranscriptEntry[] = [];
  let buy = 60;
  let sell = 200;
  for (let t = 1; t <= turns; t++) {
    transcript.push({
      turn: t,
      role: "buyer",
      action: "offer",
      price: buy,
      talk: `Turn ${t}: I could pay $${buy.toFixed(2)}, which is a fair price given what I have seen elsewhere for this kind of drive.`,
    });
    if (t === turns) {
      transcript.push({ turn: t, role: "seller", action: "deal", price: buy, talk: "Deal." });
      break;
    }
    transcript.push({ turn: t, role: "seller", action: "offer", price: sell, talk: `How about $${sell}?` });
    buy += 4;
    sell -= 3;
  }
  const outcome: BargainOutcome = {
    outcome: "deal",
    endedBy: "deal",
    endedBySide: "seller",
    invalidSide: null,
    invalidReason: null,
    dealPrice: buy,
    turns,
    transcript,
  };
  return bargainTrialRecord({
    run: "bargain-long",
    trialKey: "k-long",
    seq,
    agent: "og-narrator vs rule:boulware",
    replicate: 0,
    task: LONG_TASK,
    outcome,
    usage: { ...emptyUsage(), calls: 40, inputTokens: 12_000, outputTokens: 800 },
  }) as unknown as TrialRecord;
}

/** Frame text without colour codes, as lines. */
export function lines(frame: string | undefined): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
  return (frame ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n");
}

/** The widest line of a frame, in characters (the box-drawing and block glyphs are one column). */
export function widest(frame: string | undefined): number {
  return Math.max(...lines(frame).map((l) => [...l].length));
}

/** Waits until the app's last frame matches (effects and timers run between frames). */
export async function until(
  app: { lastFrame: () => string | undefined },
  pattern: string | RegExp,
  ms = 3000,
) {
  const t0 = Date.now();
  for (;;) {
    const f = app.lastFrame() ?? "";
    if (typeof pattern === "string" ? f.includes(pattern) : pattern.test(f)) return f;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${pattern} in:\n${f}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
