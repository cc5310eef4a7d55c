import type { Command } from "commander";
import { UserError } from "../../environments/kernel/errors.ts";
import { DEFAULT_MAX_ABANDONS } from "../../environments/kernel/failures.ts";
import type { ServeOptions } from "../actions/serve.ts";
import type { Output } from "../output.ts";
import { ENVIRONMENT_CLIS, type EnvironmentCli } from "../run/index.ts";
import { hideInapplicable, refuseInapplicable } from "./inapplicable.ts";
import { addSharedOptions, OUTSIDE_HEADING, optionOwners, strayOption, visible } from "./run.ts";
import { notServed, roleInArgs, SERVED, type ServedEnvironment } from "./served.ts";

/** `--role`'s help: the roles, each with what it is where that needs saying. */
function rolesText(served: ServedEnvironment | undefined): string {
  const roles = Object.entries(served?.roles ?? {});
  if (roles.length === 0) return "the role the outside agent plays";
  const said = roles.map(([name, r]) => (r.what ? `${name} (${r.what})` : name));
  return `the role the outside agent plays: ${said.join(", or ")}`;
}

/** What `serve` adds to an environment's run options: who connects, where, and how long it stays. */
function addServeOptions(cmd: Command, served: ServedEnvironment | undefined): Command {
  const roles = Object.keys(served?.roles ?? {});
  return cmd
    .requiredOption("--agent-name <name>", "the outside agent's name: its trials are stored as mcp:<name>")
    .option("--role <role>", rolesText(served), roles[0] ?? "buyer")
    .option(
      "--max-abandons <n>",
      "MCP sessions in a row that may end with the same trial claimed and no step taken (each leaves it failed, played again) before that is the agent's non-answer, stored as 'left without acting'",
      String(DEFAULT_MAX_ABANDONS),
    )
    .option(
      "--port <n>",
      "port of the MCP endpoint (Streamable HTTP at http://<host>:<port>/mcp); 0 picks a free one",
      "8765",
    )
    .option("--host <address>", "address to listen on; off loopback it needs --token", "127.0.0.1")
    .option("--token <secret>", "a bearer token every request must carry (Authorization: Bearer <secret>)")
    .option("--stdio", "serve one MCP session on stdin/stdout instead (it plays episodes one after another)")
    .option("--keep-open", "stay up once every trial is stored (new sessions are told the run is complete)");
}

async function defineServe(sub: Command, envCli: EnvironmentCli, out: Output, args: readonly string[]) {
  const served = SERVED[envCli.name];
  const roles = served ? Object.keys(served.roles) : [];
  // The help shows what applies to the role asked for (the default's when --role is not given).
  const rules = notServed(envCli.name, roleInArgs(args, roles[0] ?? "buyer"));
  const addOptions = await envCli.options();
  addOptions(sub.optionsGroup(`${envCli.name} options:`));
  addServeOptions(sub.optionsGroup("serve options:"), served);
  addSharedOptions(sub.optionsGroup("run options:"));
  // The served agent is an outside agent too; exec:, module: and a2a: ones may play beside it.
  const beside =
    served?.exec !== false ? "; exec:<command>, module:<file>[#export], a2a:<url> beside it" : "";
  for (const o of sub.options)
    if (o.helpGroupHeading === OUTSIDE_HEADING)
      o.helpGroup(`agents from outside (mcp:<name>, served${beside}):`);
  hideInapplicable(sub, rules);
  sub
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (o: ServeOptions, cmd: Command) => {
      const stray = cmd.args.find((a) => a.startsWith("-"));
      if (stray) throw strayOption(envCli.name, stray, await optionOwners(), visible(sub), "serve");
      if (cmd.args.length > 0)
        throw new UserError(`\`serve ${envCli.name}\` takes no arguments, got "${cmd.args[0]}"`);
      refuseInapplicable(cmd, notServed(envCli.name, o.role), `serve ${envCli.name}`);
      const { serveEnvironment } = await import("../actions/serve.ts");
      await serveEnvironment(envCli, o, out);
    });
}

export function registerServe(program: Command, out: Output): void {
  const serve = program
    .command("serve")
    .description("serve a run's episodes as MCP tools to an outside agent (any language, any framework)")
    .usage("<environment> --agent-name <name> [options]")
    .addHelpText(
      "after",
      "\nEach MCP session plays the next unfinished trial of the run, claimed at its first tool call. A session\nthat ends before its episode does leaves the trial failed, played again by a later one; a trial left\nwithout a single step by --max-abandons sessions in a row (default 3) is the agent's non-answer.\nA seller plays inside the run's own episodes: serve shop --negotiable <r> --role seller, one session\na negotiation (several at once); serve market, one session an adopter's seller turn.\nEach environment has its own options: bazaar serve <environment> --help.",
    )
    .configureHelp({ subcommandTerm: (sub) => `${sub.name()} [options]` });
  for (const envCli of ENVIRONMENT_CLIS) serve.command(envCli.name).description(envCli.summary);
  serve.hook("preSubcommand", async (served, sub) => {
    const envCli = ENVIRONMENT_CLIS.find((e) => e.name === sub.name());
    // `served.args`: the words after `serve`, not parsed yet (the environment's name first).
    if (envCli) await defineServe(sub, envCli, out, served.args.slice(1));
  });
  serve
    .argument("[environment]")
    .allowUnknownOption()
    .allowExcessArguments()
    .action((env: string | undefined) => {
      const valid = `valid environments: ${ENVIRONMENT_CLIS.map((e) => e.name).join(", ")} (bazaar serve --help)`;
      if (env === undefined)
        throw new UserError(
          "name the environment to serve, e.g. bazaar serve shop --agent-name my-agent",
          valid,
        );
      throw new UserError(`unknown environment "${env}"`, valid);
    });
}
