import { writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_REFERENCE_PRICE } from "../../analysis/choice/wtp.ts";
import { dollars, percent } from "../../analysis/report/format.ts";
import { markdownDocument, markdownTable, renderSvg } from "../../analysis/report/index.ts";
import { armPeCell, followCell } from "../../analysis/shop/arms-tables.ts";
import {
  type ClientAnalysis,
  clientTables,
  episodes,
  leftOutNote,
  regretMessagesChart,
} from "../../analysis/shop/client/index.ts";
import {
  analyzeShop,
  type ShopAnalysis,
  shareCell,
  shopEpisodesFromRecords,
  shopFigures,
  shopTables,
} from "../../analysis/shop/index.ts";
import {
  hasNarratedOffers,
  meanPercentCell,
  narratorFallbackCell,
} from "../../analysis/shop/negotiation-tables.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { nonNegativeInt, parseOption } from "../options.ts";
import { renderTable } from "../table.ts";
import { DEFAULT_SHOP_DRAWS } from "./options.ts";
import { clientHeadline, clientSide } from "./shop-client.ts";
import type { AnalyzeInput, AnalyzeOutput, EnvironmentAnalyzer, Headline } from "./types.ts";

const positiveDollars = z.coerce.number({ error: "expected a number" }).positive("expected a price above 0");

/**
 * Per agent: task success with its interval, pass^k at the most trials every task has, correct
 * give-ups, the share of bookings that broke a constraint, calls per episode, and the dollar
 * equivalents of rank 1 and of the sponsored tag — what `bazaar run shop` ends with; with clients,
 * what working for them cost them (`clientHeadline`).
 */
export function shopHeadline(a: ShopAnalysis, clients: ClientAnalysis | null = null): Headline {
  const agents = a.agents.map((g) => {
    const top = g.passK.at(-1) ?? null;
    const pe = (name: string) => {
      const p = g.logit.status === "ok" ? g.logit.priceEquivalents.find((x) => x.name === name) : undefined;
      return p ? { dollars: p.dollars, low: p.low, high: p.high } : null;
    };
    const booked = g.outcomes.endReasons.booked;
    const violating = Object.values(g.outcomes.violations).reduce((s, v) => s + v.hits, 0);
    return {
      agent: g.agent,
      episodes: g.episodes,
      success: g.outcomes.success,
      passK: top ? { k: top.k, estimate: top.estimate, low: top.low, high: top.high } : null,
      correctGiveUp: g.outcomes.correctGiveUp.estimate,
      violationsPerBooking: booked > 0 ? violating / booked : null,
      meanCalls: g.behaviour.meanCalls,
      rank1: pe("rank1"),
      sponsored: pe("sponsored"),
    };
  });
  const money = (p: { dollars: number; low: number; high: number } | null) =>
    p ? `${dollars(p.dollars, false)} [${dollars(p.low, false)}, ${dollars(p.high, false)}]` : "–";
  const lines = [
    `shop, ${a.episodes.toLocaleString("en-US")} episodes (price-equivalents at ${dollars(a.referencePrice, false)} a night, 95% intervals${clients && clients.leftOut > 0 ? `; ${episodes(clients.leftOut)} left out by --client-faults ${clients.clientFaults}` : ""}):`,
    ...renderTable(
      [
        "agent",
        "episodes",
        "success",
        "pass^k",
        "correct give-up",
        "violations / booking",
        "calls",
        "rank 1 (vs 2)",
        "sponsored tag",
      ],
      agents.map((g) => [
        g.agent,
        String(g.episodes),
        shareCell(g.success),
        g.passK ? `k=${g.passK.k}: ${percent(g.passK.estimate)}` : "–",
        percent(g.correctGiveUp),
        g.violationsPerBooking === null ? "–" : g.violationsPerBooking.toFixed(2),
        g.meanCalls === null ? "–" : g.meanCalls.toFixed(1),
        money(g.rank1),
        money(g.sponsored),
      ]),
    ).split("\n"),
  ];
  const descriptions = descriptionHeadline(a);
  const negotiation = negotiationHeadline(a);
  const client = clients ? clientHeadline(clients) : null;
  return {
    lines: [
      ...lines,
      ...(client?.lines ?? []),
      ...(descriptions?.lines ?? []),
      ...(negotiation?.lines ?? []),
    ],
    json: {
      referencePrice: a.referencePrice,
      agents,
      ...(client ? { clients: client.json } : {}),
      ...(descriptions ? { descriptions: descriptions.json } : {}),
      ...(negotiation ? { negotiation: negotiation.json } : {}),
    },
  };
}

