import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EpisodeView } from "../../../cli/tui/components/EpisodeView.tsx";
import { plainEpisode } from "../../../cli/tui/plain.ts";
import {
  adapterFor,
  episodeModel,
  episodeSummary,
  type TrialRecord,
} from "../../../cli/tui/records/index.ts";
import { fixtureRun, lines } from "./fixtures.ts";

let records: TrialRecord[] = [];

beforeAll(async () => {
  const r = await fixtureRun("shop", 64, { replicates: "1", tasks: "16", maxInvalid: "1" });
  records = r.records;
  r.store.close();
});
afterEach(() => cleanup());

function view(record: TrialRecord, o: { step?: number; width?: number; height?: number } = {}): string {
  const model = episodeModel(record);
  const width = o.width ?? 110;
  const { lastFrame } = render(
    <Box width={width}>
      <EpisodeView model={model} step={o.step ?? model.steps} width={width} height={o.height ?? 30} />
    </Box>,
  );
  return lastFrame() ?? "";
}

describe("shop episode view", () => {
  it("shows the request, each call with a one-line result, and the booking with ✓/✗ per constraint", () => {
    const r = records.find((x) => x.agent === "sim:careful" && x.endReason === "booked")!;
    const m = episodeModel(r);
    if (m.kind !== "shop") throw new Error(`got ${m.kind}`);
    const f = view(r);
    expect(f).toContain(`episode #${r.seq} · sim:careful · shop · step ${m.steps}/${m.steps}`);
    expect(f).toMatch(/- Price: at most \$\d+ a night/);
    expect(f).toMatch(/# 1 m1 search\(\{.*\) → (\d+ results · page 1\/1|0 results)/);
    expect(f).toMatch(/book\(\{"id":"\w+"\}\) → booked \w+ · /);
    expect(f).toMatch(/✓ success — booked \w+ .* \(page 1, rank \d\)/);
    expect(f).toMatch(/✓ price cap/);
    expect(lines(f).length).toBeLessThanOrEqual(31);
  });

  it("steps through the calls: the outcome appears only after the last", () => {
    const r = records.find(
      (x) => x.agent === "sim:careful" && Array.isArray(x.trajectory) && x.trajectory.length >= 3,
    )!;
    const f = view(r, { step: 1 });
    expect(f).toContain("call 1 of");
    expect(f).not.toContain("success");
    expect(f).toMatch(/search\(/);
  });

  it("marks a broken constraint ✗ and an invalid episode red with its reason, and keeps a long trajectory in its window", () => {
    const bad = records.find((x) => x.booked !== null && x.success === false);
    if (bad) expect(view(bad)).toMatch(/✗ (price cap|min stars|area|amenities)/);
    const invalid = records.find((x) => x.endReason === "invalid");
    if (invalid) expect(view(invalid)).toMatch(/✗ failure — invalid: 1 invalid calls in a row/);
    const long = records.find((x) => Array.isArray(x.trajectory) && x.trajectory.length >= 8)!;
    const f = view(long, { height: 12 });
    expect(f).toMatch(/… \d+ earlier calls/);
    expect(lines(f).length).toBeLessThanOrEqual(13);
  });

  it("summaries, plain lines, running stats and filters for shop runs", () => {
    const a = adapterFor("shop");
    const s = episodeSummary(records[0]!);
    expect(s.outcome).toMatch(/^(booked \$\d+ [✓✗]|gave up [✓✗]|out of steps|invalid)$/);
    expect(s.detail).toMatch(/ · \d+ calls$/);
    const plain = plainEpisode(episodeModel(records[0]!));
    expect(plain[0]).toBe(`episode #${records[0]!.seq} · ${records[0]!.agent} · shop`);
    expect(plain.some((l) => l.startsWith("call 1 (message 1): search("))).toBe(true);
    const st = a.stats.init();
    for (const r of records) a.stats.add(st, r);
    const v = a.stats.view(st, null);
    const ok = records.filter((r) => r.success === true).length;
    expect(v.lines[0]!.value).toBe(
      `${((100 * ok) / records.length).toFixed(1)}% of ${records.length} episodes (${records.filter((r) => r.endReason === "invalid").length} invalid)`,
    );
    expect(a.facets.map((f) => f.key)).toEqual(["outcome", "kind"]);
    const generic = episodeModel({ ...records[0]!, trajectory: "gone" });
    expect(generic.kind).toBe("generic");
  });
});
