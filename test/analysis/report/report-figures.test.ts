/**
 * Every figure of every environment's `--report` reads at a glance (figure-check.ts): small runs in
 * this process (choice, cue, bargain, elicit, shop with clients, offers and descriptions, a market),
 * their agents renamed in the records to the long specs real runs have ("openai:sim-shop-asks-first
 * for openai:sim-client-faulty"), analysed by each environment's own analyzer with `--report`, and
 * every SVG it writes checked: no label cut, no fractional tick on a count or position axis, every
 * long name shown whole somewhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSvg } from "../../../analysis/report/svg.ts";
import { ANALYZERS } from "../../../cli/analyzers/index.ts";
import { planBargain } from "../../../cli/run/bargain-plan.ts";
import { planChoice } from "../../../cli/run/choice-plan.ts";
import { planCue } from "../../../cli/run/cue-plan.ts";
import { planElicit } from "../../../cli/run/elicit-plan.ts";
import { planMarket } from "../../../cli/run/market-plan.ts";
import { planShop } from "../../../cli/run/shop-plan.ts";
import type { Planner } from "../../../cli/run/types.ts";
import { runMarket } from "../../../environments/market/driver.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { requireRun, trialRecords } from "../../../environments/runner/records.ts";
import { Store } from "../../../environments/store/index.ts";
import { marketSummary } from "../../../environments/store/markets.ts";
import { tempDir } from "../../helpers/cli.ts";
import { figureProblems, svgAxes, svgTexts } from "./figure-check.ts";

/** The long specs real runs carry, for the sims' short ones. */
const LONG: Record<string, string> = {
  "sim:steep": "openai:meta-llama/Llama-3.3-70B-Instruct-Turbo",
  "sim:budget": "openai:qwen3-30b-a3b-instruct-2507-q4_K_M",
  "sim:paper": "openai:gpt-4o-mini-2024-07-18 (temperature 1)",
  "sim:anchored": "openai:sim-bargain-anchored-narrator",
  "og-narrator": "og-narrator:openai:gpt-4o-mini-2024-07-18",
  "rule:linear": "openai:sim-bargain-boulware-with-a-long-name",
  "sim:consistent": "openai:sim-elicit-consistent-varied",
  "sim:drifting": "openai:sim-elicit-drifting-on-long-paths",
  "sim:asks-first": "openai:sim-shop-asks-first",
  "sim:seller-playing-haggler": "openai:sim-shop-seller-playing-haggler",
  "sim:terse": "openai:sim-client-faulty",
  "sim:complete": "openai:sim-client-complete-and-chatty",
};
const SHORT = Object.keys(LONG).sort((a, b) => b.length - a.length);

function lengthen(text: string): string {
  // One pass over the short names, longest first, so "sim:terse" inside a label is replaced once.
  const pattern = new RegExp(SHORT.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return text.replace(pattern, (m) => LONG[m]!);
}

/** A record with its players' names lengthened where the analyses read them. */
function renamed(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...r };
  for (const field of ["agent", "buyer", "seller", "shopper"])
    if (typeof out[field] === "string") out[field] = lengthen(out[field] as string);
  const client = out.client as { spec?: unknown } | undefined;
  if (client && typeof client.spec === "string") out.client = { ...client, spec: lengthen(client.spec) };
  return out;
}

interface Report {
  env: string;
  files: string[];
  svgs: Map<string, string>;
}

const store = Store.open(path.join(tempDir("bazaar-figures-"), "bazaar.db"), { create: true });
afterAll(() => store.close());

/** A run planned as `bazaar run <env>` plans it (its planner, commander's string values), played here. */
async function run(planner: Planner, options: Record<string, string | undefined>): Promise<string> {
  const plan = planner({ seed: "7", replicates: "1", maxReasks: "0", ...options }, { settings: {} });
  const result = await executeRun(plan, store, { concurrency: 16 });
  expect(result.failed).toBe(0);
  return plan.runId;
}