/**
 * With offers in the design: a line per buyer — its deal rate over its negotiations, the mean
 * discount of its deals and of what its bookings paid against the list price, and its deals above
 * the request's cap. A buyer with an LLM narrator also shows how many of its offers fell back to
 * the template line, and a sentence when most did (its numbers are then the template narrator's).
 */
function negotiationHeadline(a: ShopAnalysis): { lines: string[]; json: unknown } | null {
  const n = a.negotiation;
  if (!n) return null;
  const rows = n.buyers.map((b) => {
    const r = n.risks.find((x) => x.buyer === b.buyer)!;
    return {
      buyer: b.buyer,
      negotiations: b.negotiations,
      dealRate: { estimate: b.dealRate.estimate, low: b.dealRate.low, high: b.dealRate.high },
      discount: { estimate: b.discount.estimate, low: b.discount.low, high: b.discount.high },
      paidDiscount: { estimate: b.paidDiscount.estimate, low: b.paidDiscount.low, high: b.paidDiscount.high },
      overpayments: { dealsOverCap: r.dealsOverCap, cappedDeals: r.cappedDeals },
      deadlock: r.deadlock.estimate,
      narratedOffers: b.narratedOffers,
      narratorFallbacks: b.narratorFallbacks,
    };
  });
  // The column only where a buyer has an LLM narrator: a template narrator has nothing to fall back from.
  const narrated = hasNarratedOffers(n);
  const lines = [
    `negotiation (${n.negotiations} negotiations, ${n.deals} deals; sellers ${n.sellers.map((s) => (s.name === s.role ? s.role : `${s.role} ${s.name}`)).join(", ")}):`,
    ...renderTable(
      [
        "buyer",
        "negotiations",
        "deal rate",
        "discount (deals)",
        "paid vs list",
        "overpayments",
        "deadlock",
        ...(narrated ? ["narrator fallbacks"] : []),
      ],
      n.buyers.map((b, i) => [
        b.buyer,
        String(b.negotiations),
        shareCell(b.dealRate),
        meanPercentCell(b.discount),
        meanPercentCell(b.paidDiscount),
        `${rows[i]!.overpayments.dealsOverCap} of ${rows[i]!.overpayments.cappedDeals} deals over the cap`,
        percent(rows[i]!.deadlock),
        ...(narrated ? [narratorFallbackCell(b)] : []),
      ]),
    ).split("\n"),
    ...n.notes,
  ];
  return { lines, json: rows };
}

/**
 * Where descriptions varied: per agent, injection followed (the difference against neutral listings
 * at the same positions), false-claim uptake, and the price-equivalents of the two injecting arms.
 */
function descriptionHeadline(a: ShopAnalysis): { lines: string[]; json: unknown } | null {
  if (!a.descriptionsVary) return null;
  const rows = a.agents.map(
    (g): { agent: string; untestable?: string; cells?: string[]; [k: string]: unknown } => {
      const d = g.descriptions;
      if (d.status !== "ok") return { agent: g.agent, untestable: d.reason };
      const injection = d.injectionFollowed.find((f) => f.name === "injection")!;
      const arm = (name: string) => d.armPriceEquivalents.find((r) => r.arm === name);
      const pe = (name: string) => {
        const r = arm(name);
        return r?.pe
          ? { dollars: r.pe.dollars, low: r.pe.low, high: r.pe.high }
          : { untestable: r?.reason ?? "" };
      };
      return {
        agent: g.agent,
        injectionFollowed:
          injection.status === "ok"
            ? {
                difference: injection.difference,
                low: injection.differenceInterval?.low ?? null,
                high: injection.differenceInterval?.high ?? null,
                rate: injection.rate,
                neutralRate: injection.neutralRate,
              }
            : { untestable: injection.reason },
        falseClaimUptake:
          d.falseClaimUptake.status === "ok"
            ? {
                estimate: d.falseClaimUptake.uptake.estimate,
                low: d.falseClaimUptake.uptake.low,
                high: d.falseClaimUptake.uptake.high,
              }
            : { untestable: d.falseClaimUptake.reason },
        armPriceEquivalents: Object.fromEntries(d.armPriceEquivalents.map((r) => [r.arm, pe(r.arm)])),
        cells: [
          followCell(injection),
          d.falseClaimUptake.status === "ok" ? shareCell(d.falseClaimUptake.uptake) : "untestable",
          armPeCell(arm("injection-basic")),
          armPeCell(arm("injection-strong")),
        ],
      };
    },
  );
  const lines = [
    "descriptions (against neutral; injection followed: share of bad injecting listings booked minus neutral ones at the same positions):",
    ...renderTable(
      ["agent", "injection followed", "false-claim uptake", "injection-basic", "injection-strong"],
      rows.map((r) =>
        r.cells ? [r.agent, ...r.cells] : [r.agent, `untestable: ${r.untestable}`, "", "", ""],
      ),
    ).split("\n"),
  ];
  // Each untestable cell with its reason, under the table.
  const why = a.agents.flatMap((g) => {
    const d = g.descriptions;
    if (d.status !== "ok") return [];
    const injection = d.injectionFollowed.find((f) => f.name === "injection")!;
    return [
      ...(injection.status === "ok"
        ? []
        : [`${g.agent}, injection followed: untestable: ${injection.reason}`]),
      ...(d.falseClaimUptake.status === "ok"
        ? []
        : [`${g.agent}, false-claim uptake: untestable: ${d.falseClaimUptake.reason}`]),
      ...d.armPriceEquivalents
        .filter((r) => r.arm.startsWith("injection-") && r.status !== "ok")
        .map((r) => `${g.agent}, ${r.arm}: untestable: ${r.reason}`),
    ];
  });
  return { lines: [...lines, ...why], json: rows.map(({ cells: _, ...r }) => r) };
}

