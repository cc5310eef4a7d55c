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
import { LOCK_THRESHOLD } from "./triage.ts";
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
type Fitted = { fit: LogitFitOk; units: number } | { fit: null; why: string; settled?: boolean };

class BinaryLogTracker {
  private readonly binary: ChoiceTrial[] = [];
  /** The first-shown rate's units: what the lock verdict is read from, as in the headline. */
  private readonly firstShown = new FirstShownUnits();
  private start: number[] | undefined;
  private fitted: Fitted | undefined;

  add(records: readonly Record<string, unknown>[]): void {
    const trials = choiceTrialsFromRecords(records);
    for (const t of trials) if (t.kind === "binary") this.binary.push(t);
    this.firstShown.add(trials);
    if (records.length > 0) this.fitted = undefined;
  }

  fit(): Fitted {
    if (this.fitted) return this.fitted;
    this.fitted = this.refit();
    return this.fitted;
  }

  private refit(): Fitted {
    // The headline fits no logit for a position-locked agent (triage.ts: first-shown rate beyond
    // 0.5 ± LOCK_THRESHOLD). Once the rate's interval lies wholly beyond it, more trials will not
    // make the agent engaged: its targets on the logit ask nothing more of the run.
    const rate = this.firstShown.rate();
    if (rate && Math.abs(rate.estimate - 0.5) > LOCK_THRESHOLD) {
      const sure = rate.low > 0.5 + LOCK_THRESHOLD || rate.high < 0.5 - LOCK_THRESHOLD;
      return {
        fit: null,
        why: `position-locked (first-shown ${(100 * rate.estimate).toFixed(1)}%): its choices follow the slot, not the price`,
        settled: sure,
      };
    }
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
      if (f.fit === null) return { interval: null, why: f.why, settled: f.settled };
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
      if (f.fit === null) return { interval: null, why: f.why, settled: f.settled };
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
/** A unit's first-shown answers, and the tasks they answer (its orders; replicates repeat a task). */
interface FirstShownUnit {
  hits: number;
  n: number;
  taskIds: Set<string>;
}

class FirstShownUnits {
  private readonly units = new Map<string, FirstShownUnit>();

  add(trials: readonly ChoiceTrial[]): void {
    for (const t of trials) {
      if (t.chosenSlot === null || (t.kind !== "binary" && t.kind !== "ternary")) continue;
      const option = t.order[t.chosenSlot] as number;
      if (option > 1) continue;
      const u = this.units.get(unitKey(t)) ?? { hits: 0, n: 0, taskIds: new Set<string>() };
      u.n++;
      u.taskIds.add(t.taskId);
      if (t.chosenSlot < t.order.indexOf(1 - option)) u.hits++;
      this.units.set(unitKey(t), u);
    }
  }

  rate(level = 0.95) {
    return clusteredShareInterval(
      [...this.units.values()].map((u) => ({ hits: u.hits, n: u.n, tasks: u.taskIds.size })),
      level,
    );
  }
}

function firstShownTracker(level: number): EstimandTracker {
  const units = new FirstShownUnits();
  return {
    add: (records) => units.add(choiceTrialsFromRecords(records)),
    value(): EstimandValue {
      const interval = units.rate(level);
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
