import type { Command } from "commander";
import { UserError } from "../../environments/kernel/errors.ts";
import type { ServeOptions } from "../actions/serve.ts";
import type { Output } from "../output.ts";
import { ENVIRONMENT_CLIS, type EnvironmentCli } from "../run/index.ts";
import { addSharedOptions, optionOwners, strayOption, visible } from "./run.ts";

/** What `serve` adds to an environment's run options: who connects, where, and how long it stays. */
function addServeOptions(cmd: Command): Command {
  return cmd
    .requiredOption("--agent-name <name>", "the outside agent's name: its trials are stored as mcp:<name>")
    .option("--role <role>", "bargain: the role the outside agent plays, buyer or seller", "buyer")
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

async function defineServe(sub: Command, envCli: EnvironmentCli, out: Output): Promise<void> {
  const addOptions = await envCli.options();
  addOptions(sub.optionsGroup(`${envCli.name} options:`));
  addServeOptions(sub.optionsGroup("serve options:"));
  addSharedOptions(sub.optionsGroup("run options:"))
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (o: ServeOptions, cmd: Command) => {
      const stray = cmd.args.find((a) => a.startsWith("-"));
      if (stray) throw strayOption(envCli.name, stray, await optionOwners(), visible(sub));
      if (cmd.args.length > 0)
        throw new UserError(`\`serve ${envCli.name}\` takes no arguments, got "${cmd.args[0]}"`);
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
      "\nEach MCP session plays the next unfinished trial of the run, claimed at its first tool call.\nEach environment has its own options: bazaar serve <environment> --help.",
    )
    .configureHelp({ subcommandTerm: (sub) => `${sub.name()} [options]` });
  for (const envCli of ENVIRONMENT_CLIS) serve.command(envCli.name).description(envCli.summary);
  serve.hook("preSubcommand", async (_serve, sub) => {
    const envCli = ENVIRONMENT_CLIS.find((e) => e.name === sub.name());
    if (envCli) await defineServe(sub, envCli, out);
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
