import type { BargainAnalysis } from "./analyze.ts";
import { fallbackText } from "./narrator.ts";
import { PAIRED_METRICS, type PairedMetric } from "./paired.ts";
import { INVALID_CAUSES } from "./session.ts";
import { type ByInterest, GROUPS, type GroupSummary } from "./summary.ts";

/** A table as text and markdown reports both render it. */
export interface Table {
  title: string;
  note?: string;
  header: string[];
  rows: string[][];
}

const dash = "–";
export function pct(x: number | null): string {
  return x === null ? dash : `${(100 * x).toFixed(1)}%`;
}
/** Dollars and cents; a negative that rounds to nothing is "$0.00", never "-$0.00". */
export function usd(x: number | null): string {
  if (x === null) return dash;
  const s = Math.abs(x).toFixed(2);
  return `${x < 0 && /[1-9]/.test(s) ? "-" : ""}$${s}`;
}
export function num(x: number | null, digits = 3): string {
  return x === null ? dash : x.toFixed(digits);
}

function rateCells(g: GroupSummary): string[] {
  return [
    String(g.sessions),
    String(g.valid),
    String(g.deals),
    pct(g.dealRateValid),
    pct(g.dealRateAll),
    g.turnsToDeal ? g.turnsToDeal.mean.toFixed(2) : dash,
  ];
}

function profitCells(g: GroupSummary): string[] {
  return [
    usd(g.buyer.sum),
    usd(g.buyer.mean),
    num(g.buyer.meanNormalized),
    num(g.buyer.snp, 2),
    usd(g.seller.sum),
    usd(g.seller.mean),
    num(g.seller.meanNormalized),
    num(g.seller.snp, 2),
  ];
}

function narratorCell(g: GroupSummary): string {
  return g.narrator ? fallbackText(g.narrator) : dash;
}

const RATE_HEADER = ["sessions", "valid", "deals", "deal rate (valid)", "deal rate (all)", "turns to deal"];
const PROFIT_HEADER = [
  "buyer ΣP",
  "buyer mean P",
  "buyer mean P′",
  "buyer SNP",
  "seller ΣP",
  "seller mean P",
  "seller mean P′",
  "seller SNP",
];

function byGroup(keys: string[], summary: ByInterest, cells: (g: GroupSummary) => string[]): string[][] {
  return GROUPS.map((group) => [...keys, group, ...cells(summary[group])]);
}

const METRIC_LABEL: Record<PairedMetric, string> = {
  dealRateAll: "deal rate (all sessions)",
  dealRateValid: "deal rate (valid sessions)",
  buyerSnp: "buyer SNP",
  buyerProfit: "buyer ΣP",
  meanBuyerNormalized: "buyer mean P′ per deal",
};

function metricValue(metric: PairedMetric, x: number | null): string {
  if (metric === "dealRateAll" || metric === "dealRateValid") return pct(x);
  if (metric === "buyerProfit") return usd(x);
  return num(x, metric === "buyerSnp" ? 2 : 3);
}

function cross(a: BargainAnalysis, title: string, cell: (g: GroupSummary) => string): Table {
  return {
    title,
    header: ["buyer \\ seller", ...a.sellers],
    rows: a.buyers.map((buyer) => [
      buyer,
      ...a.sellers.map((seller) => {
        const p = a.pairings.find((x) => x.buyer === buyer && x.seller === seller);
        return p ? cell(p.summary.ALL) : dash;
      }),
    ]),
  };
}

/** Every table of a bargaining analysis, in the order `bazaar analyze` prints them. */
export function bargainTables(a: BargainAnalysis): Table[] {
  const rateNote =
    "deal rate (valid) divides deals by valid sessions (the reference's MI/CI convention); deal rate (all) by all sessions, invalid included (its ALL convention).";
  const profitNote =
    "P_b = B − D, P_s = D − C; P′ divides by |B − C| after the small-gap rule (|B − C| < $1 ⇒ B := C ± 1); SNP = Σ P′ over deals. No-deal sessions add 0.";
  // Only runs with an LLM narrator get the column: the template narrator never falls back.
  const narrated = a.byBuyer.some((b) => b.narratorTurns !== null);
  const narratorHeader = narrated ? ["narrator fallbacks"] : [];
  const narratorNote = narrated
    ? " narrator fallbacks: the LLM narrator's turns that used the template line (no usable sentence in its answers)."
    : "";
  const withNarrator = (cells: (g: GroupSummary) => string[]) => (g: GroupSummary) =>
    narrated ? [...cells(g), narratorCell(g)] : cells(g);
  const tables: Table[] = [
    {
      title: "Deal rates per pairing",
      note: rateNote + narratorNote,
      header: ["buyer", "seller", "group", ...RATE_HEADER, ...narratorHeader],
      rows: a.pairings.flatMap((p) => byGroup([p.buyer, p.seller], p.summary, withNarrator(rateCells))),
    },
    {
      title: "Profits per pairing",
      note: profitNote,
      header: ["buyer", "seller", "group", ...PROFIT_HEADER],
      rows: a.pairings.flatMap((p) => byGroup([p.buyer, p.seller], p.summary, profitCells)),
    },
    {
      title: "Per buyer, all sellers pooled",
      header: ["buyer", "group", ...RATE_HEADER, "buyer mean P′", "buyer SNP", ...narratorHeader],
      rows: a.byBuyer.flatMap((b) =>
        byGroup(
          [b.buyer],
          b.summary,
          withNarrator((g) => [...rateCells(g), num(g.buyer.meanNormalized), num(g.buyer.snp, 2)]),
        ),
      ),
    },
    {
      title: "Invalid sessions by cause",
      header: ["buyer", "seller", "invalid", ...INVALID_CAUSES],
      rows: a.pairings.map((p) => [
        p.buyer,
        p.seller,
        String(p.summary.ALL.invalid),
        ...INVALID_CAUSES.map((c) => String(p.summary.ALL.invalidByCause[c])),
      ]),
    },
  ];
  if (a.comparisons.length > 0) {
    const first = a.comparisons[0]!;
    tables.push({
      title: "Paired comparison of buyers on the same scenarios",
      note: `difference = first − second buyer; ${Math.round(first.level * 100)}% percentile bootstrap intervals over scenarios (${first.resamples} resamples)${a.comparisons.some((c) => c.intervalNote) ? "; none from a single scenario (resampling it gives a zero-width interval)" : ""}.`,
      header: ["buyers", "seller", "pairs", "metric", "first", "second", "difference", "interval"],
      rows: a.comparisons.flatMap((c) =>
        PAIRED_METRICS.map((m) => {
          const v = c.metrics[m];
          return [
            `${c.treatment} − ${c.control}`,
            c.seller ?? "all sellers",
            String(c.pairs),
            METRIC_LABEL[m],
            metricValue(m, v.treatment),
            metricValue(m, v.control),
            metricValue(m, v.difference),
            v.interval ? `[${metricValue(m, v.interval.low)}, ${metricValue(m, v.interval.high)}]` : dash,
          ];
        }),
      ),
    });
  }
  tables.push(
    cross(a, "Buyer × seller: deal rate (valid sessions)", (g) => pct(g.dealRateValid)),
    cross(a, "Buyer × seller: buyer SNP", (g) => num(g.buyer.snp, 2)),
    cross(a, "Buyer × seller: seller SNP", (g) => num(g.seller.snp, 2)),
  );
  return tables;
}
