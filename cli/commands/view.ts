import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerView(program: Command, out: Output): void {
  program
    .command("view")
    .description(
      "a read-only web viewer of the store's runs, episodes and figures, live (or --bundle: a static site of runs)",
    )
    .argument("[runs...]", "runs to open first (--open goes to the first), or to bundle (default: every run)")
    .addOption(storeOption())
    .option("--port <n>", "the port to listen on (0: any free one)", "8787")
    .option("--host <address>", "the address to listen on; off loopback it needs --token", "127.0.0.1")
    .option("--token <secret>", "a token every request must carry (needed off loopback; $BAZAAR_VIEW_TOKEN)")
    .option("--open", "open the viewer in the default browser")
    .option(
      "--bundle <dir>",
      "write the runs as a static site (HTML + data scripts) that opens from disk, and exit",
    )
    .action(async (runs: string[], o) => {
      await (await import("../view/command.ts")).viewCommand(runs, o, out);
    });
}
