import { Command, CommanderError } from "commander";
import { UserError } from "../environments/kernel/errors.ts";
import { registerAnalyze } from "./commands/analyze.ts";
import { registerBatches } from "./commands/batches.ts";
import { registerCache } from "./commands/cache.ts";
import { registerDatasets } from "./commands/datasets.ts";
import { registerExport } from "./commands/export.ts";
import { registerImport } from "./commands/import.ts";
import { registerRun } from "./commands/run.ts";
import { registerRuns } from "./commands/runs.ts";
import { registerServe } from "./commands/serve.ts";
import { registerServeAssessor } from "./commands/serve-assessor.ts";
import { registerServeSim } from "./commands/serve-sim.ts";
import { registerStore } from "./commands/store.ts";
import { registerView } from "./commands/view.ts";
import { registerWatch } from "./commands/watch.ts";
import { EXIT } from "./exit.ts";
import { consoleOutput, type Output } from "./output.ts";
import { VERSION } from "./version.ts";

export { EXIT };

export function buildProgram(out: Output = consoleOutput): Command {
  const program = new Command("bazaar")
    .description("a simulator and audit bench for LLM shopping agents")
    .version(VERSION)
    .showHelpAfterError("(add --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  registerRun(program, out);
  registerRuns(program, out);
  registerBatches(program, out);
  registerExport(program, out);
  registerImport(program, out);
  registerCache(program, out);
  registerStore(program, out);
  registerAnalyze(program, out);
  registerServe(program, out);
  registerServeSim(program, out);
  registerServeAssessor(program, out);
  registerDatasets(program, out);
  registerWatch(program, out);
  registerView(program, out);
  for (const cmd of program.commands) cmd.exitOverride().showHelpAfterError("(add --help for usage)");
  return program;
}

export async function main(argv: string[], out: Output = consoleOutput): Promise<number> {
  try {
    await buildProgram(out).parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are successful exits; everything else commander rejects is bad usage.
      return err.code === "commander.helpDisplayed" ||
        err.code === "commander.version" ||
        err.code === "commander.help"
        ? EXIT.ok
        : EXIT.usage;
    }
    if (err instanceof UserError) {
      out.error(`bazaar: ${err.message}${err.hint ? `\n  ${err.hint}` : ""}`);
      return EXIT.usage;
    }
    out.error(
      `bazaar: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return EXIT.failure;
  }
}

const isEntry = process.argv[1] !== undefined && /bazaar(\.js)?$|cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) {
  // LangChain builds LangSmith run trees for every call unless tracing is switched off outright;
  // users who want LangSmith traces set LANGSMITH_TRACING=true themselves.
  process.env.LANGSMITH_TRACING ??= "false";
  // `bazaar export … | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
