import { Command, Option } from "commander";
import { UserError } from "../../environments/kernel/errors.ts";
import type { RunOptions } from "../actions/run.ts";
import { addLlmOptions } from "../llm-options.ts";
import type { Output } from "../output.ts";
import { addOutsideOptions } from "../outside-options.ts";
import { ENVIRONMENT_CLIS, type EnvironmentCli } from "../run/index.ts";
import { storeOption } from "../store-option.ts";
import { hideInapplicable, type Inapplicable, refuseInapplicable } from "./inapplicable.ts";

/** The help heading of the outside agents' options (serve words it for its served agent). */
export const OUTSIDE_HEADING = "agents from outside (exec:<command>, module:<file>[#export], a2a:<url>):";

/** The options every environment's `run` takes: where trials go, how many run at once, how to watch. */
export function addSharedOptions(cmd: Command): Command {
  return addOutsideOptions(addRunOptions(cmd).optionsGroup(OUTSIDE_HEADING));
}

function addRunOptions(cmd: Command): Command {
  return addLlmOptions(
    cmd
      .option("--limit <n>", "run only the first n trials of the design (a quick try)")
      .option("--seed <seed>", "design seed (number or text)")
      .addOption(storeOption())
      .option("--concurrency <n>", "trials in flight at once", "8")
      .option(
        "--workers <n>",
        "worker threads for LLM agents' turns: 0 (all in one thread), n, or auto (one per spare core on 4+ cores when a run is CPU-bound; not measured faster on 2 cores)",
        "0",
      )
      .option(
        "--retry-errors",
        "also re-run the trials whose agent errored on the request itself (stored as non-responses, e.g. an HTTP 400, or an outside agent that left without acting); failed trials (a model call that failed after every retry, an outside agent gone mid-episode) always run again",
      )
      .option("--json", "print the result as JSON")
      .option("--watch", "live dashboard on a terminal; plain progress lines when output is not a terminal")
      .option(
        "--prices <file>",
        "price table JSON: the dollar cost in the run summary and --watch (see `bazaar runs`)",
      )
      .option(
        "--batch",
        "send the LLM agents' calls through the provider's batch API (/v1/files + /v1/batches: half the price, up to a day per round); resumable",
      )
      .option("--batch-size <n>", "with --batch: trials in flight, so requests per round", "10000")
      // How soon a killed runner's trials go to the other runners of the run (tests shorten it).
      .addOption(new Option("--lease-ms <ms>").hideHelp())
      .optionsGroup("LLM agents (openai:<model>):"),
  );
}

/**
 * A flag the subcommand does not know: another environment's (named, so the user sees where it
 * belongs) or no one's (in commander's wording, with the flags it may be a typo of).
 */
export function strayOption(
  env: string,
  flag: string,
  owners: ReadonlyMap<string, readonly string[]>,
  known: readonly string[],
  command: "run" | "serve" = "run",
): UserError {
  const name = flag.replace(/=.*$/, "");
  const others = [...owners].filter(([other, flags]) => other !== env && flags.includes(name));
  if (others.length > 0) {
    const names = others.map(([other]) => `\`${command} ${other}\``);
    const where = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
    return new UserError(
      `${name} is an option of ${where}, not of \`${command} ${env}\``,
      `see bazaar ${command} ${env} --help`,
    );
  }
  const near = known.filter((k) => k.startsWith(name.slice(0, 4)));
  return new UserError(
    `unknown option '${name}' for \`${command} ${env}\``,
    near.length
      ? `did you mean ${near.join(" or ")}? (bazaar ${command} ${env} --help lists them)`
      : `bazaar ${command} ${env} --help lists its options`,
  );
}

/** Each flag a command shows in its help (hidden ones are there only to be refused with advice). */
export function visible(c: Command): string[] {
  return c.options.filter((o) => !o.hidden).map((o) => o.long!);
}

/** Each environment's own flags (not the shared ones): to say whose a stray flag is. */
export async function optionOwners(): Promise<Map<string, string[]>> {
  const shared = new Set(visible(addSharedOptions(new Command())));
  const owners = await Promise.all(
    ENVIRONMENT_CLIS.map(async (e) => {
      const addOptions = await e.options();
      return [e.name, visible(addOptions(new Command())).filter((f) => !shared.has(f))] as const;
    }),
  );
  return new Map(owners);
}

/** Shared options that do not apply to an environment's run (hidden from its help, refused when given). */
const NOT_RUN: Readonly<Record<string, readonly Inapplicable[]>> = {
  // A market is rounds of runs, each built on the last (its driver refuses these, with advice).
  market: [
    {
      flags: ["--limit", "--retry-errors"],
      why: "a market's later rounds are built on its earlier ones",
      refusedByAction: true,
    },
    { flags: ["--prices"], why: "its live view shows no cost (bazaar runs --prices prices its runs)" },
  ],
};

