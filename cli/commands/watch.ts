import type { Command } from "commander";
import type { WatchOptions } from "../actions/watch.ts";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerWatch(program: Command, out: Output): void {
  program
    .command("watch")
    .description("replay a stored run: pick an episode, step through it or play it (plain lines when piped)")
    .argument("<run>", "run id (see `bazaar runs`)")
    .addOption(storeOption())
    .option("--agent <label>", "only this agent's episodes")
    .option(
      "--outcome <value>",
      "only this outcome (bargain: deal, no-deal, invalid; choice: the slot A–E booked)",
    )
    .option("--interest <MI|CI>", "bargain: only mutual- or conflicting-interest sessions")
    .option("--kind <kind>", "choice: only binary, ternary or five-option tasks")
    .option("--non-response <yes|no>", "only episodes that were (yes) or were not (no) non-responses")
    .option("--episode <seq>", "open this episode (piped: print it in full)")
    .option("--limit <n>", "piped: list at most this many episodes", "50")
    .option(
      "--market <key>",
      "market runs: the market to show round by round (e.g. k1-m2; default the first)",
    )
    .option(
      "--follow",
      "watch a run that is running (in another terminal or process): its episodes in flight turn by turn, until it ends",
    )
    .action(async (runId: string, o: WatchOptions) => {
      await (await import("../actions/watch.ts")).watchRun(runId, o, out);
    });
}
