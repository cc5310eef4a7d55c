/**
 * `--until <estimand>±<half-width>`: reading the targets a run stops at. The estimands are each
 * environment's (analysis/<env>/estimands.ts), loaded only when a run asks for one; a half-width is
 * written in its estimand's unit — percentage points for shares and price premiums (`5pts`), dollars
 * for dollar amounts (`$5` or `5usd`), a bare number for a coefficient — and anything else is refused,
 * saying what to write: a bare 5 for a share could mean 5 points or 500.
 */
import { type Command, Option } from "commander";
import type {
  EnvironmentEstimands,
  EstimandSpec,
  HalfWidthUnit,
  PrecisionTarget,
} from "../../analysis/stats/targets.ts";
import { UserError } from "../../environments/kernel/errors.ts";

/** Each environment's estimands, loaded when a run names one. */
const CATALOGUES: Readonly<Record<string, () => Promise<EnvironmentEstimands>>> = {
  choice: async () => (await import("../../analysis/choice/estimands.ts")).CHOICE_ESTIMANDS,
  shop: async () => (await import("../../analysis/shop/estimands.ts")).SHOP_ESTIMANDS,
  bargain: async () => (await import("../../analysis/bargain/estimands.ts")).BARGAIN_ESTIMANDS,
  cue: async () => (await import("../../analysis/cue/estimands.ts")).CUE_ESTIMANDS,
};

/** Why an environment takes no target (the refusal's reason). */
const NO_TARGETS: Readonly<Record<string, string>> = {
  elicit:
    "an elicitation audit is a battery of consistency tests over every query group, not one estimate whose interval narrows as trials come in: run its whole design",
};

/** What `--help` says of each environment's targets (static: help loads no analysis). */
export const UNTIL_HELP: Readonly<Record<string, string>> = {
  choice: "beta-lnp±<n> (utils per ln price), wtp±$<n>, first-shown±<n>pts",
  shop: "success±<n>pts, regret±$<n> (with --client)",
  bargain: "deal-rate±<n>pts, snp±<n>",
  cue: "pe±<n>pts (every condition's price-equivalent, in points of the reference price)",
};

// No default: commander would print "(default: [])" in --help; the run reads undefined as none.
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `--until` on an environment's run: repeatable, each value one target or a comma-separated list. */
export function addUntilOption(cmd: Command, env: string): Command {
  const help = UNTIL_HELP[env];
  if (!help)
    // Defined, hidden, so that the run can refuse it saying why (NO_TARGETS).
    return cmd.addOption(new Option("--until <target>").argParser(collect).hideHelp());
  return cmd.option(
    "--until <target>",
    `stop each agent once the 95% interval of an estimate is this tight: ${help}; '+-' for '±'; several allowed (each must hold); the design's units are played in a seeded random order and a tighter target later extends the run`,
    collect,
  );
}

/** The estimands of an environment, or a UserError saying why it has none. */
export async function estimandsOf(env: string): Promise<EnvironmentEstimands> {
  const load = CATALOGUES[env];
  if (load) return load();
  throw new UserError(
    `--until does not apply to \`run ${env}\`: ${NO_TARGETS[env] ?? "it has no estimands to stop at"}`,
    "drop --until",
  );
}

const NUMBER = String.raw`(\d+(?:\.\d*)?|\.\d+)`;

function unitExample(spec: EstimandSpec): string {
  return spec.unit === "pts"
    ? `${spec.name}±5pts`
    : spec.unit === "usd"
      ? `'${spec.name}±$5' (single quotes keep the shell off $) or ${spec.name}±5usd`
      : `${spec.name}±1.0`;
}

function unitWords(unit: HalfWidthUnit): string {
  return unit === "pts"
    ? "in percentage points"
    : unit === "usd"
      ? "in dollars"
      : "as a bare number in the estimate's own unit";
}

/** The half-width of `written` for `spec`, in the estimand's own scale (a share's 5pts is 0.05). */
function halfWidthOf(spec: EstimandSpec, raw: string, written: string): number {
  const forms: Record<HalfWidthUnit, RegExp[]> = {
    pts: [new RegExp(`^${NUMBER}\\s*pts$`)],
    usd: [new RegExp(`^\\$\\s*${NUMBER}$`), new RegExp(`^${NUMBER}\\s*usd$`)],
    plain: [new RegExp(`^${NUMBER}$`)],
  };
  const match = forms[spec.unit].map((re) => re.exec(raw)).find((m) => m !== null);
  if (!match) {
    const what =
      raw === ""
        ? "gives no half-width after ±"
        : `gives "${raw}": ${spec.name} takes its half-width ${unitWords(spec.unit)}`;
    throw new UserError(`--until "${written}" ${what}`, `write it as ${unitExample(spec)}`);
  }
  const value = Number(match[1]);
  if (!(value > 0 && Number.isFinite(value)))
    throw new UserError(
      `--until "${written}": the half-width must be above 0`,
      `write it as ${unitExample(spec)}`,
    );
  if (spec.unit === "pts" && value >= 50)
    throw new UserError(
      `--until "${written}": a half-width of ${value} points spans the whole range`,
      "ask for less than 50pts, e.g. 5pts",
    );
  return spec.unit === "pts" ? value / 100 : value;
}

/**
 * The targets of a run's `--until` values (each may list several, comma-separated). Throws a
 * UserError naming the value and what to write instead: an unknown estimand (listing the
 * environment's), a half-width in the wrong unit or missing, an estimand named twice.
 */
export function parseTargets(values: readonly string[], catalogue: EnvironmentEstimands): PrecisionTarget[] {
  const known = catalogue.estimands;
  const list = () => known.map((e) => `${e.name} (${e.description})`).join("; ");
  const targets: PrecisionTarget[] = [];
  for (const written of values.flatMap((v) => v.split(",")).map((v) => v.trim())) {
    if (written === "") continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:±|\+-|\+\/-)\s*(.*)$/.exec(written);
    if (!m) {
      const name = /^[A-Za-z][A-Za-z0-9-]*$/.test(written) ? written : null;
      throw new UserError(
        `--until "${written}" is not <estimand>±<half-width>`,
        name && known.some((e) => e.name === name)
          ? `say how tight, e.g. ${unitExample(known.find((e) => e.name === name)!)} ('+-' works for '±')`
          : `e.g. ${unitExample(known[0]!)} ('+-' works for '±'); ${catalogue.env}'s estimands: ${list()}`,
      );
    }
    const spec = known.find((e) => e.name === m[1]);
    if (!spec)
      throw new UserError(
        `--until "${written}": \`run ${catalogue.env}\` has no estimand "${m[1]}"`,
        `${catalogue.env}'s estimands: ${list()}`,
      );
    if (targets.some((t) => t.estimand === spec.name))
      throw new UserError(
        `--until names ${spec.name} twice ("${targets.find((t) => t.estimand === spec.name)!.written}" and "${written}")`,
        "give each estimand one target",
      );
    targets.push({ estimand: spec.name, halfWidth: halfWidthOf(spec, m[2]!.trim(), written), written });
  }
  // An empty `--until ''` must not run the whole design (and forget a stored rule) by accident.
  if (targets.length === 0 && values.length > 0)
    throw new UserError(
      "--until names no target",
      `e.g. ${unitExample(known[0]!)}; ${catalogue.env}'s estimands: ${list()} (leave --until out to play the whole design)`,
    );
  return targets;
}