/** What `run <env>` does with its checked options: the environment's driver, or the run. */
async function runWith(envCli: EnvironmentCli, o: RunOptions, out: Output): Promise<void> {
  if (envCli.driver) return (await envCli.driver())(o, out);
  const { runEnvironment } = await import("../actions/run.ts");
  await runEnvironment(envCli, o, out);
}

/**
 * An environment's subcommand in full: its own options, the shared ones, and the action — `act`
 * once the arguments are checked (what `run <env>` does, unless a caller parses a run's options for
 * a run of its own).
 */
async function defineEnvironment(
  sub: Command,
  envCli: EnvironmentCli,
  out: Output,
  act: (o: RunOptions) => Promise<void> = (o) => runWith(envCli, o, out),
): Promise<void> {
  const rules = NOT_RUN[envCli.name] ?? [];
  const addOptions = await envCli.options();
  addOptions(sub.optionsGroup(`${envCli.name} options:`));
  const a = envCli.answer;
  sub.addHelpText(
    "after",
    `\nLLM agents in ${envCli.name} runs, unless --max-tokens and --tool-choice say otherwise: each model call capped at ${a.maxTokens.text} tokens in text mode and ${a.maxTokens.tools} in tools mode (reasoning models get room for their reasoning on top); tools mode sends tool_choice ${a.toolChoice}.`,
  );
  addSharedOptions(sub.optionsGroup("run options:"))
    // Unknown flags reach the action, which says whose option they are (see strayOption).
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (o: RunOptions, cmd: Command) => {
      const stray = cmd.args.find((a) => a.startsWith("-"));
      if (stray) throw strayOption(envCli.name, stray, await optionOwners(), visible(sub));
      if (cmd.args.length > 0)
        throw new UserError(`\`run ${envCli.name}\` takes no arguments, got "${cmd.args[0]}"`);
      refuseInapplicable(cmd, rules, `run ${envCli.name}`);
      await act(o);
    });
  hideInapplicable(sub, rules);
}

/**
 * `args` read exactly as `bazaar run <env> <args>` reads them — its options, defaults, and refusals
 * of a stray or inapplicable option (UserError) — without running anything: for a command that runs
 * a run on someone's behalf (`serve-assessor`). Commander's own complaints (a missing value) are
 * thrown as CommanderErrors; nothing is printed.
 */
export async function parseRunOptions(envCli: EnvironmentCli, args: readonly string[]): Promise<RunOptions> {
  const silent: Output = { log: () => {}, error: () => {} };
  const sub = new Command(envCli.name)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} });
  let parsed: RunOptions | undefined;
  await defineEnvironment(sub, envCli, silent, async (o) => {
    parsed = o;
  });
  await sub.parseAsync([...args], { from: "user" });
  if (!parsed) throw new UserError(`\`run ${envCli.name}\` did not read its options`);
  return parsed;
}

export function registerRun(program: Command, out: Output): void {
  const run = program
    .command("run")
    .description("run an experiment and store every trial (resumes an interrupted run)")
    .usage("<environment> [options]")
    .addHelpText("after", "\nEach environment has its own options: bazaar run <environment> --help.")
    // The subcommands' options are defined only when one runs (below), but every one has them.
    .configureHelp({ subcommandTerm: (sub) => `${sub.name()} [options]` });
  for (const envCli of ENVIRONMENT_CLIS) run.command(envCli.name).description(envCli.summary);
  // An environment's options are defined when its subcommand is about to parse (commander runs this
  // hook before the subcommand reads its arguments, --help included): no other command loads them.
  run.hook("preSubcommand", async (_run, sub) => {
    const envCli = ENVIRONMENT_CLIS.find((e) => e.name === sub.name());
    if (envCli) await defineEnvironment(sub, envCli, out);
  });
  // `bazaar run` or `bazaar run <not an environment>`: name the environments there are.
  run
    .argument("[environment]")
    .allowUnknownOption()
    .allowExcessArguments()
    .action((env: string | undefined) => {
      const valid = `valid environments: ${ENVIRONMENT_CLIS.map((e) => e.name).join(", ")} (bazaar run --help)`;
      if (env === undefined)
        throw new UserError("name the environment to run, e.g. bazaar run choice", valid);
      if (env.startsWith("-"))
        throw new UserError(`options go after the environment: bazaar run <environment> ${env} …`, valid);
      throw new UserError(`unknown environment "${env}"`, valid);
    });
}
