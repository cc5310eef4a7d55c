import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  analyzeChoice,
  choiceTrialsFromRecords,
  DEFAULT_CONVENTION,
  REFERENCE_CONVENTION,
} from "../../../analysis/choice/index.ts";
import {
  displayedTask,
  importedRuns,
  importPriceBench,
  outcomeOf,
  priceBenchRunInfo,
  readPriceBenchRelease,
} from "../../../datasets/pricebench/index.ts";
import { InvalidFileError } from "../../../environments/kernel/errors.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { tempDir } from "../../helpers/cli.ts";
import { writeFixtureRelease } from "./release-fixture.ts";

const option = (price: number) => ({
  hotelId: price,
  name: `H${price}`,
  stars: 3,
  neighborhood: "Midtown",
  chain: "Independent" as const,
  price,
  roomType: "King",
  freeCancellation: false,
  breakfast: false,
  reviewScore: 8,
  reviewCount: 10,
});

describe("the swap convention", () => {
  const ternary = {
    id: 1801,
    kind: "ternary" as const,
    groupId: 451,
    rep: 2,
    options: [option(1), option(2), option(3)],
  };
  it("a swap run displays the options reversed, and its letters still name the original labels", () => {
    const swap = displayedTask(ternary, true, "main");
    expect(swap.taskId).toBe("11801");
    expect(swap.order).toEqual([2, 1, 0]);
    expect(swap.options.map((o) => o.price)).toEqual([3, 2, 1]);
    expect(swap.setId).toBe("t451");
    expect(swap.appearance).toBe(2);
    // "A" is the original first option, shown last in the swap run.
    expect(outcomeOf(swap, "A", "C").chosenSlot).toBe(2);
    expect(outcomeOf(swap, "C", "A").chosenSlot).toBe(0);
    const binary = displayedTask(
      { ...ternary, id: 7, kind: "binary", groupId: 2, options: [option(1), option(2)] },
      true,
      "main",
    );
    expect(outcomeOf(binary, "B", "A").chosenSlot).toBe(0); // "B" in a swap file = the first-shown option
    expect(displayedTask(ternary, false, "five").taskId).toBe("5opt-1801");
  });

  it("a blank or impossible choice is a non-response that keeps the text", () => {
    const binary = displayedTask(
      { ...ternary, kind: "binary", options: [option(1), option(2)] },
      false,
      "main",
    );
    expect(outcomeOf(binary, "", "")).toMatchObject({ chosenSlot: null, nonResponse: { reason: "empty" } });
    expect(outcomeOf(binary, "C", "C")).toMatchObject({
      chosenSlot: null,
      nonResponse: { reason: "out of range: C", raw: "C" },
    });
    expect(outcomeOf(binary, "maybe", "maybe").nonResponse?.reason).toBe("not a choice letter: MAYBE");
  });
});