async function report(runId: string, options: Record<string, unknown> = {}): Promise<Report> {
  // A market is no run of its own: its rounds' runs, summed (as `bazaar analyze` reads it).
  const summary = store.getRun(runId) ?? marketSummary(store, runId) ?? requireRun(store, runId);
  const env = summary.env;
  const analyzer = await ANALYZERS.find((a) => a.env === env)!.load();
  const dir = tempDir("bazaar-figures-report-");
  // The run's own names too (a shop run's seller negotiators), as a run with long specs has them.
  const config = JSON.parse(lengthen(JSON.stringify(summary.config ?? {}))) as Record<string, unknown>;
  const out = await analyzer.analyze({
    run: { ...summary, config },
    store,
    records: () => (env === "market" ? [] : [...trialRecords(store, runId)].map(renamed)),
    options: { report: dir, ...options },
  });
  const files = out.writeReport(dir);
  const svgs = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith(".svg"))
      .map((f) => [f, readFileSync(path.join(dir, f), "utf8")]),
  );
  return { env, files, svgs };
}

const reports = new Map<string, Report>();
const times: string[] = [];

async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t = Date.now();
  const out = await f();
  times.push(`${label} ${Date.now() - t}`);
  return out;
}

beforeAll(async () => {
  const choice = await timed("run choice", () =>
    run(planChoice, { agent: "sim:steep,sim:budget", pairs: "150", triples: "0", fives: "0" }),
  );
  reports.set("choice", await timed("report choice", () => report(choice, { bootstrap: "0" })));
  const cue = await timed("run cue", () =>
    run(planCue, {
      agent: "sim:paper",
      categories: "headphones",
      conditions: "authority",
      blocks: "main,additivity",
      nPerCell: "4",
      grid: "0,6,12,26",
      additivityGrid: "0,26",
    }),
  );
  reports.set("cue", await timed("report cue", () => report(cue)));
  const bargain = await timed("run bargain", () =>
    run(planBargain, { buyer: "og-narrator,sim:anchored", seller: "rule:linear", scenarios: "3" }),
  );
  reports.set("bargain", await timed("report bargain", () => report(bargain)));
  const elicit = await timed("run elicit", () =>
    run(planElicit, {
      agent: "sim:consistent,sim:drifting",
      completions: "2",
      domains: "apartments",
      replicates: undefined,
    }),
  );
  reports.set("elicit", await timed("report elicit", () => report(elicit, { consistencyDraws: "20" })));
  const shop = await timed("run shop", () =>
    run(planShop, {
      agent: "sim:asks-first,sim:seller-playing-haggler",
      client: "sim:terse",
      negotiable: "0.5",
      sellerNegotiator: "rule:linear,sim:llm",
      descriptions: "battery",
      tasks: "24",
      replicates: "2",
    }),
  );
  reports.set("shop", await timed("report shop", () => report(shop, { bootstrap: "0" })));
  const market = planMarket(
    {
      seed: "7",
      sellers: "3",
      rounds: "2",
      buyersPerRound: "6",
      adopters: "0,1",
      markets: "1",
      seller: "sim:undercut",
    },
    { settings: {} },
  );
  await timed("run market", () => runMarket(market, store, { concurrency: 16 }));
  reports.set("market", await timed("report market", () => report(market.marketId)));
  console.log(times.join("\n"));
}, 120_000);

/** The figures each report must have: a figure that went missing fails here, not silently. */
const EXPECTED: Record<string, (file: string) => boolean> = {
  choice: (f) => ["decile-curves.svg", "price-quality-map.svg", "wtp-ranking.svg"].includes(f),
  cue: (f) => /^(curves|additivity)-.+-headphones\.svg$/.test(f),
  bargain: (f) => ["bargain-deal-rates.svg", "bargain-buyer-snp.svg"].includes(f),
  elicit: (f) => /^(groups|p1-residuals|p2-residuals)-openai-sim-elicit-.+\.svg$|^path-length\.svg$/.test(f),
  shop: (f) =>
    [
      "shop-rank-effect.svg",
      "shop-funnel.svg",
      "shop-pass-k.svg",
      "shop-price-equivalents.svg",
      "shop-arm-price-equivalents.svg",
      "shop-price-ladders.svg",
      "shop-discount.svg",
      "shop-client-regret.svg",
    ].includes(f),
  market: (f) => /^market-(k[01]-m1-(shares|prices)|adoption)\.svg$/.test(f),
};
const COUNTS: Record<string, number> = { choice: 3, cue: 2, bargain: 2, elicit: 7, shop: 8, market: 5 };

