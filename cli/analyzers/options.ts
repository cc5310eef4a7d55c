/**
 * The options each environment's analysis adds to `bazaar analyze`, apart from the analyses
 * themselves: `analyze --help` lists them without loading any estimator (DESIGN.md § Start-up).
 * Names must not clash across environments, unless they mean the same thing for each
 * (`addOrShareOption`: one flag whose help names every environment's default).
 */
import type { Command } from "commander";
import { DEFAULT_REFERENCE_PRICE } from "../../analysis/choice/reference-price.ts";

export const DEFAULT_PAIRED_RESAMPLES = 2000;
export const DEFAULT_SHOP_DRAWS = 200;

/**
 * Adds an option, or — when another environment's analysis already has the same flag on a command
 * that serves every environment (`bazaar analyze`) — appends this one's meaning to its help;
 * commander refuses duplicates.
 */
export function addOrShareOption(cmd: Command, flags: string, description: string): void {
  const long = flags.split(/[ ,]/)[0];
  const existing = cmd.options.find((o) => o.long === long);
  if (existing) existing.description += `; ${description}`;
  else cmd.option(flags, description);
}

export function addChoiceAnalyzeOptions(cmd: Command): Command {
  return cmd
    .option(
      "--bootstrap <B>",
      "choice: pair-clustered bootstrap draws shared by all agents (default 500; 0 skips)",
    )
    .option("--bootstrap-seed <seed>", "choice: seed of the bootstrap draws (default bazaar-choice)")
    .option(
      "--reference-price <dollars>",
      `choice: reference price of the log-form WTP (default ${DEFAULT_REFERENCE_PRICE})`,
    )
    .option(
      "--with-runs <ids>",
      "choice: analyze these choice runs' agents together with <run> (comma-separated; * matches any text)",
    )
    .option("--neighborhoods", "choice: add neighborhood controls to the brand premiums")
    .option(
      "--convention <which>",
      'choice: default (first-shown form, non-responses dropped), reference (PriceBench: label form, non-"A" coded "B"; locked models fitted and labelled; the release\'s triage), both, or auto (both when any run is a PriceBench import; the default)',
    );
}

export function addElicitAnalyzeOptions(cmd: Command): Command {
  return cmd
    .option(
      "--consistency-draws <B>",
      "elicit: bootstrap draws of the group test and path intervals (default 2000)",
    )
    .option("--consistency-seed <seed>", "elicit: seed of the bootstrap streams (default bazaar-consistency)")
    .option(
      "--consistency-uncorrected",
      "elicit: resample centred completions as they are (the literal protocol; over-rejects at small n)",
    );
}

export function addBargainAnalyzeOptions(cmd: Command): Command {
  return cmd
    .option(
      "--paired-resamples <n>",
      `bargain: bootstrap resamples of the paired buyer comparison (default ${DEFAULT_PAIRED_RESAMPLES})`,
    )
    .option("--transcript <seq>", "bargain: print one session's transcript (by seq number or trial key)");
}

export function addCueAnalyzeOptions(cmd: Command): Command {
  addOrShareOption(cmd, "--bootstrap <B>", "cue: pair-clustered bootstrap resamples (default 2000; 0 skips)");
  addOrShareOption(cmd, "--bootstrap-seed <seed>", "cue: seed of the bootstrap draws (default 2026)");
  addOrShareOption(
    cmd,
    "--max-non-response <rate>",
    "cue: an agent above this non-response rate is excluded from cross-model claims (default 0.1)",
  );
  return cmd;
}

export function addShopAnalyzeOptions(cmd: Command): Command {
  addOrShareOption(
    cmd,
    "--bootstrap <B>",
    `shop: task-bootstrap draws for pass^k and the price-equivalents (default ${DEFAULT_SHOP_DRAWS}; 0 skips)`,
  );
  addOrShareOption(cmd, "--bootstrap-seed <seed>", "shop: seed of the bootstrap draws (default bazaar-shop)");
  addOrShareOption(
    cmd,
    "--reference-price <dollars>",
    `shop: nightly price the dollar equivalents are at (default ${DEFAULT_REFERENCE_PRICE})`,
  );
  addOrShareOption(
    cmd,
    "--client-faults <mode>",
    "shop with clients: episodes whose client's reply broke a rule against its profile: include, exclude (the default) or only",
  );
  return cmd;
}
