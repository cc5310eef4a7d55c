import type { Command } from "commander";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerCache(program: Command, out: Output): void {
  const cache = program.command("cache").description("inspect or clear the LLM response cache in a store");
  cache
    .command("stats")
    .description("cached responses per model")
    .addOption(storeOption())
    .option("--json", "print as JSON")
    .action(async (o: { store: string; json?: boolean }) => {
      (await import("../actions/cache.ts")).cacheStats(o, out);
    });
  cache
    .command("clear")
    .description("delete cached responses (of one model, or all)")
    .option("--model <name>", "only this model's responses")
    .addOption(storeOption())
    .action(async (o: { store: string; model?: string }) => {
      (await import("../actions/cache.ts")).cacheClear(o, out);
    });
  for (const c of cache.commands) c.exitOverride();
}