/** The long names each report must show whole, somewhere in its figures' text. */
const SHOWN: Record<string, string[]> = {
  choice: [LONG["sim:steep"]!, LONG["sim:budget"]!],
  cue: [LONG["sim:paper"]!],
  bargain: [LONG["og-narrator"]!, LONG["sim:anchored"]!, LONG["rule:linear"]!],
  elicit: [LONG["sim:consistent"]!, LONG["sim:drifting"]!],
  shop: [
    "openai:sim-shop-asks-first for openai:sim-client-faulty",
    "openai:sim-shop-seller-playing-haggler for openai:sim-client-faulty",
  ],
  market: [],
};

describe("every figure of every report reads at a glance, with long agent names", () => {
  for (const env of Object.keys(EXPECTED))
    it(`${env}: every figure there, none with a cut label or a fractional count tick, every name whole`, () => {
      const r = reports.get(env)!;
      const files = [...r.svgs.keys()];
      expect(
        files.filter((f) => !EXPECTED[env]!(f)),
        "unexpected figures",
      ).toEqual([]);
      expect(files).toHaveLength(COUNTS[env]!);
      const written = r.files.filter((f) => f.endsWith(".svg")).map((f) => path.basename(f));
      expect(written.sort()).toEqual(files.sort());
      for (const [file, svg] of r.svgs) expect(figureProblems(svg), file).toEqual([]);
      // A wrapped name is split into lines at spaces or after a separator: joined again, it reads whole.
      const lines = [...r.svgs.values()].flatMap(svgTexts);
      const rejoined = lines.reduce(
        (acc, l) => (acc === "" || /[:/\-_.]$/.test(acc) ? acc + l : `${acc} ${l}`),
        "",
      );
      const whole = (name: string) => lines.join(" ").includes(name) || rejoined.includes(name);
      for (const name of SHOWN[env]!) expect(whole(name), name).toBe(true);
    });

  it("the shop's rank-effect curve draws its intervals, on whole positions", () => {
    const svg = reports.get("shop")!.svgs.get("shop-rank-effect.svg")!;
    const bars = svg.match(/<line aria-label="position on the page: [^"]*; high: /g) ?? [];
    expect(bars.length).toBeGreaterThan(2);
    const x = svgAxes(svg).find((a) => a.title === "position on the page")!;
    expect(x.labels.length).toBeGreaterThan(2);
    for (const l of x.labels) expect(l).toMatch(/^\d+( and below)?$/);
  });
});

describe("the check itself", () => {
  it("finds a cut legend name and fractional ticks on a position axis, and passes the same figure fixed", async () => {
    const points = [1, 2, 3].map((x) => ({ series: LONG["sim:steep"]!, x, y: x * x }));
    const spec = (fixed: boolean) => ({
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      width: 300,
      height: 120,
      data: { values: points },
      mark: "line",
      encoding: {
        x: {
          field: "x",
          type: "quantitative",
          title: "position on the page",
          ...(fixed ? { axis: { tickMinStep: 1, format: "d" } } : {}),
        },
        y: { field: "y", type: "quantitative" },
        color: { field: "series", type: "nominal", ...(fixed ? { legend: { labelLimit: 0 } } : {}) },
      },
    });
    const broken = figureProblems(await renderSvg(spec(false)));
    expect(broken.some((p) => p.startsWith("cut text"))).toBe(true);
    expect(broken.some((p) => /^fractional tick "[12]\.[1-9]"/.test(p))).toBe(true);
    expect(figureProblems(await renderSvg(spec(true)))).toEqual([]);
  });
});
