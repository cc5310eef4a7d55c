/**
 * Options a command gets from a shared builder (the run options, the model options, an
 * environment's own) that do not apply to it — `run market` takes no `--limit`, `serve choice` has
 * no model to set. Its help lists only what applies, so they are hidden; and since they are still
 * defined (the builders stay shared, defaults keep flowing), one given on the command line would be
 * accepted and then ignored: it is refused instead, saying why.
 */
import type { Command } from "commander";
import { UserError } from "../../environments/kernel/errors.ts";

export interface Inapplicable {
  /** Long flags (`--batch`). */
  flags: readonly string[];
  /** Why they do not apply (the refusal's reason). */
  why: string;
  /** The command's action refuses these itself, with advice of its own: only hide them. */
  refusedByAction?: boolean;
}

/** Hides each of the rules' options that `cmd` defines. */
export function hideInapplicable(cmd: Command, rules: readonly Inapplicable[]): void {
  const hidden = new Set(rules.flatMap((r) => r.flags));
  for (const option of cmd.options) if (option.long && hidden.has(option.long)) option.hideHelp();
}

/** Throws for the first of the rules' options given on the command line (`command`: `serve shop`). */
export function refuseInapplicable(cmd: Command, rules: readonly Inapplicable[], command: string): void {
  for (const rule of rules) {
    if (rule.refusedByAction) continue;
    for (const flag of rule.flags) {
      // A negatable flag (`--no-cache`) is the option its positive name stands for.
      const option = cmd.options.find((o) => o.long === flag);
      if (!option || cmd.getOptionValueSource(option.attributeName()) !== "cli") continue;
      throw new UserError(
        `${flag} does not apply to \`${command}\`: ${rule.why}`,
        `drop ${flag} (bazaar ${command} --help lists the options that apply)`,
      );
    }
  }
}
