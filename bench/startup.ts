/**
 * What a command costs before and around its work: CPU seconds (user + sys, the kernel's accounting of
 * the finished process, read by GNU time) of `bazaar --version`, `bazaar run choice --help` and
 * `bazaar run choice --limit 10` (simulated agent, a new store each time), against `node -e 0` in the
 * same rounds, the commands taking turns so that a change in the machine's load touches all alike.
 * Bars (README § Performance): `--version` and `run choice --help` ≤ 0.35 s and ≤ 4× `node -e 0`;
 * the 10-trial run ≤ 1.0 s.
 *
 *   npx tsx bench/startup.ts [--rounds 7]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");
const TIME = "/usr/bin/time";

/** CPU seconds (user + sys) of one run of `node <args>`. */
function cpuSeconds(args: string[], cwd: string): number {
  const out = path.join(cwd, "time.txt");
  execFileSync(TIME, ["-o", out, "-f", "%U %S", process.execPath, ...args], { cwd, stdio: "ignore" });
  const [user, sys] = readFileSync(out, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return user! + sys!;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function benchStartup(rounds = 7): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-startup-"));
  const commands: { label: string; args: (i: number) => string[]; bar: number }[] = [
    { label: "node -e 0", args: () => ["-e", "0"], bar: Number.NaN },
    { label: "bazaar --version", args: () => [BIN, "--version"], bar: 0.35 },
    { label: "bazaar run choice --help", args: () => [BIN, "run", "choice", "--help"], bar: 0.35 },
    {
      label: "bazaar run choice --limit 10 (sim, new store)",
      args: (i) => [BIN, "run", "choice", "--limit", "10", "--store", `r${i}.db`],
      bar: 1.0,
    },
  ];
  const cpu = commands.map(() => [] as number[]);
  try {
    for (let i = -1; i < rounds; i++) {
      // Round -1 warms the file cache and is not counted.
      commands.forEach((c, k) => {
        const s = cpuSeconds(c.args(i), dir);
        if (i >= 0) cpu[k]!.push(s);
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const node = cpu[0]!;
  console.log(`start-up CPU (user + sys), ${rounds} rounds, load ${os.loadavg()[0]!.toFixed(1)}:`);
  commands.forEach((c, k) => {
    const xs = cpu[k]!;
    const ratios = xs.map((x, i) => x / node[i]!);
    const bar = Number.isNaN(c.bar) ? "" : ` (bar ≤ ${c.bar} s${c.bar < 1 ? ", ≤ 4×" : ""})`;
    console.log(
      `  ${c.label.padEnd(46)} median ${median(xs).toFixed(3)} s [${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}]` +
        (k === 0
          ? ""
          : `, ${median(ratios).toFixed(2)}× node -e 0 [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`) +
        bar,
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--rounds");
  benchStartup(i >= 0 ? Number(process.argv[i + 1]) : 7);
}
