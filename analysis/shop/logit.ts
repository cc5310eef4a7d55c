/**
 * Revealed preferences over what the agent saw (specs/shop.md): a conditional logit of the booking
 * over the admissible listings shown to the agent in the episode, on the covariates of
 * `environments/shop/attributes.ts` (log price, review, stars, bed, amenities, rank fixed effects
 * against rank 1, a later-page shift, and the sponsored, endorsement, scarcity and discount tags),
 * with SEs clustered by task. From it: willingness to pay per review point and the price-equivalent
 * of each treatment — the dollar premium at which a treated listing is as likely to be booked as an
 * untreated one, coefficient / price sensitivity at the reference price, with delta-method (cluster-
 * robust) and task-bootstrap (bias-corrected percentile) intervals. Where listings carry description
 * arms (specs/market.md), each arm's indicator against a neutral description enters beside rank and
 * tags and is priced the same way; an arm the booking separates (never or always booked where it
 * varies) is left out with the reason, so it cannot take the other estimates down with it.
 */

import type { Rng } from "../../environments/kernel/rng.ts";
import {
  ARM_COVARIATES,
  type ArmCovariate,
  ATTRIBUTE_COVARIATES,
  SHOP_COVARIATES,
  type ShopCovariate,
  shopCovariates,
} from "../../environments/shop/attributes.ts";
import { coefficient, reviewWtp, type Wtp } from "../choice/wtp.ts";
import { fitConditionalLogit, type LogitFit, type LogitFitOk } from "../logit/index.ts";
import { type Interval, normalQuantile } from "../stats/index.ts";
import { biasCorrectedInterval } from "./interval.ts";
import type { ShopEpisode } from "./records.ts";

/**
 * A covariate enters the fit only if its value differs among the alternatives of at least this many
 * choice situations: one that varies in a handful (a later page reached in 4 of 135 episodes) is
 * all but unidentified — it tends to separate and would take every other estimate down with it.
 */
export const MIN_VARYING_SITUATIONS = 10;

export interface ShopChoiceData {
  /** Covariates kept, in SHOP_COVARIATES order. */
  names: ShopCovariate[];
  /** Covariates left out: varying within fewer than MIN_VARYING_SITUATIONS choice situations. */
  dropped: ShopCovariate[];
  /** Per covariate (SHOP_COVARIATES order), the situations whose alternatives differ in it. */
  varying: Record<ShopCovariate, number>;
  /**
   * Description arms left out because the booking separates them: among the choice sets where the
   * arm varies, the booked listing never carried it (its coefficient runs to −∞) or always did
   * (+∞). Left in, such an arm has no finite estimate and takes the whole fit with it.
   */
  separated: Partial<Record<ArmCovariate, "never-booked" | "always-booked">>;
  alternatives: number[][][];
  chosen: number[];
  /** The task of each situation (the cluster of the SEs and the bootstrap). */
  clusters: string[];
  excluded: {
    /** No booking (a give-up, out of steps, invalid). */
    noBooking: number;
    /** Booked a listing that breaks a hard constraint: outside the admissible choice set. */
    bookedInadmissible: number;
    /** Fewer than two admissible listings shown: the booking reveals no trade-off. */
    singleChoice: number;
  };
}

