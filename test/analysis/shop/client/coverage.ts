/**
 * The coverage study of the paired regret difference (sim:asks-first − sim:careful, both working
 * for sim:terse), on a design whose truth is exact.
 *
 * The population is a fixed pool of tasks from the default design, each equally likely. On a task
 * both shoppers follow one path (what they ask, search and open is a function of the task alone:
 * no draw before the booking), and the booking is a logit draw over what they opened (β =
 * CAREFUL_BETA). So each shopper's regret on a task has an exact law: the opened listings'
 * regrets with their logit probabilities (or one value, where it gave up) — read off one played
 * episode per task and shopper (`regretPool`). The truth is the pool's mean of the two laws'
 * expected regrets' difference, exact up to rounding.
 *
 * A replication draws G tasks from the pool with replacement (each drawn task a cluster of its
 * own), R replicates of each, and each shopper's regret on each unit from its law — the process a
 * run of the two shoppers on G tasks is — and asks whether the paired interval holds the truth.
 */
import { type ClientEpisode, compareShoppers } from "../../../../analysis/shop/client/index.ts";
import { createRng, type Rng } from "../../../../environments/kernel/rng.ts";
import type { ShopTask, ShopTrialRecord } from "../../../../environments/shop/index.ts";
import { expectedOutcomes, playClients } from "./sim.ts";

export const TREATMENT = "sim:asks-first";
export const CONTROL = "sim:careful";

/** One shopper's regret on a task: its possible values, their probabilities, and whether each succeeds. */
export interface RegretLaw {
  regret: number[];
  p: number[];
  success: boolean[];
  messages: number;
}

export interface PoolTask {
  taskId: string;
  treatment: RegretLaw;
  control: RegretLaw;
}

function lawOf(r: ShopTrialRecord): RegretLaw {
  const o = expectedOutcomes(r);
  return { ...o, messages: r.burden!.messages };
}

/** The pool: one played episode per task and shopper, read as the laws of their regrets. */
export async function regretPool(tasks: readonly ShopTask[], seed: string): Promise<PoolTask[]> {
  const play = (shopper: string) => playClients({ tasks, shopper, client: "terse", replicates: 1, seed });
  const t = await play("asks-first");
  const c = await play("careful");
  return tasks.map((task, i) => ({ taskId: task.taskId, treatment: lawOf(t[i]!), control: lawOf(c[i]!) }));
}

const mean = (l: RegretLaw) => l.p.reduce((a, q, i) => a + q * l.regret[i]!, 0);

/** The population's paired regret difference: the pool's mean of E[treatment] − E[control]. */
export function poolTruth(pool: readonly PoolTask[]): number {
  return pool.reduce((a, t) => a + mean(t.treatment) - mean(t.control), 0) / pool.length;
}

function draw(l: RegretLaw, rng: Rng): number {
  const u = rng.next();
  let acc = 0;
  for (let i = 0; i < l.p.length; i++) {
    acc += l.p[i]!;
    if (u < acc) return i;
  }
  return l.p.length - 1;
}

function episode(
  shopper: string,
  cluster: string,
  replicate: number,
  l: RegretLaw,
  k: number,
): ClientEpisode {
  return {
    agent: `${shopper} for sim:terse`,
    shopper,
    client: { spec: "sim:terse" },
    taskId: cluster,
    replicate,
    success: l.success[k]!,
    regret: l.regret[k]!,
    burden: { messages: l.messages, repeats: 0, patienceOut: false },
  } as unknown as ClientEpisode;
}

/** The episodes of one replication: G tasks drawn from the pool, R replicates each. */
export function pairedSample(
  pool: readonly PoolTask[],
  rng: Rng,
  tasks: number,
  replicates: number,
): ClientEpisode[] {
  const out: ClientEpisode[] = [];
  for (let g = 0; g < tasks; g++) {
    const t = pool[rng.int(pool.length)]!;
    for (let r = 0; r < replicates; r++) {
      out.push(episode(TREATMENT, `g${g}`, r, t.treatment, draw(t.treatment, rng)));
      out.push(episode(CONTROL, `g${g}`, r, t.control, draw(t.control, rng)));
    }
  }
  return out;
}

/** The share of seeded replications whose paired regret interval holds the pool's truth. */
export function regretCoverage(args: {
  pool: readonly PoolTask[];
  replications: number;
  tasks: number;
  replicates: number;
  draws: number;
  level: number;
  seed: string;
}): { coverage: number; replications: number; meanWidth: number } {
  const truth = poolTruth(args.pool);
  let hit = 0;
  let width = 0;
  for (let i = 0; i < args.replications; i++) {
    const rng = createRng(`${args.seed}/${i}`);
    const c = compareShoppers(pairedSample(args.pool, rng, args.tasks, args.replicates), TREATMENT, CONTROL, {
      client: "sim:terse",
      draws: args.draws,
      level: args.level,
      seed: `${args.seed}/${i}`,
    });
    const iv = c.regret.interval!;
    if (iv.low <= truth && truth <= iv.high) hit++;
    width += iv.high - iv.low;
  }
  return {
    coverage: hit / args.replications,
    replications: args.replications,
    meanWidth: width / args.replications,
  };
}
