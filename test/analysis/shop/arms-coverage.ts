/**
 * The description estimators' replication study (arms-coverage.validate.test.ts, `npm run
 * validate`; the recovery of the estimates themselves is arms-recovery.test.ts in the normal suite):
 * fresh seeded designs, each analysed as a run would be, and how often each 95% interval holds the
 * truth.
 *
 * - Arm price-equivalents: a persuadable buyer (known arm βs, no following); truth β_arm / −β_ln price
 *   × the reference price; the delta-method and the task-bootstrap intervals.
 * - Injection followed and false-claim uptake: a gullible buyer (follows injections at known rates,
 *   believes false claims at a known rate, descriptions otherwise move nothing); truth: the
 *   estimands' population values under the design, computed once from a very large design with
 *   every listing's exact booking probability (no choice noise; design noise ≈ 0.1 points).
 */
import {
  badExposures,
  falseClaimUptake,
  followContrast,
  INJECTING_ARMS,
  type ShopEpisode,
  shopEpisodesFromRecords,
  shopLogit,
} from "../../../analysis/shop/index.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { ARM_COVARIATES } from "../../../environments/shop/attributes.ts";
import {
  type ArmBuyer,
  type ArmDesign,
  type ArmRecord,
  bookingProbabilities,
  PERSUADABLE,
  PERSUADABLE_BETA,
  simulateArms,
} from "./arms-simulate.ts";

export const PRICE = 250;

export const GULLIBLE: ArmBuyer = {
  beta: { ...PERSUADABLE_BETA, ...Object.fromEntries(ARM_COVARIATES.map((a) => [a, 0])) },
  follow: { "injection-basic": 0.3, "injection-strong": 0.7 },
  credulity: 0.4,
};

export interface Tally {
  covered: number;
  n: number;
  errors: number[];
}

export type Tallies = Map<string, Tally>;

function tally(map: Tallies, key: string, covered: boolean, error: number): void {
  const t = map.get(key) ?? { covered: 0, n: 0, errors: [] };
  t.n++;
  if (covered) t.covered++;
  t.errors.push(error);
  map.set(key, t);
}

export function pooled(map: Tallies): number {
  const all = [...map.values()];
  return all.reduce((a, t) => a + t.covered, 0) / all.reduce((a, t) => a + t.n, 0);
}

export function summary(title: string, map: Tallies): string {
  const rows = [...map.entries()].map(([k, t]) => {
    const bias = t.errors.reduce((a, b) => a + b, 0) / t.errors.length;
    return `  ${k.padEnd(24)} coverage ${(100 * (t.covered / t.n)).toFixed(1)}% (${t.covered}/${t.n})  mean error ${bias.toFixed(4)}`;
  });
  return `\n${title}:\n${rows.join("\n")}\n  pooled ${(100 * pooled(map)).toFixed(1)}%`;
}

/**
 * Population values of injection followed (pooled and per injecting arm) and of false-claim uptake:
 * the estimands over `tasks` designed tasks (in chunks, so memory stays flat), from each listing's
 * exact booking probability rather than a draw.
 */
export function populationTruth(design: Omit<ArmDesign, "seed" | "tasks">, buyer: ArmBuyer, tasks = 40_000) {
  const contrasts = {
    injection: INJECTING_ARMS as readonly string[],
    "injection-basic": ["injection-basic"],
    "injection-strong": ["injection-strong"],
  };
  const cells = Object.fromEntries(
    Object.keys(contrasts).map((k) => [k, new Map<string, [number, number, number, number]>()]),
  ) as Record<keyof typeof contrasts, Map<string, [number, number, number, number]>>;
  let exposed = 0;
  let booked = 0;
  const CHUNK = 2000;
  for (let k = 0; k * CHUNK < tasks; k++) {
    const records = simulateArms(
      { ...design, tasks: Math.min(CHUNK, tasks - k * CHUNK), replicates: 1, seed: `population-${k}` },
      buyer,
    );
    // The simulated records already carry every field the estimators read (arms included): the
    // schema check adds nothing here but time.
    const episodes = records as unknown as ShopEpisode[];
    const prob = records.map((r) => bookingProbabilities(r, buyer));
    const exposures = badExposures(episodes);
    for (const [name, arms] of Object.entries(contrasts) as [keyof typeof contrasts, readonly string[]][]) {
      for (const x of exposures) {
        const treated = arms.includes(x.arm);
        if (!treated && x.arm !== "neutral") continue;
        const key = `${x.page}:${x.rank}`;
        const c = cells[name].get(key) ?? [0, 0, 0, 0];
        const p = prob[x.episode]!.get(x.id)!;
        if (treated) {
          c[0]++;
          c[1] += p;
        } else {
          c[2]++;
          c[3] += p;
        }
        cells[name].set(key, c);
      }
    }
    records.forEach((r, i) => {
      const misleading = r.shown.filter(
        (s) => s.arm === "false-claim" && r.request.constraints.amenities.includes(s.claims!),
      );
      if (misleading.length === 0) return;
      exposed++;
      booked += misleading.reduce((a, s) => a + prob[i]!.get(s.id)!, 0);
    });
  }
  const standardized = (m: Map<string, [number, number, number, number]>) => {
    let n = 0;
    let diff = 0;
    for (const [nt, pt, nn, pn] of m.values()) {
      if (nt === 0 || nn === 0) continue;
      n += nt;
      diff += pt - nt * (pn / nn);
    }
    return diff / n;
  };
  return {
    injection: standardized(cells.injection),
    "injection-basic": standardized(cells["injection-basic"]),
    "injection-strong": standardized(cells["injection-strong"]),
    falseClaimUptake: booked / exposed,
  };
}

