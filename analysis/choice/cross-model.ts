/**
 * The paper's cross-model findings read off the per-agent results: who is position-locked, the range
 * of price sensitivity among agents with a negative price response and their AIC verdicts, the
 * spread of willingness to pay among the well-identified, and the range of mean booked prices.
 * Only engaged agents enter (a locked agent's fit, where one is made, is not a preference).
 */
import { quantile } from "../stats/index.ts";
import type { BinaryForms } from "./fits.ts";
import { coefficient, type Wtp } from "./wtp.ts";

/** What the summary reads of one agent's analysis (an `AgentChoiceAnalysis` is one). */
export interface CrossModelAgent {
  agent: string;
  status: "engaged" | "locked" | "no-data";
  triage: { firstShownRate: number | null };
  binary: BinaryForms | null;
  wtp: { linear: Wtp | null; log: Wtp | null } | null;
  wellIdentified: boolean;
  booking: { meanPrice: number | null };
}

export interface AgentValue {
  agent: string;
  value: number;
}

export interface ValueRange {
  agents: number;
  min: AgentValue;
  max: AgentValue;
  median: number;
  /** max / min when both are positive, else null. */
  spread: number | null;
}

export interface CrossModelSummary {
  agents: number;
  engaged: number;
  locked: AgentValue[];
  /**
   * Engaged agents whose binary log-price coefficient is negative at p < `alpha` (the reference
   * also asks its pooled decile curve to end below −0.3; see datasets/pricebench/README.md).
   */
  negativePriceResponse: {
    alpha: number;
    agents: string[];
    lnPrice: ValueRange | null;
    forms: { linear: number; log: number; tie: number; insignificant: number };
  };
  /** Log-form WTP per review point (at the reference price) over the well-identified agents. */
  wtpLog: ValueRange | null;
  /** Linear-form WTP (−β_review/β_price) over the same agents. */
  wtpLinear: ValueRange | null;
  /** Mean booked nightly price over the engaged agents. */
  bookedPrice: ValueRange | null;
}

function range(values: readonly AgentValue[]): ValueRange | null {
  if (values.length === 0) return null;
  let min = values[0] as AgentValue;
  let max = min;
  for (const v of values) {
    if (v.value < min.value) min = v;
    if (v.value > max.value) max = v;
  }
  return {
    agents: values.length,
    min,
    max,
    median: quantile(
      values.map((v) => v.value),
      0.5,
    ),
    spread: min.value > 0 && max.value > 0 ? max.value / min.value : null,
  };
}

export function crossModelSummary(agents: readonly CrossModelAgent[], alpha = 0.05): CrossModelSummary {
  const engaged = agents.filter((a) => a.status === "engaged");
  const negative = engaged.filter((a) => {
    const c = a.binary ? coefficient(a.binary.log, "lnPrice") : undefined;
    return c !== undefined && c.estimate < 0 && c.p < alpha;
  });
  const forms = { linear: 0, log: 0, tie: 0, insignificant: 0 };
  for (const a of negative) if (a.binary?.formChoice) forms[a.binary.formChoice]++;
  const well = engaged.filter((a) => a.wellIdentified);
  const wtp = (form: "log" | "linear") =>
    well.flatMap((a) => {
      const w = a.wtp?.[form];
      return w ? [{ agent: a.agent, value: w.estimate }] : [];
    });
  return {
    agents: agents.length,
    engaged: engaged.length,
    locked: agents
      .filter((a) => a.status === "locked")
      .map((a) => ({ agent: a.agent, value: a.triage.firstShownRate ?? Number.NaN })),
    negativePriceResponse: {
      alpha,
      agents: negative.map((a) => a.agent),
      lnPrice: range(
        negative.map((a) => ({ agent: a.agent, value: coefficient(a.binary!.log, "lnPrice")!.estimate })),
      ),
      forms,
    },
    wtpLog: range(wtp("log")),
    wtpLinear: range(wtp("linear")),
    bookedPrice: range(
      engaged.flatMap((a) =>
        a.booking.meanPrice === null ? [] : [{ agent: a.agent, value: a.booking.meanPrice }],
      ),
    ),
  };
}
