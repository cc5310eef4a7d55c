/**
 * An `exec:` command split into words as a POSIX shell splits them — blanks separate words, single
 * quotes keep everything literally, double quotes keep everything but `\"`, `\\`, `\$`, `` \` `` and
 * a backslash-newline, and a backslash outside quotes keeps the next character — and nothing more: no
 * variables, globs, `~`, pipes or redirections (the command runs without a shell; to use one, say so:
 * `exec:sh -c '…'`).
 */
import { UserError } from "../../environments/kernel/errors.ts";

const BLANK = /[ \t\n]/;
/** What a backslash escapes inside double quotes (elsewhere there it is itself). */
const DQ_ESCAPABLE = new Set(['"', "\\", "$", "`", "\n"]);

/** The words of `command`; a UserError for an unterminated quote or a trailing backslash. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = "";
  // A word is started by any character, quotes included: `''` is one empty word.
  let inWord = false;
  let i = 0;
  const n = command.length;
  while (i < n) {
    const c = command[i] as string;
    if (BLANK.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "\\") {
      if (i + 1 >= n) throw unterminated(command, "a backslash at the end");
      const next = command[i + 1] as string;
      // A backslash-newline joins lines; any other escaped character is itself.
      if (next !== "\n") word += next;
      else if (word === "") inWord = false;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw unterminated(command, "a single quote that is never closed");
      word += command.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      for (;;) {
        if (i >= n) throw unterminated(command, "a double quote that is never closed");
        const d = command[i] as string;
        if (d === '"') {
          i++;
          break;
        }
        if (d === "\\" && i + 1 < n && DQ_ESCAPABLE.has(command[i + 1] as string)) {
          if (command[i + 1] !== "\n") word += command[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      continue;
    }
    word += c;
    i++;
  }
  if (inWord) words.push(word);
  return words;
}

function unterminated(command: string, what: string): UserError {
  return new UserError(
    `exec: command ${JSON.stringify(command)} has ${what}`,
    "the command is split into words as a shell would split it (quotes and backslashes) and run without one",
  );
}
