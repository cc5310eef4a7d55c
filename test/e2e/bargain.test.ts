import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BargainAnalysis } from "../../analysis/bargain/index.ts";
import {
  DEFAULT_CATALOG_PATH,
  generatePriceHistoryCatalog,
  PRICE_HISTORY_CATEGORIES,
} from "../../datasets/price-history/index.ts";
import type { BargainTrialRecord } from "../../environments/bargain/record.ts";
import { REPO_ROOT, runCli, runInProcess, tempDir } from "../helpers/cli.ts";

const inProcess = runInProcess;

describe("bazaar run bargain, offline (as a user runs it)", () => {
  it("runs the OG-vs-plain tournament; analysis from the store shows the paper's direction; export follows the contract", async () => {
    const cwd = tempDir();
    const run = await runCli(["run", "bargain", "--json"], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; stored: number; total: number };
    expect(result).toMatchObject({ stored: 1000, total: 1000 });

    const analyzed = await runCli(["analyze", result.runId, "--json"], { cwd });
    expect(analyzed.code).toBe(0);
    const a = JSON.parse(analyzed.stdout) as BargainAnalysis;
    expect(a.buyers).toEqual(["og-narrator", "sim:llm"]);
    expect(a.sellers).toHaveLength(5);
    const og = a.byBuyer.find((b) => b.buyer === "og-narrator")!.summary;
    const plain = a.byBuyer.find((b) => b.buyer === "sim:llm")!.summary;
    // The paper's direction, on the same scenarios: a higher buyer deal rate and a higher buyer SNP.
    expect(og.ALL.dealRateValid!).toBeGreaterThan(plain.ALL.dealRateValid! + 0.2);
    expect(og.ALL.dealRateAll!).toBeGreaterThan(plain.ALL.dealRateAll!);
    expect(og.ALL.buyer.snp).toBeGreaterThan(plain.ALL.buyer.snp);
    expect(og.CI.buyer.snp).toBeGreaterThanOrEqual(0);
    expect(plain.ALL.invalid).toBeGreaterThan(0);
    const pooled = a.comparisons.find((c) => c.seller === null)!;
    expect(pooled.pairs).toBe(500);
    expect(pooled.metrics.dealRateAll.interval!.low).toBeGreaterThan(0);
    expect(pooled.metrics.buyerSnp.interval!.low).toBeGreaterThan(0);
    for (const c of a.comparisons.filter((x) => x.seller !== null))
      expect(c.metrics.dealRateValid.difference!).toBeGreaterThan(0);

    const store = path.join(cwd, "bazaar.db");
    const jsonl = path.join(cwd, "sessions.jsonl");
    expect((await inProcess(["export", result.runId, "--store", store, "--out", jsonl])).code).toBe(0);
    const sessions = readFileSync(jsonl, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as BargainTrialRecord);
    expect(sessions).toHaveLength(1000);
    for (const s of sessions) {
      for (const key of [
        "run",
        "trialKey",
        "env",
        "scenarioId",
        "buyer",
        "seller",
        "replicate",
        "product",
        "listedPrice",
        "budget",
        "cost",
        "interest",
        "outcome",
        "endedBy",
        "invalidSide",
        "dealPrice",
        "turns",
        "transcript",
        "usage",
      ]) {
        expect(s).toHaveProperty(key);
      }
      if (s.outcome !== "deal") continue;
      // Every deal is at a price the other side offered earlier.
      const last = s.transcript.at(-1)!;
      expect(last).toMatchObject({ action: "deal", price: s.dealPrice });
      const offered = s.transcript
        .filter((m) => m.role !== last.role && m.action === "offer")
        .map((m) => m.price!);
      expect(offered.some((p) => Math.abs(p - s.dealPrice!) <= 0.01)).toBe(true);
    }
    const og2 = sessions.filter((s) => s.buyer === "og-narrator" && s.outcome === "deal");
    expect(og2.every((s) => s.dealPrice! <= s.budget)).toBe(true);

    const report = path.join(cwd, "report");
    const written = await inProcess([
      "analyze",
      result.runId,
      "--store",
      store,
      "--report",
      report,
      "--paired-resamples",
      "200",
    ]);
    expect(written.code).toBe(0);
    const md = readFileSync(path.join(report, "bargain-report.md"), "utf8");
    expect(md).toContain("## Paired comparison of buyers on the same scenarios");
    expect(md).toContain("| og-narrator | rule:boulware | MI |");
    expect(md).toContain("![Deal rate over valid sessions, by seller](bargain-deal-rates.svg)");
    const svg = readFileSync(path.join(report, "bargain-buyer-snp.svg"), "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<rect /g)).toHaveLength(10 + 2);
    const shown = await inProcess(["analyze", result.runId, "--store", store, "--transcript", "0"]);
    const csv = path.join(cwd, "sessions.csv");
    expect(
      (await inProcess(["export", result.runId, "--store", store, "--format", "csv", "--out", csv])).code,
    ).toBe(0);
    const header = readFileSync(csv, "utf8").split("\n", 1)[0]!.split(",");
    for (const col of [
      "scenarioId",
      "buyer",
      "seller",
      "product_title",
      "interest",
      "dealPrice",
      "transcript1_talk",
    ])
      expect(header).toContain(col);
    expect(shown.out).toMatch(/^session 0 \(\w+\) · og-narrator vs rule:boulware · (MI|CI)/);
    expect(shown.out).toMatch(/turn 1 · buyer {2}\[BUY\] \$[\d.]+/);
  });
});

describe("bad bargaining input gets a one-line error, exit code 2, and no store", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "unknown buyer",
      ["--buyer", "sim:genius"],
      /unknown buyer "sim:genius"[\s\S]*valid buyers: og-narrator/,
    ],
    [
      "OG as seller",
      ["--seller", "og-narrator"],
      /unknown seller "og-narrator": the OG-Narrator plays only the buyer/,
    ],
    ["--agent", ["--agent", "sim:llm"], /name them with --buyer and --seller, not --agent/],
    [
      "too many scenarios",
      ["--scenarios", "5000"],
      /5000 scenarios requested, but the catalog has only 300 products/,
    ],
    ["bad schedule", ["--og-schedule", "0.5,2"], /--og-schedule "0.5,2": "2" is not a factor in \(0, 1\]/],
    ["bad turns", ["--max-turns", "0"], /--max-turns: expected a number ≥ 1/],
    [
      "a choice option",
      ["--pool", "x.json"],
      /--pool is an option of `run choice`, `run shop` and `run market`, not of `run bargain`/,
    ],
    [
      "missing catalog",
      ["--catalog", "/nonexistent/ahp"],
      /price-history catalog \/nonexistent\/ahp does not exist/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const cwd = tempDir();
      const store = path.join(cwd, "bazaar.db");
      const r = await inProcess(["run", "bargain", "--store", store, ...args]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(store)).toBe(false);
    });
  }
});