describe("importing a release", () => {
  it("one run per model, tasks in displayed order, responses from the folder or responses/", () => {
    for (const responsesFolder of [false, true]) {
      const dir = tempDir();
      const fixture = writeFixtureRelease(path.join(dir, "release"), {
        models: { steep: "steep", locked: "locked" },
        responsesFolder,
      });
      const runs = importedRuns(readPriceBenchRelease(fixture.dir));
      expect(runs.map((r) => r.run.id)).toEqual(["pricebench-locked", "pricebench-steep"]);
      const steep = runs[1]!;
      const n = fixture.tasks.length;
      const k5 = fixture.fiveTasks.length;
      expect(steep.trials).toHaveLength(2 * n + 2 * k5);
      expect(steep.agent).toBe("pricebench:steep");
      expect(steep.tasks[n]!.taskId).toBe(String(fixture.tasks[0]!.id + 10000));
      expect(steep.tasks[n]!.order).toEqual([1, 0]);
      expect(steep.summary.unanswered).toEqual({ binary: 0, ternary: 0, five: 0 });
      // Locked: the first-shown option every time in both orders, whatever letter that is.
      const locked = runs[0]!;
      const slots = locked.trials.map(
        (t) => (JSON.parse(t.resultJson) as { outcome: { chosenSlot: number } }).outcome.chosenSlot,
      );
      expect(slots.filter((s) => s === 0).length / slots.length).toBeGreaterThan(0.9);
    }
  });

  it("writes ordinary runs that analyze reads; importing again changes nothing", () => {
    const dir = tempDir();
    const fixture = writeFixtureRelease(path.join(dir, "release"), {
      models: { steep: "steep" },
      pairs: 150,
    });
    const db = path.join(dir, "store.db");
    const open = () => Store.open(db, { create: true });
    const first = importPriceBench(fixture.dir, open);
    expect(first.runs[0]).toMatchObject({ runId: "pricebench-steep", created: true });
    const again = importPriceBench(fixture.dir, open);
    expect(again.runs[0]!.created).toBe(false);
    const store = Store.open(db, { create: false });
    try {
      const run = store.getRun("pricebench-steep")!;
      expect(run.done).toBe(run.total);
      expect(run.agents).toEqual(["pricebench:steep"]);
      const trials = choiceTrialsFromRecords(trialRecords(store, "pricebench-steep"));
      expect(trials).toHaveLength(run.total);
      const a = analyzeChoice(trials, { convention: REFERENCE_CONVENTION, bootstrapDraws: 0 }).agents[0]!;
      expect(a.status).toBe("engaged");
      const b = a.binary!.log;
      expect(b.status).toBe("ok");
    } finally {
      store.close();
    }
  });

  it("a malformed file is a UserError naming file, row and field, and nothing is written", () => {
    const dir = tempDir();
    const fixture = writeFixtureRelease(path.join(dir, "release"), { models: { steep: "steep" } });
    const tasksFile = path.join(fixture.dir, "conjoint_tasks.csv");
    const lines = readFileSync(tasksFile, "utf8").split("\n");
    const header = lines[0]!.split(",");
    const cells = lines[3]!.split(",");
    cells[header.indexOf("b_price")] = "cheap";
    lines[3] = cells.join(",");
    writeFileSync(tasksFile, lines.join("\n"));
    const db = path.join(dir, "store.db");
    let error: unknown;
    try {
      importPriceBench(fixture.dir, () => Store.open(db, { create: true }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidFileError);
    expect((error as Error).message).toMatch(
      /conjoint_tasks\.csv, row 3, b_price: expected a number, got "cheap"/,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("response files: ids checked against the tasks and the swap offset", () => {
    const dir = tempDir();
    const fixture = writeFixtureRelease(path.join(dir, "release"), { models: { m: "steep" } });
    const swapFile = path.join(fixture.dir, "conjoint_results_m_swap.csv");
    // Rows of a swap file without the offset (the release's Mistral 7B quirk) are set apart and
    // reported, never read as answers; a "swap" file in which no row has the offset is refused.
    writeFileSync(swapFile, "task_id,choice,raw_output\n5,B,A\n6,A,B\n10001,A,B\n");
    const quirky = importedRuns(readPriceBenchRelease(fixture.dir))[0]!;
    expect(quirky.summary.oddRows).toEqual([
      {
        file: "conjoint_results_m_swap.csv",
        swap: true,
        count: 2,
        rows: "2 rows (rows 1–2, ids 5–6)",
        why: expect.stringMatching(/without the \+10000 offset/),
        letters: { A: 1, B: 1 },
      },
    ]);
    // The run's config keeps them (the analysis reads them from there), as the summary reports them.
    expect(priceBenchRunInfo(quirky.run.config).oddRows).toEqual(quirky.summary.oddRows);
    // Only the reference convention's triage counts them: "A" and "B" enter the rate, "B" (shown
    // first in a swap file) as first-shown; no fit and no other count reads them.
    const trials = quirky.trials.map((t, i) => {
      const task = quirky.tasks[i]!;
      const { outcome } = JSON.parse(t.resultJson) as { outcome: { chosenSlot: number | null } };
      return {
        agent: quirky.agent,
        taskId: task.taskId,
        cluster: task.setId,
        kind: task.kind,
        appearance: task.appearance,
        order: task.order,
        options: task.options,
        chosenSlot: outcome.chosenSlot,
      };
    });
    const unmatchedAnswers = { [quirky.agent]: [{ swap: true, letters: { A: 1, B: 1 } }] };
    const [own, reference] = [DEFAULT_CONVENTION, REFERENCE_CONVENTION].map(
      (convention) =>
        analyzeChoice(trials, { convention, bootstrapDraws: 0, unmatchedAnswers }).agents[0]!.triage,
    );
    expect(own!.unmatchedPairAnswers).toBe(0);
    expect(reference!.unmatchedPairAnswers).toBe(2);
    expect(reference!.pairAnswers).toBe(own!.pairAnswers + 2);
    const firstShown = (t: typeof own) => Math.round(t!.firstShownRate! * t!.pairAnswers);
    expect(firstShown(reference)).toBe(firstShown(own) + 1);
    expect(reference!.trials).toBe(own!.trials);
    expect(reference!.nonResponses).toBe(own!.nonResponses);
    expect(quirky.summary.byFile.find((f) => f.file === "conjoint_results_m_swap.csv")?.responses).toBe(1);
    const swapIds = quirky.tasks.map((t) => t.taskId).filter((id) => Number(id) > 10000);
    expect(swapIds).toEqual(["10001"]);
    writeFileSync(swapFile, "task_id,choice,raw_output\n5,B,A\n");
    expect(() => readPriceBenchRelease(fixture.dir)).toThrow(
      /conjoint_results_m_swap\.csv, row 1, task_id: 5 lacks the \+10000 offset of a swap file \(no row of this file has it/,
    );
    writeFileSync(swapFile, "task_id,choice,raw_output\n19999,A,B\n");
    expect(() => readPriceBenchRelease(fixture.dir)).toThrow(
      /row 1, task_id: task 19999 is not in conjoint_tasks\.csv/,
    );
    writeFileSync(swapFile, "task_id,answer\n10001,A\n");
    expect(() => readPriceBenchRelease(fixture.dir)).toThrow(/choice: missing column/);
    writeFileSync(swapFile, "task_id,choice,raw_output\n10001,,\n10002,C,C\n");
    const run = importedRuns(readPriceBenchRelease(fixture.dir))[0]!;
    expect(run.summary.nonResponses).toBeGreaterThanOrEqual(2);
    expect(() => readPriceBenchRelease(fixture.dir, { models: ["nope"] })).toThrow(
      /no response files for nope/,
    );
  });
});
