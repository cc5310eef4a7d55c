/**
 * The negotiation analysis as tables (terminal and markdown alike): deals per pair and per buyer
 * (with an LLM narrator's template fallbacks), normalized profits per pair, sellers played against
 * each other, the paired comparisons, and the risk flags.
 */
import { fallbackText } from "../bargain/narrator.ts";
import { dollars, fixed, percent } from "../report/format.ts";
import type { Interval } from "../stats/index.ts";
import { type ShopTable, shareCell } from "./cells.ts";
import type { NegotiationAnalysis } from "./negotiation.ts";
import { FEW_TASKS, type PairedDifference } from "./negotiation-paired.ts";
import type { MeanEstimate } from "./negotiation-stats.ts";

/** "12.3% [8.1, 16.5]" for a mean share with its task-clustered interval. */
export function meanPercentCell(m: MeanEstimate): string {
  if (m.estimate === null) return "–";
  if (m.low === null || m.high === null) return `${percent(m.estimate)} (n=${m.n})`;
  return `${percent(m.estimate)} [${(100 * m.low).toFixed(1)}, ${(100 * m.high).toFixed(1)}]`;
}

/** "0.42 [0.31, 0.53]" for a mean with its task-clustered interval. */
export function meanCell(m: MeanEstimate, digits = 2): string {
  if (m.estimate === null) return "–";
  if (m.low === null || m.high === null) return `${fixed(m.estimate, digits)} (n=${m.n})`;
  return `${fixed(m.estimate, digits)} [${fixed(m.low, digits)}, ${fixed(m.high, digits)}]`;
}

const signed = (x: number, f: (x: number) => string) => (x > 0 ? `+${f(x)}` : f(x));

/** "−$12.40 [−$20.10, −$4.70]" (or in normalized units) for a paired difference. */
export function differenceCell(d: PairedDifference, money: boolean): string {
  if (d.difference === null) return "–";
  const f = (x: number) => (money ? dollars(x) : fixed(x));
  const iv = (i: Interval | null) => (i ? ` [${signed(i.low, f)}, ${signed(i.high, f)}]` : "");
  return `${signed(d.difference, f)}${iv(d.interval)}`;
}

export function dealsByPairTable(n: NegotiationAnalysis): ShopTable {
  return {
    title: `Negotiations per buyer × seller: deal rate and discount on deals against the list price (task-clustered ${Math.round(100 * n.level)}% intervals)`,
    header: [
      "buyer",
      "seller",
      "negotiations",
      "deals",
      "deal rate",
      "discount (deals)",
      "deals booked",
      "offers / negotiation",
      "ended by seller",
      "seller unreadable",
    ],
    rows: n.pairs.map((p) => [
      p.buyer,
      p.seller,
      String(p.negotiations),
      String(p.deals),
      shareCell(p.dealRate),
      meanPercentCell(p.discount),
      String(p.dealsBooked),
      fixed(p.meanBuyerOffers, 1),
      String(p.closedBySeller),
      String(p.sellerInvalid),
    ]),
    note: "discount = (list − agreed)/list; a deal counts where it was agreed, booked or not; seller unreadable = answers read as rejections.",
  };
}

/** Whether some buyer has an LLM narrator: only then do the tables get a narrator column. */
export function hasNarratedOffers(n: NegotiationAnalysis): boolean {
  return n.buyers.some((b) => b.narratedOffers !== null);
}

/** "12 of 12 offers (100.0%)" for a buyer with an LLM narrator; "" for one without. */
export function narratorFallbackCell(b: NegotiationAnalysis["buyers"][number]): string {
  return b.narratedOffers === null
    ? ""
    : fallbackText({ turns: b.narratedOffers, fallbacks: b.narratorFallbacks ?? 0 }, "offers");
}

export function dealsByBuyerTable(n: NegotiationAnalysis): ShopTable {
  // Only runs with an LLM narrator get the column: the template narrator never falls back.
  const narrated = hasNarratedOffers(n);
  return {
    title:
      "Negotiations per buyer (all sellers): deal rate, discount on deals, and what bookings paid against the list price",
    header: [
      "buyer",
      "episodes",
      "negotiated",
      "negotiations",
      "deal rate",
      "discount (deals)",
      "bookings",
      "at an agreed price",
      "paid vs list (bookings)",
      ...(narrated ? ["narrator fallbacks"] : []),
    ],
    rows: n.buyers.map((b) => [
      b.buyer,
      String(b.episodes),
      shareCell(b.negotiated),
      String(b.negotiations),
      shareCell(b.dealRate),
      meanPercentCell(b.discount),
      String(b.bookings),
      String(b.bookedAtDeal),
      meanPercentCell(b.paidDiscount),
      ...(narrated ? [narratorFallbackCell(b)] : []),
    ]),
    note:
      "negotiated = episodes with at least one offer; paid vs list = (list − paid)/list over bookings, a booking without a deal counting 0." +
      (narrated
        ? " narrator fallbacks: the LLM narrator's offers said with the template line (no usable sentence in its answers)." +
          n.notes.map((x) => ` ${x}`).join("")
        : ""),
  };
}

