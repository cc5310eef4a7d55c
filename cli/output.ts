/** Where commands print: stdout for results, stderr for diagnostics (tests capture both). */
export interface Output {
  log(line: string): void;
  error(line: string): void;
}

export const consoleOutput: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

export function printJson(out: Output, value: unknown): void {
  out.log(JSON.stringify(value, null, 2));
}
