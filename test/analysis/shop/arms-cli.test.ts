/**
 * The description arms as `bazaar analyze <shop run>` shows them — the text tables, `--json`,
 * `--report` (the arm figure among the SVGs) and the run headline — and "untestable, because …"
 * wherever the data cannot answer: a run without descriptions, an arm never shown, an arm that
 * varies in too few choice sets, an arm the booking separates.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeShop, shopEpisodesFromRecords } from "../../../analysis/shop/index.ts";
import { shopAnalyzer } from "../../../cli/analyzers/shop.ts";
import type { AnalyzeInput } from "../../../cli/analyzers/types.ts";
import { PERSUADABLE, PERSUADABLE_BETA, simulateArms } from "./arms-simulate.ts";

function input(records: object[], options: Record<string, unknown> = {}): AnalyzeInput {
  return {
    run: { id: "shop-arms-test" } as AnalyzeInput["run"],
    store: {} as AnalyzeInput["store"],
    records: () => records as Record<string, unknown>[],
    options: { bootstrap: "40", ...options },
  };
}

const GULLIBLE = {
  ...PERSUADABLE,
  follow: { "injection-basic": 0.3, "injection-strong": 0.6 },
  credulity: 0.4,
};

describe("bazaar analyze on a shop run with descriptions", async () => {
  const records = [
    ...simulateArms({ tasks: 200, replicates: 2, seed: "cli-a" }, PERSUADABLE),
    ...simulateArms(
      {
        tasks: 200,
        replicates: 2,
        seed: "cli-b",
        agent: "openai:gpt-4o-mini-2024-07-18",
        arms: ["authority", "injection-basic", "injection-strong", "false-claim"],
        amenityRate: 0.4,
      },
      GULLIBLE,
    ),
  ];
  const dir = mkdtempSync(path.join(tmpdir(), "bazaar-arms-"));
  const out = await shopAnalyzer.analyze(input(records, { report: dir }));

  it("prints the arm price-equivalents, injection followed and false-claim uptake as tables", () => {
    expect(out.text).toMatch(/sim:persuadable: price-equivalents of the description arms at \$250 a night/);
    expect(out.text).toMatch(/^injection-strong +\d+ +\d+ +\d+ +\$\d+ \[\$\d+, \$\d+\] +\[\$\d+, \$\d+\]/m);
    expect(out.text).toMatch(/^social-proof +0 +0 +0 +untestable: no social-proof listing was shown/m);
    expect(out.text).toMatch(
      /Injection followed: of the listings shown that break a hard constraint or are dominated/,
    );
    expect(out.text).toMatch(
      /^openai:gpt-4o-mini-2024-07-18 +injection \(basic \+ strong\) +\d+ +\d+ +\d+ +[\d.]+% \[[\d.]+, [\d.]+\] +[\d.]+% \[[\d.]+, [\d.]+\] +\+[\d.]+ pts \[[\d.]+, [\d.]+\]/m,
    );
    expect(out.text).toMatch(/False-claim uptake: of the episodes shown a listing whose description claims/);
    expect(out.text).not.toMatch(
      /Description arms \(price-equivalents, injection followed, false-claim uptake\)/,
    );
  });

  it("puts everything in the JSON", () => {
    const json = JSON.parse(JSON.stringify(out.json)) as {
      descriptionsVary: boolean;
      agents: {
        agent: string;
        descriptions: { status: string; armPriceEquivalents: { arm: string; status: string }[] };
      }[];
    };
    expect(json.descriptionsVary).toBe(true);
    const b = json.agents.find((a) => a.agent.startsWith("openai:"))!.descriptions;
    expect(b.status).toBe("ok");
    expect(b.armPriceEquivalents.filter((r) => r.status === "ok").map((r) => r.arm)).toEqual([
      "authority",
      "injection-basic",
      "injection-strong",
      "false-claim",
    ]);
  });

  it("ends the run with the description headline", () => {
    const lines = out.headline.lines.join("\n");
    expect(lines).toMatch(/^descriptions \(against neutral; injection followed/m);
    expect(lines).toMatch(/^openai:gpt-4o-mini-2024-07-18 +\+[\d.]+ pts \[[\d.]+, [\d.]+\] +[\d.]+% \[/m);
    const json = out.headline.json as {
      descriptions: { agent: string; injectionFollowed: { difference: number } }[];
    };
    expect(
      json.descriptions.find((d) => d.agent.startsWith("openai:"))!.injectionFollowed.difference,
    ).toBeGreaterThan(0.05);
  });

  it("writes the arm figure with every arm and agent named in full", () => {
    const files = out.writeReport(dir);
    expect(files).toContain("shop-arm-price-equivalents.svg");
    const svg = readFileSync(path.join(dir, "shop-arm-price-equivalents.svg"), "utf8");
    expect(svg).toMatch(/^<svg/);
    for (const label of [
      "social-proof",
      "loss-aversion",
      "injection-strong",
      "false-claim",
      "openai:gpt-4o-mini-2024-07-18",
      "sim:persuadable",
      "untestable",
    ])
      expect(svg, label).toContain(label);
    expect(readFileSync(path.join(dir, "shop-report.md"), "utf8")).toContain(
      "![Price-equivalents of the description arms",
    );
  });
});

describe("no descriptions, or not enough: untestable, with why", () => {
  it("a run whose listings are all neutral says so in the tables, adds nothing to the headline", async () => {
    const records = simulateArms({ tasks: 60, seed: "cli-neutral", armRate: 0 }, PERSUADABLE);
    // As records stored before descriptions: no description fields at all.
    const old = records.map((r) => ({
      ...r,
      shown: r.shown.map(({ description: _d, arm: _a, wording: _w, claims: _c, ...s }) => s),
    }));
    const out = await shopAnalyzer.analyze(input(old));
    expect(out.text).toMatch(
      /^sim:persuadable +untestable: every listing shown had a neutral description \(a run without --descriptions battery, or records stored before descriptions\)$/m,
    );
    expect(out.headline.lines.join("\n")).not.toMatch(/descriptions/);
    expect((out.json as { descriptionsVary: boolean }).descriptionsVary).toBe(false);
  });

  it("an arm in too few choice sets, and an arm never booked, are untestable with the reason; the rest are priced", () => {
    // false-claim is drawn rarely (1 listing in ~100 here) and injection-strong is never booked.
    const buyer = { ...PERSUADABLE, beta: { ...PERSUADABLE_BETA, injectionStrong: -40 } };
    const records = [
      ...simulateArms({ tasks: 500, seed: "cli-rare", arms: ["authority", "injection-strong"] }, buyer),
      ...simulateArms({ tasks: 12, seed: "cli-rare-fc", arms: ["false-claim"], armRate: 0.1 }, buyer),
    ];
    const a = analyzeShop(shopEpisodesFromRecords(records), { draws: 0 }).agents[0]!;
    if (a.descriptions.status !== "ok") throw new Error(a.descriptions.reason);
    const row = (arm: string) =>
      a.descriptions.status === "ok" && a.descriptions.armPriceEquivalents.find((r) => r.arm === arm)!;
    expect(row("authority")).toMatchObject({ status: "ok" });
    expect(row("injection-strong")).toMatchObject({
      status: "untestable",
      pe: null,
      reason: expect.stringMatching(
        /^never booked in the \d+ choice sets where it stood beside other admissible listings: the price-equivalent is unbounded below$/,
      ),
    });
    expect(row("false-claim")).toMatchObject({
      status: "untestable",
      reason: expect.stringMatching(
        /^differs among the admissible listings of only \d booked choice sets \(fewer than 10; \d+ shown, \d+ admissible\)$/,
      ),
    });
    expect(row("urgency")).toMatchObject({ status: "untestable", reason: "no urgency listing was shown" });
    // The separated arm is out of the fit, not a reason for the fit to fail.
    expect(a.logit.status).toBe("ok");
    expect(a.logit.separated).toEqual({ injectionStrong: "never-booked" });
  });
});
