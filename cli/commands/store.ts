import type { Command } from "commander";
import type { Output } from "../output.ts";

export function registerStore(program: Command, out: Output): void {
  const store = program
    .command("store")
    .description("move runs between stores (SQLite files, PostgreSQL databases)");
  store
    .command("copy <from> <to>")
    .description(
      "copy runs (tasks, trials, failed trials) from one store to another in one transaction: whole or not at all; a run the target has already gains the trials it lacks",
    )
    .option("--run <id>", "only this run (repeat for several)", (v: string, acc: string[] = []) => [
      ...acc,
      v,
    ])
    .option("--cache", "also copy the LLM response cache")
    .option("--json", "print as JSON")
    .action(
      async (fromLoc: string, toLoc: string, o: { run?: string[]; cache?: boolean; json?: boolean }) => {
        (await import("../actions/store.ts")).copyStore(fromLoc, toLoc, o, out);
      },
    );
  for (const c of store.commands) c.exitOverride();
}
