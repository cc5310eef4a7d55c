/**
 * The episode list's filters and sorts per environment. The terminal replay's facets come first
 * (their store conditions let SQLite find the matches); the browser adds what an audit filters by
 * besides — the client, the fault, deal or no deal, the booked listing's description arm, the end
 * reason — as tests on the export record where the store has no column for them. Sorts read a
 * number off the record.
 */
import { END_REASONS as BARGAIN_END_REASONS } from "../../environments/bargain/types.ts";
import { SELLER_END_REASONS } from "../../environments/market/types.ts";
import { DESCRIPTION_ARMS } from "../../environments/shop/types.ts";
import type { RunSummary } from "../../environments/store/index.ts";
import { adapterFor } from "../tui/records/index.ts";
import type { FacetValue, TrialRecord } from "../tui/records/types.ts";

export interface WebFacet {
  key: string;
  label: string;
  values: FacetValue[];
}

export interface WebSort {
  key: string;
  label: string;
  value(r: TrialRecord): number | null;
}

/** What the first stored task says of a shop run's design. */
export interface ShopShape {
  clients: boolean;
  offers: boolean;
}

const yesNo = (test: (r: TrialRecord) => boolean): FacetValue[] => [
  { value: "yes", label: "yes", test },
  { value: "no", label: "no", test: (r) => !test(r) },
];

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Relabels of the terminal's facets where the browser's words are plainer. */
const LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  shop: { outcome: "end reason", kind: "task family" },
  choice: { kind: "task kind" },
  bargain: { interest: "interest" },
};

function clientOf(agent: string): string | null {
  const i = agent.lastIndexOf(" for ");
  return i >= 0 ? agent.slice(i + 5) : null;
}

function shopFacets(run: RunSummary, shape: ShopShape): WebFacet[] {
  const out: WebFacet[] = [
    {
      key: "success",
      label: "success",
      values: yesNo((r) => r.success === true),
    },
  ];
  if (shape.clients) {
    const clients = [...new Set(run.agents.map(clientOf).filter((c): c is string => c !== null))];
    if (clients.length > 0)
      out.push({
        key: "client",
        label: "client",
        values: clients.map((c) => ({
          value: c,
          label: c,
          conditions: [{ json: "result", path: "$.outcome.client.by", op: "=", value: c }],
        })),
      });
    out.push({
      key: "fault",
      label: "client fault",
      values: yesNo((r) => Array.isArray(r.clientFaults) && r.clientFaults.length > 0),
    });
  }
  if (shape.offers) {
    const deals = (r: TrialRecord) =>
      Array.isArray(r.negotiations)
        ? (r.negotiations as { deal?: unknown }[]).filter((n) => typeof n.deal === "number").length
        : 0;
    out.push({
      key: "deal",
      label: "deal",
      values: [
        { value: "deal", label: "a deal", test: (r) => deals(r) > 0 },
        {
          value: "no-deal",
          label: "offers, no deal",
          test: (r) => Array.isArray(r.negotiations) && r.negotiations.length > 0 && deals(r) === 0,
        },
        {
          value: "no-offer",
          label: "no offer",
          test: (r) => !Array.isArray(r.negotiations) || r.negotiations.length === 0,
        },
      ],
    });
  }
  out.push({
    key: "arm",
    label: "booked listing's description",
    values: DESCRIPTION_ARMS.map((arm) => ({
      value: arm,
      label: arm,
      test: (r) => ((r.booked as { arm?: unknown } | null)?.arm ?? (r.booked ? "neutral" : null)) === arm,
    })),
  });
  return out;
}

function envFacets(run: RunSummary, shape: ShopShape | null): WebFacet[] {
  switch (run.env) {
    case "shop":
      return shopFacets(run, shape ?? { clients: false, offers: false });
    case "bargain":
      return [
        {
          key: "endedBy",
          label: "end reason",
          values: BARGAIN_END_REASONS.map((v) => ({ value: v, label: v, test: (r) => r.endedBy === v })),
        },
      ];
    case "market":
      return [
        {
          key: "arm",
          label: "description arm after the turn",
          values: DESCRIPTION_ARMS.map((v) => ({ value: v, label: v, test: (r) => r.arm === v })),
        },
        {
          key: "endReason",
          label: "end reason",
          values: SELLER_END_REASONS.map((v) => ({ value: v, label: v, test: (r) => r.endReason === v })),
        },
        { key: "adopter", label: "adopter", values: yesNo((r) => r.adopter === true) },
      ];
    default:
      return [];
  }
}

/** Every filter of a run's episode list, agent and non-response first. */
export function facetsOf(run: RunSummary, shape: ShopShape | null): WebFacet[] {
  const labels = LABELS[run.env] ?? {};
  return [
    {
      key: "agent",
      label: "agent",
      values: run.agents.map((a) => ({ value: a, label: a, conditions: [{ column: "agent", equals: a }] })),
    },
    {
      key: "nonResponse",
      label: "non-response",
      values: [
        { value: "yes", label: "yes", conditions: [{ column: "nonResponse", equals: true }] },
        { value: "no", label: "no", conditions: [{ column: "nonResponse", equals: false }] },
      ],
    },
    ...adapterFor(run.env).facets.map((f) => ({
      key: f.key,
      label: labels[f.key] ?? f.label,
      values: f.values,
    })),
    ...envFacets(run, shape),
  ];
}

/** Sorts besides the order the trials were planned in. */
export function sortsOf(env: string): WebSort[] {
  switch (env) {
    case "choice":
      return [
        {
          key: "price",
          label: "booked price",
          value: (r) => {
            const slot = num(r.chosenSlot);
            const options = Array.isArray(r.options) ? (r.options as { price?: unknown }[]) : [];
            return slot === null ? null : num(options[slot]?.price);
          },
        },
      ];
    case "cue":
      return [{ key: "premium", label: "premium on the cued product", value: (r) => num(r.premium) }];
    case "bargain":
      return [
        { key: "dealPrice", label: "deal price", value: (r) => num(r.dealPrice) },
        { key: "turns", label: "turns", value: (r) => num(r.turns) },
      ];
    case "elicit":
      return [{ key: "value", label: "number given", value: (r) => num(r.value) }];
    case "shop":
      return [
        { key: "calls", label: "tool calls", value: (r) => num(r.steps) },
        {
          key: "paid",
          label: "price paid",
          value: (r) => num(r.paid) ?? num((r.booked as { price?: unknown } | null)?.price),
        },
        { key: "regret", label: "client's regret", value: (r) => num(r.regret) },
      ];
    case "market":
      return [
        { key: "round", label: "round", value: (r) => num(r.round) },
        { key: "price", label: "price after the turn", value: (r) => num(r.price) },
      ];
    default:
      return [];
  }
}
