/**
 * An error the user can fix: bad arguments, a malformed file, an impossible design, a store that is
 * not a bazaar store. The CLI prints `message` (and `hint`) on one line and exits with code 2;
 * anything else that escapes is a bug and exits with code 1.
 */
export class UserError extends Error {
  override readonly name = "UserError";
  constructor(
    message: string,
    /** What to do about it, shown after the message. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Whether an error is a `UserError` (or one of its kinds), read by its shape as well as its class. */
export function isUserError(err: unknown): boolean {
  return err instanceof UserError || (err as { name?: unknown } | null)?.name === "UserError";
}

/** One problem found while validating a file: where it is, and what is wrong there. */
export interface Problem {
  file: string;
  /** 1-based row for CSV/JSONL, 0-based index for JSON arrays; undefined for whole-file problems. */
  row?: number;
  field?: string;
  message: string;
}

export function formatProblem(p: Problem): string {
  const where = [p.file, p.row === undefined ? undefined : `row ${p.row}`, p.field]
    .filter(Boolean)
    .join(", ");
  return `${where}: ${p.message}`;
}

/** A file that failed validation; carries every problem, not only the first. */
export class InvalidFileError extends UserError {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
    hint?: string,
  ) {
    const shown = problems.slice(0, 20).map(formatProblem);
    const more = problems.length > 20 ? [`… and ${problems.length - 20} more problems`] : [];
    super(
      `${file} is not valid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${[...shown, ...more].join("\n  ")}`,
      hint,
    );
  }
}

/**
 * An error of bazaar's own code where an agent was to act — a TypeError in the model call's
 * handling, say. It is nobody's answer and no infrastructure's failure: the episode driver lets it
 * through, the run stops with it (exit 1) and the trial stays unplayed, so the same command plays
 * it once the bug is fixed. Never stored as a non-response (DESIGN.md § Failures are not answers).
 */
export class BazaarBug extends Error {
  override readonly name = "BazaarBug";
}

/**
 * bazaar's own error where `who` was to act (`what`: "TypeError: …", nothing secret in it), said as
 * such: the run stops with the trial unplayed.
 */
export function bazaarBug(who: string, what: string, err: unknown): BazaarBug {
  const at = err instanceof Error ? err.stack?.split("\n")[1]?.trim() : undefined;
  return new BazaarBug(
    `a bug in bazaar, not ${who}'s answer: ${what}${at ? ` (${at})` : ""} — the run stopped with this trial unplayed; please report it, and the same command plays the trial once it is fixed`,
    { cause: err },
  );
}

/** "Name: message" of an error, its first line, for a bug's message. */
export function errorLine(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown } | null;
  const what = `${typeof e?.name === "string" ? e.name : "Error"}: ${typeof e?.message === "string" ? e.message : String(err)}`;
  return what.split("\n")[0]!.slice(0, 300);
}

/** Whether an error is a `BazaarBug`, read by its shape: errors that crossed threads are plain objects. */
export function isBazaarBug(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === "BazaarBug";
}