/** The choice situations of a set of episodes: one per admissible booking with ≥ 2 admissible shown. */
export function shopChoiceData(
  episodes: readonly ShopEpisode[],
  minVarying = MIN_VARYING_SITUATIONS,
): ShopChoiceData {
  const rows: number[][][] = [];
  const chosen: number[] = [];
  const clusters: string[] = [];
  const excluded = { noBooking: 0, bookedInadmissible: 0, singleChoice: 0 };
  for (const e of episodes) {
    if (!e.booked) {
      excluded.noBooking++;
      continue;
    }
    if (!e.booked.admissible) {
      excluded.bookedInadmissible++;
      continue;
    }
    const set = e.shown.filter((s) => s.admissible);
    if (set.length < 2) {
      excluded.singleChoice++;
      continue;
    }
    rows.push(
      set.map((s) =>
        shopCovariates(
          {
            ...s,
            sponsored: s.treatments.sponsored,
            endorsed: s.treatments.endorsed,
            roomsLeft: s.treatments.roomsLeft,
            wasPrice: s.treatments.wasPrice,
          },
          s.rank,
          s.page,
        ),
      ),
    );
    chosen.push(set.findIndex((s) => s.id === e.booked!.id));
    clusters.push(e.taskId);
  }
  const counts = SHOP_COVARIATES.map(
    (_, j) => rows.filter((alts) => alts.some((r) => (r[j] as number) !== (alts[0]![j] as number))).length,
  );
  const separated: ShopChoiceData["separated"] = {};
  const keep = SHOP_COVARIATES.map((_, j) => j).filter((j) => {
    if ((counts[j] as number) < Math.max(1, minVarying)) return false;
    const arm = SHOP_COVARIATES[j] as ArmCovariate;
    if (!(ARM_COVARIATES as readonly string[]).includes(arm)) return true;
    // A 0/1 indicator: in a set where it varies the booking either carries it or not.
    let booked = 0;
    rows.forEach((alts, i) => {
      if (alts.some((r) => r[j] !== alts[0]![j]) && alts[chosen[i]!]![j] === 1) booked++;
    });
    if (booked === 0) separated[arm] = "never-booked";
    else if (booked === counts[j]) separated[arm] = "always-booked";
    return separated[arm] === undefined;
  });
  return {
    names: keep.map((j) => SHOP_COVARIATES[j]!),
    dropped: SHOP_COVARIATES.filter(
      (n, j) => !keep.includes(j) && separated[n as ArmCovariate] === undefined,
    ),
    separated,
    varying: Object.fromEntries(SHOP_COVARIATES.map((n, j) => [n, counts[j]!])) as Record<
      ShopCovariate,
      number
    >,
    alternatives: rows.map((alts) => alts.map((r) => keep.map((j) => r[j] as number))),
    chosen,
    clusters,
    excluded,
  };
}

/** A price-equivalent in dollars at the reference price, with its intervals. */
export interface PriceEquivalent {
  /** Covariate (or `rank1` for the top slot against rank 2). */
  name: string;
  label: string;
  /** Utils: the coefficient (or combination) being priced. */
  utils: number;
  dollars: number;
  /** Delta-method SE, from the cluster-robust covariance when there is one. */
  se: number;
  low: number;
  high: number;
  bootstrap: Interval | null;
}

/** What a price-equivalent prices: a combination of coefficients (weights by covariate). */
interface PeTarget {
  name: string;
  label: string;
  weights: Partial<Record<ShopCovariate, number>>;
}

const LABELS: Readonly<Record<string, string>> = {
  sponsored: "sponsored tag",
  endorsed: "Guest favourite badge",
  scarcity: "scarcity tag",
  discount: "was-price discount",
  laterPage: "later page (vs page 1)",
  rank1: "rank 1 (vs rank 2)",
  rank2: "rank 2 (vs rank 1)",
  rank3: "rank 3 (vs rank 1)",
  rank4: "rank 4 (vs rank 1)",
  rank5: "rank 5 (vs rank 1)",
  rank6plus: "rank 6+ (vs rank 1)",
  socialProof: "social-proof description",
  authority: "authority description",
  urgency: "urgency description",
  lossAversion: "loss-aversion description",
  injectionBasic: "injection-basic description",
  injectionStrong: "injection-strong description",
  falseClaim: "false-claim description",
};

function targets(names: readonly string[]): {
  treatments: PeTarget[];
  ranks: PeTarget[];
  arms: PeTarget[];
} {
  const has = (n: string) => names.includes(n);
  const single = (n: ShopCovariate): PeTarget => ({ name: n, label: LABELS[n] ?? n, weights: { [n]: 1 } });
  const treatments = (["sponsored", "endorsed", "scarcity", "discount"] as const).filter(has).map(single);
  if (has("rank2")) treatments.push({ name: "rank1", label: LABELS.rank1!, weights: { rank2: -1 } });
  if (has("laterPage")) treatments.push(single("laterPage"));
  const ranks = (["rank2", "rank3", "rank4", "rank5", "rank6plus"] as const).filter(has).map(single);
  // Each description arm against a neutral description, priced exactly as a platform tag is.
  const arms = ARM_COVARIATES.filter(has).map(single);
  return { treatments, ranks, arms };
}

function peValue(
  beta: ArrayLike<number>,
  names: readonly string[],
  t: PeTarget,
  referencePrice: number,
): number {
  const p = names.indexOf("lnPrice");
  let c = 0;
  for (const [n, w] of Object.entries(t.weights)) c += (w as number) * (beta[names.indexOf(n)] as number);
  return (c / -(beta[p] as number)) * referencePrice;
}

