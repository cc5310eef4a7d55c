/**
 * Reading an arm library from JSON: zod validates the file, then the structural checker runs; all
 * problems of a file are reported together (file, wording, field).
 */
import { readFileSync } from "node:fs";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import { checkArmLibrary } from "./check.ts";
import { type ArmLibrary, ArmLibrarySchema } from "./schema.ts";

const HINT =
  'An arm library is JSON: {"markers": {"<arm>": ["<regular expression>", …]}, "wordings": [{arm, n, text, ' +
  "claims?, note?}, …]}. See datasets/descriptions/README.md.";

/** An arm library from a JSON text; `file` names it in messages. Throws InvalidFileError. */
export function parseArmLibrary(text: string, file: string): ArmLibrary {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fail = (message: string): never => {
    throw new InvalidFileError(file, [{ file, message }], HINT);
  };
  if (body.trim() === "") fail("the file is empty");
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (error) {
    fail(`not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ArmLibrarySchema.safeParse(doc);
  if (!parsed.success) {
    const problems: Problem[] = parsed.error.issues.map((i) => {
      const [top, row, ...rest] = i.path.map(String);
      return top === "wordings" && row !== undefined
        ? { file, row: Number(row), field: rest.join(".") || undefined, message: i.message }
        : { file, field: i.path.join(".") || undefined, message: i.message };
    });
    throw new InvalidFileError(file, problems, HINT);
  }
  const structural = checkArmLibrary(parsed.data, file);
  if (structural.length > 0) throw new InvalidFileError(file, structural, HINT);
  return parsed.data;
}

export function loadArmLibrary(path: string): ArmLibrary {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`arm library ${path} does not exist`, "check the path");
    if (code === "EISDIR") throw new UserError(`arm library ${path} is a directory, not a file`);
    throw new UserError(`cannot read arm library ${path}: ${(error as Error).message}`);
  }
  return parseArmLibrary(text, path);
}
