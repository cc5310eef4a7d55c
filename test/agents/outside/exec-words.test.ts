/** `exec:` commands are split into words as a POSIX shell splits them, and nothing more. */
import { describe, expect, it } from "vitest";
import { splitCommand } from "../../../agents/outside/exec-words.ts";
import { UserError } from "../../../environments/kernel/errors.ts";

describe("splitCommand", () => {
  it("splits on blanks, keeps quoted text whole and unquotes it", () => {
    expect(splitCommand("python3 my_agent.py --model gpt-4o")).toEqual([
      "python3",
      "my_agent.py",
      "--model",
      "gpt-4o",
    ]);
    expect(splitCommand("  node\t a.mjs \n")).toEqual(["node", "a.mjs"]);
    expect(splitCommand(`node 'my agent.mjs' "--name=two words"`)).toEqual([
      "node",
      "my agent.mjs",
      "--name=two words",
    ]);
    expect(splitCommand(`a'b'"c"d`)).toEqual(["abcd"]);
    expect(splitCommand(`x '' ""`)).toEqual(["x", "", ""]);
  });

  it("reads backslashes as a shell does", () => {
    expect(splitCommand(String.raw`my\ agent.py a\"b`)).toEqual(["my agent.py", 'a"b']);
    // In single quotes nothing is special; in double quotes only \" \\ \$ \` and newline.
    expect(splitCommand(String.raw`'a\b' "c\"d\\e\f\$"`)).toEqual([String.raw`a\b`, String.raw`c"d\e\f$`]);
    // A backslash-newline joins lines.
    expect(splitCommand("node \\\n  agent.mjs")).toEqual(["node", "agent.mjs"]);
    expect(splitCommand("no\\\nde")).toEqual(["node"]);
  });

  it("expands nothing: no variables, globs, ~ or operators", () => {
    expect(splitCommand("echo $HOME ~ *.py a|b >out")).toEqual(["echo", "$HOME", "~", "*.py", "a|b", ">out"]);
  });

  it("refuses an unterminated quote or a trailing backslash, saying which", () => {
    for (const [command, what] of [
      ["node 'agent.mjs", "single quote"],
      ['node "agent.mjs', "double quote"],
      ['node "a\\"', "double quote"],
      ["node agent.mjs \\", "backslash at the end"],
    ] as const) {
      expect(() => splitCommand(command), command).toThrow(UserError);
      expect(() => splitCommand(command), command).toThrow(what);
    }
  });
});