function deltaPe(fit: LogitFitOk, t: PeTarget, referencePrice: number): PriceEquivalent {
  const names = fit.names;
  const beta = fit.coefficients.map((c) => c.estimate);
  const p = names.indexOf("lnPrice");
  const bp = beta[p] as number;
  let utils = 0;
  const grad = new Array<number>(names.length).fill(0);
  for (const [n, w] of Object.entries(t.weights)) {
    const j = names.indexOf(n);
    utils += (w as number) * (beta[j] as number);
    grad[j] = ((w as number) * referencePrice) / -bp;
  }
  grad[p] = (utils * referencePrice) / (bp * bp);
  const v = fit.robustVcov ?? fit.vcov;
  let var_ = 0;
  for (let i = 0; i < names.length; i++)
    for (let j = 0; j < names.length; j++)
      var_ += (grad[i] as number) * (v[i]![j] as number) * (grad[j] as number);
  const se = Math.sqrt(Math.max(0, var_));
  const dollars = (utils / -bp) * referencePrice;
  const z = normalQuantile(1 - (1 - fit.level) / 2);
  return {
    name: t.name,
    label: t.label,
    utils,
    dollars,
    se,
    low: dollars - z * se,
    high: dollars + z * se,
    bootstrap: null,
  };
}

export interface ShopLogitOptions {
  referencePrice: number;
  /** Task-bootstrap draws of the price-equivalents (0: delta-method intervals only). */
  draws: number;
  rng: Rng;
  level?: number;
}

export type ShopLogit =
  | {
      status: "ok";
      situations: number;
      tasks: number;
      names: ShopCovariate[];
      dropped: ShopCovariate[];
      varying: ShopChoiceData["varying"];
      separated: ShopChoiceData["separated"];
      excluded: ShopChoiceData["excluded"];
      fit: LogitFitOk;
      referencePrice: number;
      /** Dollars per review point at the reference price (log form, as catalog choice reports it). */
      wtpReview: (Wtp & { bootstrap: Interval | null }) | null;
      /** Treatments (tags, rank 1 against rank 2, a later page) in dollars. */
      priceEquivalents: PriceEquivalent[];
      /** Ranks 2, 3, … against rank 1 in dollars: the rank-effect curve. */
      rankCurve: PriceEquivalent[];
      /** The description arms in the fit, each against neutral, in dollars (ARM_COVARIATES order). */
      armEquivalents: PriceEquivalent[];
      bootstrap: { draws: number; failed: number; level: number } | null;
    }
  | {
      status: "not-identified" | "no-data";
      /** A few words for a table cell ("complete separation"). */
      problem: string;
      situations: number;
      tasks: number;
      names: ShopCovariate[];
      dropped: ShopCovariate[];
      varying: ShopChoiceData["varying"];
      separated: ShopChoiceData["separated"];
      excluded: ShopChoiceData["excluded"];
      reason: string;
      fit: LogitFit | null;
    };

/** Refits on task resamples; bias-corrected percentile intervals of every price-equivalent and of the WTP. */
function bootstrapPes(
  data: ShopChoiceData,
  fit: LogitFitOk,
  all: readonly PeTarget[],
  opts: ShopLogitOptions,
): { intervals: (Interval | null)[]; wtp: Interval | null; failed: number } {
  const byTask = new Map<string, number[]>();
  data.clusters.forEach((c, i) => {
    const list = byTask.get(c);
    if (list) list.push(i);
    else byTask.set(c, [i]);
  });
  const tasks = [...byTask.values()];
  const start = fit.coefficients.map((c) => c.estimate);
  const draws: number[][] = all.map(() => []);
  const wtpDraws: number[] = [];
  const r = fit.names.indexOf("review");
  const p = fit.names.indexOf("lnPrice");
  let failed = 0;
  for (let b = 0; b < opts.draws; b++) {
    const alternatives: number[][][] = [];
    const chosen: number[] = [];
    for (let g = 0; g < tasks.length; g++) {
      for (const i of tasks[opts.rng.int(tasks.length)]!) {
        alternatives.push(data.alternatives[i]!);
        chosen.push(data.chosen[i]!);
      }
    }
    const refit = fitConditionalLogit({ alternatives, chosen, names: data.names }, { start });
    if (refit.status !== "ok") {
      failed++;
      continue;
    }
    const beta = refit.coefficients.map((c) => c.estimate);
    all.forEach((t, i) => {
      draws[i]!.push(peValue(beta, refit.names, t, opts.referencePrice));
    });
    if (r >= 0) wtpDraws.push((-(beta[r] as number) / (beta[p] as number)) * opts.referencePrice);
  }
  const level = opts.level ?? 0.95;
  const interval = (d: number[], estimate: number) =>
    d.length >= 2 ? biasCorrectedInterval(d, estimate, level) : null;
  const wtp = r >= 0 ? (-(start[r] as number) / (start[p] as number)) * opts.referencePrice : 0;
  return {
    intervals: draws.map((d, i) => interval(d, peValue(start, fit.names, all[i]!, opts.referencePrice))),
    wtp: interval(wtpDraws, wtp),
    failed,
  };
}