export interface StudyOptions {
  replications: number;
  tasks: number;
  replicates: number;
  draws: number;
  seed: string;
  /** Also the gullible buyer's injection-followed and false-claim intervals (default true). */
  gullible?: boolean;
  /** Tasks of the design the population values are computed on (default 40,000). */
  populationTasks?: number;
}

export interface Study {
  truth: ReturnType<typeof populationTruth> | null;
  delta: Tallies;
  bootstrap: Tallies;
  follow: Tallies;
  uptake: Tallies;
  failedFits: number;
  failedDraws: number;
}

const DESIGN: Omit<ArmDesign, "seed" | "tasks"> = { amenityRate: 0.4 };

export function armCoverageStudy(o: StudyOptions): Study {
  const truth = o.gullible === false ? null : populationTruth(DESIGN, GULLIBLE, o.populationTasks);
  const study: Study = {
    truth,
    delta: new Map(),
    bootstrap: new Map(),
    follow: new Map(),
    uptake: new Map(),
    failedFits: 0,
    failedDraws: 0,
  };
  for (let r = 0; r < o.replications; r++) {
    const seed = `${o.seed}-${r}`;
    const records = simulateArms({ ...DESIGN, tasks: o.tasks, replicates: o.replicates, seed }, PERSUADABLE);
    const fit = shopLogit(shopEpisodesFromRecords(records), {
      referencePrice: PRICE,
      draws: o.draws,
      rng: createRng(`boot-${seed}`),
    });
    if (fit.status !== "ok") {
      study.failedFits++;
      continue;
    }
    study.failedDraws += fit.bootstrap?.failed ?? 0;
    for (const pe of fit.armEquivalents) {
      const t =
        (PERSUADABLE_BETA[pe.name as keyof typeof PERSUADABLE_BETA] / -PERSUADABLE_BETA.lnPrice) * PRICE;
      tally(study.delta, pe.name, pe.low <= t && t <= pe.high, pe.dollars - t);
      if (pe.bootstrap)
        tally(study.bootstrap, pe.name, pe.bootstrap.low <= t && t <= pe.bootstrap.high, pe.dollars - t);
    }
    if (!truth) continue;
    const gullible: ArmRecord[] = simulateArms(
      { ...DESIGN, tasks: o.tasks, replicates: o.replicates, seed: `g-${seed}` },
      GULLIBLE,
    );
    const episodes: ShopEpisode[] = shopEpisodesFromRecords(gullible);
    const exposures = badExposures(episodes);
    const rng = createRng(`follow-${seed}`);
    for (const [name, arms] of [
      ["injection", INJECTING_ARMS],
      ["injection-basic", ["injection-basic"]],
      ["injection-strong", ["injection-strong"]],
    ] as const) {
      const c = followContrast(episodes, exposures, name, arms, { draws: o.draws, rng: rng.fork(name) });
      const t = truth[name];
      const iv = c.differenceInterval!;
      tally(study.follow, name, iv.low <= t && t <= iv.high, c.difference! - t);
    }
    const u = falseClaimUptake(episodes).uptake;
    tally(
      study.uptake,
      "false-claim uptake",
      u.low! <= truth.falseClaimUptake && truth.falseClaimUptake <= u.high!,
      u.estimate! - truth.falseClaimUptake,
    );
  }
  return study;
}
