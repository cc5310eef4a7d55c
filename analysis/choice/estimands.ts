/**
 * Catalog choice's precision targets (`bazaar run choice --until …`): β ln p, the willingness to pay
 * for a review point, and the first-shown rate — each the estimate the run's headline shows, with
 * the interval the stopping rule reads (analysis/stats/sequential.ts).
 */
import { fitBinaryLogit, type LogitFitOk } from "../logit/index.ts";
import { clusteredShareInterval, fiellerInterval, waldInterval } from "../stats/sequential.ts";
import type { EnvironmentEstimands, EstimandSpec, EstimandTracker, EstimandValue } from "../stats/targets.ts";
import { binaryDesign } from "./design.ts";
import { choiceTrialsFromRecords } from "./records.ts";
import { isLocked, triageAgent } from "./triage.ts";
import { type ChoiceTrial, DEFAULT_CONVENTION } from "./types.ts";
import { DEFAULT_REFERENCE_PRICE } from "./wtp.ts";

interface UnitTask {
  kind?: unknown;
  setId?: unknown;
  appearance?: unknown;
}

/** A display of one appearance of an option set: its orders are one counterbalanced unit. */
function unitOf(task: unknown): string {
  const t = task as UnitTask;
  return `${String(t.setId)}-${String(t.appearance)}`;
}

const unitKey = (t: ChoiceTrial) => `${t.cluster}-${t.appearance}`;
const kindOf = (task: unknown) => (task as UnitTask).kind;

/**
 * The binary trials' log-form logit, refitted from the last fit's coefficients (a look adds a block
 * to what the last look fitted, so Newton–Raphson starts next to the answer). Null, with the reason,
 * where the headline shows no β ln p: a position-locked agent, or a fit the data cannot identify.
 */
class BinaryLogTracker {
  private readonly binary: ChoiceTrial[] = [];
  /** Binary and ternary answers: what the lock verdict is read from, as in the headline. */
  private readonly triaged: ChoiceTrial[] = [];
  private start: number[] | undefined;
  private fitted: { fit: LogitFitOk; units: number } | { fit: null; why: string } | undefined;

  add(records: readonly Record<string, unknown>[]): void {
    for (const t of choiceTrialsFromRecords(records)) {
      if (t.kind === "binary") this.binary.push(t);
      this.triaged.push(t);
    }
    if (records.length > 0) this.fitted = undefined;
  }

  fit(): { fit: LogitFitOk; units: number } | { fit: null; why: string } {
    if (this.fitted) return this.fitted;
    this.fitted = this.refit();
    return this.fitted;
  }

  private refit(): { fit: LogitFitOk; units: number } | { fit: null; why: string } {
    if (isLocked(triageAgent(this.triaged).verdict))
      return { fit: null, why: "position-locked: its choices follow the slot, not the price" };
    const design = binaryDesign(this.binary, { priceForm: "log" }, DEFAULT_CONVENTION);
    if (design.X.length === 0) return { fit: null, why: "no binary answers yet" };
    let fit = fitBinaryLogit(design, this.start ? { start: this.start } : undefined);
    // A start far from a new optimum (a block that turned a near-separated fit around) can fail to
    // converge where the default start would not.
    if (fit.status !== "ok" && this.start) fit = fitBinaryLogit(design);
    if (fit.status !== "ok") return { fit: null, why: `logit not identified: ${fit.reason}` };
    this.start = fit.coefficients.map((c) => c.estimate);
    return { fit, units: new Set(this.binary.map(unitKey)).size };
  }
}

function betaLnPriceTracker(level: number): EstimandTracker {
  const logit = new BinaryLogTracker();
  return {
    add: (records) => logit.add(records),
    value(): EstimandValue {
      const f = logit.fit();
      if (f.fit === null) return { interval: null, why: f.why };
      const c = f.fit.coefficients[f.fit.names.indexOf("lnPrice")]!;
      return { interval: waldInterval(c.estimate, c.se, f.units, level) };
    },
  };
}

function wtpTracker(level: number): EstimandTracker {
  const logit = new BinaryLogTracker();
  return {
    add: (records) => logit.add(records),
    value(): EstimandValue {
      const f = logit.fit();
      if (f.fit === null) return { interval: null, why: f.why };
      const { names, coefficients, vcov } = f.fit;
      const i = names.indexOf("review");
      const j = names.indexOf("lnPrice");
      const betaPrice = coefficients[j]!.estimate;
      if (!(betaPrice < 0))
        return { interval: null, why: "β ln p is not negative: the ratio is no willingness to pay" };
      // WTP = −P_ref·β_review / β_ln p: numerator a = −P_ref·β_review, denominator b = β_ln p.
      const scale = -DEFAULT_REFERENCE_PRICE;
      const interval = fiellerInterval(
        scale * coefficients[i]!.estimate,
        betaPrice,
        scale * scale * vcov[i]![i]!,
        vcov[j]![j]!,
        scale * vcov[i]![j]!,
        f.units,
        level,
      );
      return interval
        ? { interval }
        : { interval: null, why: "β ln p is not yet distinguishable from 0: the interval is unbounded" };
    },
  };
}

/**
 * The first-shown rate as the headline counts it (triage.ts): of the binary and ternary answers
 * that booked option A or B of the set, the share that booked whichever of the two was shown
 * earlier; hits and answers summed per unit for the clustered Wilson interval.
 */
function firstShownTracker(level: number): EstimandTracker {
  const units = new Map<string, { hits: number; n: number }>();
  return {
    add(records) {
      for (const t of choiceTrialsFromRecords(records)) {
        if (t.chosenSlot === null || (t.kind !== "binary" && t.kind !== "ternary")) continue;
        const option = t.order[t.chosenSlot] as number;
        if (option > 1) continue;
        const u = units.get(unitKey(t)) ?? { hits: 0, n: 0 };
        u.n++;
        if (t.chosenSlot < t.order.indexOf(1 - option)) u.hits++;
        units.set(unitKey(t), u);
      }
    },
    value(): EstimandValue {
      const interval = clusteredShareInterval([...units.values()], level);
      return interval ? { interval } : { interval: null, why: "answers from fewer than 2 units" };
    },
  };
}

const ESTIMANDS: EstimandSpec[] = [
  {
    name: "beta-lnp",
    label: "β ln p",
    family: "coefficient",
    unit: "plain",
    description:
      "the binary logit's ln-price coefficient (utils per unit of ln price), model-based Wald interval",
    informs: (task) => kindOf(task) === "binary",
    tracker: betaLnPriceTracker,
  },
  {
    name: "wtp",
    label: `WTP per review point @$${DEFAULT_REFERENCE_PRICE}`,
    family: "ratio",
    unit: "usd",
    description: `willingness to pay for one review point at $${DEFAULT_REFERENCE_PRICE} (−β review / β ln p × $${DEFAULT_REFERENCE_PRICE}), in dollars, Fieller interval`,
    informs: (task) => kindOf(task) === "binary",
    tracker: wtpTracker,
  },
  {
    name: "first-shown",
    label: "first-shown",
    family: "proportion",
    unit: "pts",
    description:
      "the share of A-or-B bookings that took whichever was shown first (binary and ternary tasks), Wilson interval clustered by unit",
    informs: (task) => kindOf(task) === "binary" || kindOf(task) === "ternary",
    tracker: firstShownTracker,
  },
];

export const CHOICE_ESTIMANDS: EnvironmentEstimands = { env: "choice", estimands: ESTIMANDS, unitOf };