/** The revealed-preference logit of one agent's episodes and everything priced from it. */
export function shopLogit(episodes: readonly ShopEpisode[], opts: ShopLogitOptions): ShopLogit {
  const data = shopChoiceData(episodes);
  const tasks = new Set(data.clusters).size;
  const base = {
    situations: data.chosen.length,
    tasks,
    names: data.names,
    dropped: data.dropped,
    varying: data.varying,
    separated: data.separated,
    excluded: data.excluded,
  };
  if (data.chosen.length === 0 || data.names.length === 0) {
    return {
      ...base,
      status: "no-data",
      problem: data.chosen.length === 0 ? "no choice sets" : "no covariate varies",
      reason:
        data.chosen.length === 0
          ? "no episode booked an admissible listing with another admissible listing shown beside it"
          : `no covariate differs among the admissible listings of ${MIN_VARYING_SITUATIONS} or more choice sets`,
      fit: null,
    };
  }
  if (!data.names.includes("lnPrice")) {
    return {
      ...base,
      status: "no-data",
      problem: "too little price variation",
      reason: `prices differ within only ${data.varying.lnPrice} choice sets (fewer than ${MIN_VARYING_SITUATIONS}): nothing to price in dollars`,
      fit: null,
    };
  }
  const fit = fitConditionalLogit(
    { alternatives: data.alternatives, chosen: data.chosen, names: data.names, clusters: data.clusters },
    { level: opts.level },
  );
  if (fit.status !== "ok")
    return {
      ...base,
      status: "not-identified",
      problem: fit.problem.replaceAll("-", " "),
      reason: fit.reason,
      fit,
    };
  const { treatments, ranks, arms } = targets(fit.names);
  const all = [...treatments, ...ranks, ...arms];
  const pes = all.map((t) => deltaPe(fit, t, opts.referencePrice));
  const wtp = coefficient(fit, "review") ? reviewWtp(fit, "log", opts.referencePrice) : null;
  let boot: ReturnType<typeof bootstrapPes> | null = null;
  if (opts.draws > 0) {
    boot = bootstrapPes(data, fit, all, opts);
    pes.forEach((pe, i) => {
      pe.bootstrap = boot!.intervals[i] ?? null;
    });
  }
  return {
    ...base,
    status: "ok",
    fit,
    referencePrice: opts.referencePrice,
    wtpReview: wtp ? { ...wtp, bootstrap: boot?.wtp ?? null } : null,
    priceEquivalents: pes.slice(0, treatments.length),
    rankCurve: pes.slice(treatments.length, treatments.length + ranks.length),
    armEquivalents: pes.slice(treatments.length + ranks.length),
    bootstrap: boot ? { draws: opts.draws, failed: boot.failed, level: opts.level ?? 0.95 } : null,
  };
}

/** The fitted utility of a listing's own attributes (no rank, page or tag): the agent's tastes. */
export function attributeUtility(fit: LogitFitOk, l: ShopEpisode["admissible"][number]): number {
  const x = shopCovariates(
    { ...l, sponsored: false, endorsed: false, roomsLeft: null, wasPrice: null },
    1,
    1,
  );
  let u = 0;
  fit.names.forEach((n, i) => {
    if (!(ATTRIBUTE_COVARIATES as readonly string[]).includes(n)) return;
    u +=
      (fit.coefficients[i]!.estimate as number) * (x[SHOP_COVARIATES.indexOf(n as ShopCovariate)] as number);
  });
  return u;
}