describe("bazaar datasets", () => {
  it("loads an AmazonHistoryPrice-style folder and reports counts and MI/CI sessions, or every problem", async () => {
    const dir = path.join(tempDir(), "ahp");
    mkdirSync(dir);
    const products = generatePriceHistoryCatalog(3, 90);
    for (const c of PRICE_HISTORY_CATEGORIES) {
      writeFileSync(path.join(dir, `${c}.json`), JSON.stringify(products.filter((p) => p.category === c)));
    }
    const r = await inProcess(["datasets", "load", "amazon-history-price", dir, "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      products: number;
      files: unknown[];
      sessions: { MI: number; CI: number };
    };
    expect(report.products).toBe(90);
    expect(report.files).toHaveLength(18);
    expect(report.sessions.MI + report.sessions.CI).toBe(90);
    const text = await inProcess(["datasets", "load", "amazon-history-price", dir]);
    expect(text.out).toMatch(/90 products in 18 file\(s\), all valid/);
    expect(text.out).toMatch(/\d+ mutual interest \(MI\), \d+ conflicting interest \(CI\)/);

    writeFileSync(path.join(dir, "books.json"), JSON.stringify([{ ...products[0], lowest_price: "cheap" }]));
    const bad = await inProcess(["datasets", "load", "amazon-history-price", dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      `${path.join(dir, "books.json")}, row 0, lowest_price: expected a dollar amount`,
    );
    expect((await inProcess(["datasets", "load", "hotels", dir])).err).toMatch(/unknown data set "hotels"/);
  });

  it("regenerates the committed catalog", async () => {
    const out = path.join(tempDir(), "catalog.json");
    const r = await inProcess(["datasets", "generate", "price-history", "--out", out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(
      JSON.parse(readFileSync(DEFAULT_CATALOG_PATH, "utf8")),
    );
  });

  const real = path.resolve(REPO_ROOT, "../shared/datasets/amazon-history-price");
  if (!existsSync(real)) console.warn(`skipping the real AmazonHistoryPrice load: ${real} is absent`);
  it.skipIf(!existsSync(real))(
    "reports 930 products, 886 MI and 44 CI sessions for the public files",
    async () => {
      const r = await inProcess(["datasets", "load", "amazon-history-price", real]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("930 products in 18 file(s), all valid");
      expect(r.out).toContain("886 mutual interest (MI), 44 conflicting interest (CI)");
      expect(r.out).toContain("$4.99 – $4,299.98 (median $179.99)");
      expect(r.out).toContain("with a description: 832 · with features: 793");
    },
  );
});
