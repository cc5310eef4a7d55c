/**
 * What the live views show of a run's stopping rule (`--until`): how many trials the rule can store
 * at most (it stops each agent as soon as its targets hold, so the design's total is only a bound),
 * and where each agent's targets stood at its last look (`beta-lnp ±1.42 → ±1`). The rule
 * (cli/run/until-rule.ts) makes a new `UntilView` at each look from the estimates it computed for
 * its decision; the views only read the latest, so a frame fits nothing.
 */
import { count } from "./format.ts";

export interface UntilTargetView {
  estimand: string;
  /** Its half-width at the agent's last look (`±1.42`), "n/a" where it does not apply, "–" before one. */
  now: string;
  /** The half-width asked (`±1`). */
  asked: string;
  /** It asks nothing more: as tight as asked, or does not apply. */
  done: boolean;
}

export interface UntilAgentView {
  agent: string;
  /**
   * Its trials the run stores at most: those of every task a target draws on (and any stored
   * before of the others); once it has stopped, the ones it stored.
   */
  atMost: number;
  /** The look (1-based) after which its targets held; null while it plays, or once played out. */
  stoppedAt: number | null;
  /** It plays on (false once stopped or played out). */
  playing: boolean;
  targets: readonly UntilTargetView[];
}

export interface UntilView {
  /** The targets as the user wrote them. */
  written: readonly string[];
  /** Looks made so far, of the looks the design has. */
  looks: number;
  lookCount: number;
  /** Units before the first look (said while there has been none). */
  firstLookUnits: number;
  agents: readonly UntilAgentView[];
}

/** A view's bound of the run's trials: the agents' bounds, never below what is stored. */
export function untilBound(u: UntilView, stored: number): number {
  let sum = 0;
  for (const a of u.agents) sum += a.atMost;
  return Math.max(sum, stored);
}

/**
 * What the views count the run against: the design's `total`, or under `--until` the rule's bound
 * (never above the total); `bounded` while an agent still plays and the count is only a bound.
 */
export function untilTarget(
  u: UntilView | null | undefined,
  total: number,
  stored: number,
): { target: number; bounded: boolean } {
  if (!u) return { target: total, bounded: false };
  const target = Math.min(total, untilBound(u, stored));
  return { target, bounded: u.agents.some((a) => a.playing) && stored < target };
}

/** One target where it stands: `beta-lnp ±1.42 → ±1` (its half-width now, and the one asked). */
export function targetText(t: UntilTargetView): string {
  return `${t.estimand} ${t.now} → ${t.asked}`;
}

/** `beta-lnp ±1.42 → ±1, first-shown ±3.9pts → ±5pts ✓` (✓: asks nothing more), and whether it stopped. */
export function untilTargetsText(a: UntilAgentView): string {
  const targets = a.targets.map((t) => `${targetText(t)}${t.done ? " ✓" : ""}`).join(", ");
  if (a.stoppedAt !== null) return `${targets} · stopped at look ${a.stoppedAt}`;
  return a.playing ? targets : `${targets} · played out`;
}

/** Where the rule is: `look 12/37`, or before the first look, when that comes. */
export function untilLookText(u: UntilView): string {
  return u.looks === 0
    ? `first look after ${u.firstLookUnits} units (of ${u.lookCount} looks)`
    : `look ${u.looks}/${u.lookCount}`;
}

/**
 * The rule in one line, for one agent or as the head of the agents' lines:
 * `until beta-lnp±1.0 · look 12/37 · beta-lnp ±1.42 → ±1 · stops once it holds (≤ 3,600 trials)`.
 */
export function untilHeadText(u: UntilView, stored: number): string {
  const head = `until ${u.written.join(", ")} · ${untilLookText(u)}`;
  // While an agent plays, the bound and why it is one; once none does, the counts are exact.
  const bound = ` (≤ ${count(untilBound(u, stored))} trials)`;
  if (u.agents.length === 1) {
    const a = u.agents[0]!;
    const how = a.playing ? ` · stops once ${a.targets.length === 1 ? "it holds" : "they hold"}${bound}` : "";
    return `${head} · ${untilTargetsText(a)}${how}`;
  }
  return u.agents.some((a) => a.playing) ? `${head} · each agent stops once its targets hold${bound}` : head;
}

/** The agents' lines under the head (none for one agent: the head says it). */
export function untilAgentLines(u: UntilView, nameWidth: number): string[] {
  if (u.agents.length === 1) return [];
  return u.agents.map((a) => `  ${a.agent.padEnd(nameWidth)}  ${untilTargetsText(a)}`);
}

/**
 * The rule as a terminal progress line's tail: where the look is, and each playing agent's targets
 * (`look 12/37 · beta-lnp ±1.42 → ±1`; with several agents, named, and how many have stopped).
 */
export function untilShortText(u: UntilView): string {
  const parts = [untilLookText(u)];
  if (u.agents.length === 1) parts.push(untilTargetsText(u.agents[0]!));
  else {
    const stopped = u.agents.filter((a) => !a.playing).length;
    if (stopped > 0) parts.push(`${stopped} of ${u.agents.length} agents done`);
    for (const a of u.agents) if (a.playing) parts.push(`${a.agent} ${untilTargetsText(a)}`);
  }
  return parts.join(" · ");
}