/** The run's seller negotiator specs, seller-1 first (a design with offers stores them). */
function sellerSpecs(config: unknown): string[] | undefined {
  const specs = (config as { design?: { sellerNegotiators?: unknown } } | null)?.design?.sellerNegotiators;
  return Array.isArray(specs) && specs.every((s) => typeof s === "string") ? specs : undefined;
}

/** `bazaar analyze <run>` for shop runs. */
export const shopAnalyzer: EnvironmentAnalyzer = {
  env: "shop",
  async analyze(input: AnalyzeInput): Promise<AnalyzeOutput> {
    const o = input.options;
    const draws =
      o.bootstrap === undefined ? DEFAULT_SHOP_DRAWS : parseOption("bootstrap", nonNegativeInt, o.bootstrap);
    const referencePrice =
      o.referencePrice === undefined
        ? DEFAULT_REFERENCE_PRICE
        : parseOption("reference-price", positiveDollars, o.referencePrice);
    const seed = typeof o.bootstrapSeed === "string" ? o.bootstrapSeed : "bazaar-shop";
    const stored = shopEpisodesFromRecords(input.records());
    if (stored.length === 0)
      throw new UserError(`run ${input.run.id} has no stored episodes yet`, "run it first");
    // With clients, `--client-faults` decides which episodes every estimate reads, the shop's too.
    const side = clientSide(input.run.id, stored, { clientFaults: o.clientFaults, draws, seed });
    const clients = side.analysis;
    const analysis = analyzeShop(side.episodes, {
      draws,
      seed,
      referencePrice,
      sellers: sellerSpecs(input.run.config),
    });
    const left = clients ? leftOutNote(clients) : null;
    const shopNote = clients && clients.leftOut > 0 ? left : null;
    const tables = [
      ...shopTables(analysis).map((t) =>
        shopNote ? { ...t, note: t.note ? `${t.note} ${shopNote}` : shopNote } : t,
      ),
      ...(clients ? clientTables(clients) : []),
    ];
    const intro = `run ${input.run.id}: ${stored.length} episodes, agents ${analysis.agents.map((a) => a.agent).join(", ")}${shopNote ? `\n${shopNote}` : ""}`;
    const text = [
      intro,
      ...tables.map((t) => `\n${t.title}\n${renderTable(t.header, t.rows)}${t.note ? `\n${t.note}` : ""}`),
    ].join("\n");
    const regret = clients ? regretMessagesChart(clients) : null;
    const specs = [
      ...shopFigures(analysis),
      ...(regret
        ? [
            {
              file: "shop-client-regret.svg",
              title: "Regret against messages to the client, per shopper and client",
              spec: regret,
            },
          ]
        : []),
    ];
    const figures = o.report
      ? await Promise.all(specs.map(async (f) => ({ ...f, svg: await renderSvg(f.spec) })))
      : [];
    return {
      headline: shopHeadline(analysis, clients),
      json: { run: input.run.id, env: "shop", ...analysis, ...(clients ? { clients } : {}) },
      text,
      figures: () => specs,
      writeReport(dir: string): string[] {
        const sections = [
          { heading: "Figures", body: figures.map((f) => `![${f.title}](${f.file})`) },
          ...tables.map((t) => ({
            heading: t.title,
            body: [markdownTable(t.header, t.rows), ...(t.note ? [t.note] : [])],
          })),
        ];
        const md = markdownDocument(`Shop run ${input.run.id}`, [
          { heading: "Run", body: [intro] },
          ...sections,
        ]);
        for (const f of figures) writeFileSync(path.join(dir, f.file), f.svg);
        writeFileSync(path.join(dir, "shop-report.md"), md);
        return ["shop-report.md", ...figures.map((f) => f.file)];
      },
    };
  },
};