export function profitsTable(n: NegotiationAnalysis): ShopTable {
  const excluded =
    n.uncapped.negotiations > 0
      ? ` ${n.uncapped.negotiations} negotiations (${n.uncapped.deals} deals) on requests without a price cap have no budget B and are left out of this table.`
      : "";
  return {
    title:
      "Normalized profits per buyer × seller (the bargaining paper's definitions with B = the request's cap, C = the seller's cost; mean over deals, task-clustered intervals)",
    header: [
      "buyer",
      "seller",
      "capped",
      "MI / CI",
      "deals",
      "buyer P′",
      "seller P′",
      "buyer SNP",
      "seller SNP",
      "no cap (left out)",
    ],
    rows: n.pairs.map((p) => {
      const f = p.profits;
      return [
        p.buyer,
        p.seller,
        String(f.capped),
        `${f.paper.MI.sessions} / ${f.paper.CI.sessions}`,
        String(f.paper.ALL.deals),
        meanCell(f.buyer),
        meanCell(f.seller),
        fixed(f.paper.ALL.buyer.snp),
        fixed(f.paper.ALL.seller.snp),
        String(f.uncapped.negotiations),
      ];
    }),
    note: `P′_b = (B − D)/|B − C|, P′_s = (D − C)/|B − C| for a deal at D (B moved to C ± $1 when |B − C| < $1); SNP = their sum over deals; MI: C ≤ B, CI: C > B (per MI / CI in --json).${excluded}`,
  };
}

export function quotesTable(n: NegotiationAnalysis): ShopTable {
  return {
    title:
      "Sellers played against each other: buyer offers whose message quotes a price the buyer saw from another listing (its list price or its seller's counter)",
    header: [
      "buyer",
      "offers",
      "with a $ amount",
      "quoting another seller",
      "list / counter",
      "episodes with one",
    ],
    rows: n.quotes.map((q) => [
      q.buyer,
      String(q.offers),
      String(q.withAmount),
      shareCell(q.quoteRate),
      `${q.bySource.list} / ${q.bySource.counter}`,
      shareCell(q.episodes),
    ]),
    note: "a quote: a dollar amount in the message equal (within $0.01) to a price seen in an earlier message's results from another listing, and not this pair's own number (the offer, the list price, an earlier price of this pair, the cap).",
  };
}

export function comparisonsTable(n: NegotiationAnalysis): ShopTable | null {
  if (n.comparisons.length === 0) return null;
  const boot =
    n.draws > 0
      ? `task-bootstrap ${Math.round(100 * n.level)}% intervals, ${n.draws} draws`
      : "no intervals (--bootstrap 0)";
  return {
    title: `Buyers compared on the same tasks and replicates (first minus second; ${boot})`,
    header: [
      "buyer",
      "vs",
      "units",
      "both booked",
      "mean paid",
      "difference",
      "both P′ defined",
      "buyer P′ of booking",
      "difference",
    ],
    rows: n.comparisons.map((c) => [
      c.treatment,
      c.control,
      String(c.units),
      String(c.paid.units),
      c.paid.treatment === null ? "–" : `${dollars(c.paid.treatment)} vs ${dollars(c.paid.control)}`,
      differenceCell(c.paid, true),
      String(c.buyerNormalized.units),
      c.buyerNormalized.treatment === null
        ? "–"
        : `${fixed(c.buyerNormalized.treatment)} vs ${fixed(c.buyerNormalized.control)}`,
      differenceCell(c.buyerNormalized, false),
    ]),
    note:
      "units: task × replicate played by both; price paid over units where both booked; buyer P′ of the booking = (B − paid)/|B − C| where both booked a listing that takes offers under a cap." +
      (n.draws > 0 && n.comparisons.some((c) => c.paid.tasks > 1 && c.paid.tasks < FEW_TASKS)
        ? ` With fewer than ${FEW_TASKS} tasks a bootstrap interval holds the truth a little less often than its level (93.5–94.4% for a 95% interval at 15 tasks, in the coverage study).`
        : ""),
  };
}

export function risksTable(n: NegotiationAnalysis): ShopTable {
  // Only in runs whose pairs had a turn limit (--offer-rounds) and reached it.
  const limited = n.risks.some((r) => r.atTurnLimit > 0);
  return {
    title: "Risk flags per buyer (task-clustered intervals)",
    header: [
      "buyer",
      "deals over cap",
      "episodes overpaying",
      "paid over cap (bookings)",
      "bookings breaking a constraint",
      "offers over list",
      "episodes offering over list",
      "deadlock",
      ...(limited ? ["out of offer rounds"] : []),
    ],
    rows: n.risks.map((r) => [
      r.buyer,
      `${r.dealsOverCap} of ${r.cappedDeals}`,
      shareCell(r.overpayment),
      shareCell(r.paidOverCap),
      shareCell(r.constraintBreak),
      `${r.offersOverList} of ${r.offers}`,
      shareCell(r.overList),
      shareCell(r.deadlock),
      ...(limited ? [`${r.atTurnLimit} of ${r.negotiations}`] : []),
    ]),
    note:
      "overpaying: an agreed price above the request's cap; a constraint is judged as in the shop's violations, the cap at the price paid; an offer over list: a bid above the listing's list price, which it could have booked at without haggling; deadlock: out of steps with a negotiation open" +
      (limited
        ? "; out of offer rounds: negotiations whose seller answered --offer-rounds offers without a deal (not a deadlock: they ended at their turn limit)."
        : ".") +
      (n.risks.some((r) => r.underCapByDeal > 0)
        ? ` Booked over the cap at the list price but within it at the agreed price (a violation in the shop's own table): ${n.risks
            .filter((r) => r.underCapByDeal > 0)
            .map((r) => `${r.buyer} ${r.underCapByDeal}`)
            .join(", ")}.`
        : ""),
  };
}

export function negotiationTables(n: NegotiationAnalysis): ShopTable[] {
  const compared = comparisonsTable(n);
  return [
    dealsByPairTable(n),
    dealsByBuyerTable(n),
    profitsTable(n),
    quotesTable(n),
    ...(compared ? [compared] : []),
    risksTable(n),
  ];
}
