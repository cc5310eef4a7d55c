/**
 * `bazaar view` on a run of 100,000 stored choice trials (8,700 tasks × 12 replicates, limited to
 * 100,000), measured in Chromium in one run: the run page (header, progress, the analysis' progress
 * panel) and the first episode-list page, each from navigation to drawn; the first analysis (the
 * same as `bazaar analyze`, in the viewer's worker) and the run page again with it ready, figures
 * drawn; and the server's peak RSS. Bars: run page ≤ 1 s, first list page ≤ 300 ms.
 *
 *   npm run build && npx tsx bench/view.ts [--trials 100000]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchChromium } from "../test/helpers/chromium.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/bazaar.js");
const at = process.argv.indexOf("--trials");
const trials = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const dir = mkdtempSync(path.join(os.tmpdir(), "bazaar-bench-view-"));

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    c.stdout.on("data", (d: Buffer) => (out += d.toString()));
    c.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`bazaar ${args.join(" ")}: exit ${code}`)),
    );
  });
}

let t = performance.now();
const made = JSON.parse(
  await run(["run", "choice", "--replicates", "12", "--limit", String(trials), "--store", "s.db", "--json"]),
) as { runId: string; stored: number };
console.log(
  `store: ${made.stored.toLocaleString("en-US")} trials of ${made.runId} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const server = spawn(process.execPath, [BIN, "view", "--port", "0", "--store", "s.db"], {
  cwd: dir,
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve) => {
  let out = "";
  server.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const m = /at (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
});
let peak = 0;
const rss = () => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0);
  peak = Math.max(peak, kb);
};
const sampler = setInterval(rss, 100);

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const id = encodeURIComponent(made.runId);
  // Warm the browser's cache of the app's files (a user's second page), then measure.
  await page.goto(url);
  await page.locator("table.runs").waitFor();
  t = performance.now();
  await page.goto(`${url}runs/${id}`);
  await page.locator(".run-header").waitFor();
  await page.locator("#analysis").waitFor();
  const runPage = performance.now() - t;
  t = performance.now();
  await page.goto(`${url}runs/${id}/episodes`);
  await page.locator("table.episodes tbody tr").first().waitFor();
  const listPage = performance.now() - t;
  t = performance.now();
  await page.goto(`${url}runs/${id}`);
  await page.getByTestId("analysis").waitFor({ timeout: 600_000 });
  const analysis = performance.now() - t;
  t = performance.now();
  await page.goto(`${url}runs/${id}`);
  await page.getByTestId("analysis").waitFor();
  await page.locator(".chart svg").first().waitFor();
  const ready = performance.now() - t;
  t = performance.now();
  await page.goto(`${url}runs/${id}/episodes?page=10&sort=-price`);
  await page.locator("table.episodes tbody tr").first().waitFor({ timeout: 120_000 });
  const sorted = performance.now() - t;
  rss();
  console.log(`run page (header, progress, analysis panel): ${runPage.toFixed(0)} ms (bar ≤ 1,000 ms)`);
  console.log(`first episode-list page: ${listPage.toFixed(0)} ms (bar ≤ 300 ms)`);
  console.log(`first analysis, in the viewer's worker: ${(analysis / 1000).toFixed(1)} s`);
  console.log(`run page with the analysis ready, first figure drawn: ${ready.toFixed(0)} ms`);
  console.log(
    `a list sorted by booked price (an index built over the run, first time): ${(sorted / 1000).toFixed(1)} s`,
  );
  console.log(`server peak RSS: ${(peak / 1024).toFixed(0)} MB`);
} finally {
  clearInterval(sampler);
  await browser.close();
  server.kill("SIGINT");
}
