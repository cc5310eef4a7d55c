/**
 * `bazaar view` in a real browser (Debian's Chromium through playwright-core): every environment's
 * episode page shows what the export holds for that episode; a market whose sellers' hotel names
 * carry `<script>` and `<img onerror>` (so the injector's descriptions do) shows them as text and no
 * script runs; a run started after the runs page is open appears and its count grows without a
 * reload; the bundle works from file:// with the network off; a planted key appears in no page and
 * no file. Skips, saying so, where Chromium is absent.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { hasChromium, launchChromium } from "../helpers/chromium.ts";
import { REPO_ROOT, runCli, tempDir } from "../helpers/cli.ts";

const PLANTED = "sk-planted-view-test-0123456789abcdef";
const BIN = path.join(REPO_ROOT, "bin/bazaar.js");

function startView(cwd: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "view", "--port", "0", "--store", "s.db", ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!.replace(/\/runs\/.*$|\/markets\/.*$/, "/"), child });
    });
    child.stderr!.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`bazaar view exited ${code}: ${out}`)));
  });
}

interface Watched {
  page: Page;
  problems: string[];
}

async function watched(browser: Browser): Promise<Watched> {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return { page, problems };
}

const exported = async (cwd: string, run: string) => {
  const r = await runCli(["export", run, "--store", "s.db", "--format", "jsonl"], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

describe.skipIf(!hasChromium())("bazaar view in Chromium", () => {
  const cwd = tempDir("bazaar-view-");
  const runs: Record<string, string> = {};
  let market = "";
  let browser: Browser;
  let view: { url: string; child: ChildProcess };
  const shots = path.join(cwd, "shots");

  beforeAll(async () => {
    const run = async (env: string, args: string[]) => {
      const r = await runCli(["run", env, ...args, "--store", "s.db", "--json"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { runId: string }).runId;
    };
    runs.choice = await run("choice", ["--limit", "60"]);
    runs.cue = await run("cue", ["--n-per-cell", "4", "--limit", "40"]);
    runs.bargain = await run("bargain", ["--limit", "20"]);
    runs.elicit = await run("elicit", ["--limit", "30"]);
    runs.shop = await run("shop", ["--limit", "24", "--client", "sim:terse", "--negotiable", "0.5"]);
    // Every hotel's name carries markup, so every listing's description does too (the injector's among them).
    const pool = JSON.parse(readFileSync(path.join(REPO_ROOT, "datasets/hotels/pool.json"), "utf8")) as {
      hotels: { name: string }[];
    };
    pool.hotels.forEach((h, i) => {
      h.name += i % 2 ? ' <script>alert("x")</script>' : " <img src=x onerror=alert(1)>";
    });
    writeFileSync(path.join(cwd, "pool.json"), JSON.stringify(pool));
    const m = await runCli(
      [
        "run",
        "market",
        "--sellers",
        "4",
        "--rounds",
        "2",
        "--buyers-per-round",
        "8",
        "--adopters",
        "2",
        "--markets",
        "1",
        "--seller",
        "sim:injector",
        "--pool",
        "pool.json",
        "--store",
        "s.db",
        "--json",
      ],
      { cwd },
    );
    expect(m.code, m.stderr).toBe(0);
    market =
      (JSON.parse(m.stdout) as { marketId?: string; runId?: string }).marketId ??
      (JSON.parse(m.stdout) as { runId: string }).runId;
    browser = await launchChromium();
    view = await startView(cwd, []);
  });

  afterAll(async () => {
    await browser?.close();
    view?.child.kill("SIGINT");
  });

  it("each environment's episode page shows what the export holds (ids, calls, outcome)", async () => {
    const { page, problems } = await watched(browser);
    for (const [env, id] of Object.entries(runs)) {
      const records = await exported(cwd, id);
      for (const r of [records[0]!, records[records.length - 1]!]) {
        await page.goto(`${view.url}runs/${encodeURIComponent(id)}/episodes/${r.seq}`);
        await page.getByTestId("trial-key").waitFor();
        expect(await page.getByTestId("seq").textContent(), env).toBe(String(r.seq));
        expect(await page.getByTestId("agent").textContent(), env).toBe(String(r.agent));
        expect(await page.getByTestId("trial-key").textContent(), env).toBe(String(r.trialKey));
        const outcome = await page.getByTestId("outcome").textContent();
        const expected =
          env === "choice" || env === "cue"
            ? r.chosenSlot === null
              ? "none"
              : "ABCDE"[r.chosenSlot as number]!
            : env === "bargain"
              ? String(r.outcome)
              : env === "elicit"
                ? r.value === null
                  ? "none"
                  : "$"
                : String(r.endReason);
        expect(outcome, env).toContain(expected);
        if (env === "shop")
          for (const t of r.trajectory as { tool: string; args: unknown }[])
            expect(await page.locator("ol.calls").textContent()).toContain(JSON.stringify(t.args));
      }
      await page.screenshot({ path: path.join(shots, `${env}-episode.png`), fullPage: true });
      // The list, filtered by agent, and the run page with its analysis.
      await page.goto(
        `${view.url}runs/${encodeURIComponent(id)}/episodes?f.agent=${encodeURIComponent(records[0]!.agent as string)}`,
      );
      await page.getByTestId("matched").waitFor();
      expect(await page.getByTestId("matched").textContent()).toMatch(/\d+ matching/);
      await page.goto(`${view.url}runs/${encodeURIComponent(id)}`);
      await page.getByTestId("analysis").waitFor({ timeout: 60_000 });
      await page.screenshot({ path: path.join(shots, `${env}-run.png`), fullPage: true });
    }
    expect(problems).toEqual([]);
  });

  it("a market with the injector seller: its markup-laden descriptions render as text, and no script runs", async () => {
    const { page, problems } = await watched(browser);
    await page.goto(`${view.url}markets/${encodeURIComponent(market)}`);
    await page.locator("td.description").first().waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain('<script>alert("x")</script>');
    expect(text).toContain("<img src=x onerror=alert(1)>");
    // The page holds no element made from a description: no inline script, no image with a handler.
    expect(await page.locator("script:not([src])").count()).toBe(0);
    expect(await page.locator("img[onerror]").count()).toBe(0);
    await page.screenshot({ path: path.join(shots, "market.png"), fullPage: true });
    // A seller turn of the injector, and a buyer episode that saw its listing.
    const sellers = `${market}-r01-sellers`;
    const turns = await exported(cwd, sellers);
    const injector = turns.find((t) => t.adopter === true)!;
    await page.goto(`${view.url}runs/${encodeURIComponent(sellers)}/episodes/${injector.seq}`);
    await page.getByTestId("outcome").waitFor();
    expect(await page.locator("main").textContent()).toContain(String(injector.description).slice(0, 40));
    const buyers = `${market}-r02-buyers`;
    await page.goto(`${view.url}runs/${encodeURIComponent(buyers)}/episodes/0`);
    await page.getByTestId("outcome").waitFor();
    for (const d of await page.locator("details.result").all()) await d.click();
    expect(await page.locator("main").textContent()).toMatch(/<script>alert|onerror=alert/);
    expect(await page.locator("img[onerror], script:not([src])").count()).toBe(0);
    await page.waitForTimeout(500);
    expect(problems).toEqual([]);
  });

  it("live: a run started after the page is open appears, and its count grows without a reload", async () => {
    const { page, problems } = await watched(browser);
    await page.goto(view.url);
    await page.locator("table.runs").waitFor();
    const sim = await startSimServer({ latencyMs: 150 });
    try {
      const live = runCli(
        [
          "run",
          "bargain",
          "--buyer",
          "openai:sim-bargain-llm",
          "--seller",
          "rule:boulware",
          "--scenarios",
          "6",
          "--concurrency",
          "1",
          "--base-url",
          sim.url,
          "--store",
          "s.db",
        ],
        { cwd, env: { OPENAI_API_KEY: PLANTED } },
      );
      const row = page.locator("tr", { hasText: "sim-bargain-llm" });
      await row.waitFor({ timeout: 30_000 });
      const count = async () =>
        Number(/(\d+) \/ \d+/.exec((await row.locator(".progress .label").textContent()) ?? "")?.[1] ?? -1);
      const first = await count();
      await expect.poll(count, { timeout: 60_000, interval: 300 }).toBeGreaterThan(first);
      const r = await live;
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await sim.close();
    }
    expect(problems).toEqual([]);
  });

  it("the bundle opens from file:// with the network off, every page of the bundled run working; no planted key anywhere", async () => {
    const site = path.join(cwd, "site");
    const b = await runCli(["view", "--bundle", site, runs.shop!, runs.bargain!, "--store", "s.db"], {
      cwd,
      env: { OPENAI_API_KEY: PLANTED },
    });
    expect(b.code, b.stderr).toBe(0);
    const ctx = await browser.newContext({ offline: true, viewport: { width: 1300, height: 900 } });
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("dialog", (d) => {
      problems.push(d.message());
      void d.dismiss();
    });
    const base = `file://${site}/index.html`;
    await page.goto(`${base}#/`);
    await page.locator("table.runs").waitFor();
    for (const id of [runs.shop!, runs.bargain!]) {
      await page.goto(`${base}#/runs/${encodeURIComponent(id)}`);
      await page.getByTestId("analysis").waitFor();
      await page.goto(`${base}#/runs/${encodeURIComponent(id)}/episodes?sort=-seq`);
      await page.getByTestId("matched").waitFor();
      const rows = await page.locator("table.episodes tbody tr").count();
      expect(rows).toBeGreaterThan(0);
      await page.locator("table.episodes tbody tr a").first().click();
      await page.getByTestId("trial-key").waitFor();
      await page.screenshot({ path: path.join(shots, `bundle-${id}.png`), fullPage: true });
    }
    expect(problems).toEqual([]);
    for (const f of readdirSync(site, { recursive: true }) as string[]) {
      if (!f.endsWith(".js") && !f.endsWith(".html")) continue;
      expect(readFileSync(path.join(site, f), "utf8").includes(PLANTED), f).toBe(false);
    }
    // And no page of the server holds it either (the live run's store never did).
    const pages = [`${view.url}api/runs`];
    for (const id of Object.values(runs))
      pages.push(`${view.url}api/runs/${id}`, `${view.url}api/runs/${id}/episodes`);
    for (const p of pages) expect((await (await fetch(p)).text()).includes(PLANTED), p).toBe(false);
  });
});
