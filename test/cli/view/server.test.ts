/**
 * The viewer's server without a browser: off loopback without a token it refuses to start; with a
 * token a request without it gets 401, with it 200; every page carries the content security policy
 * and the page has no inline script; an analysis' tables are read back cell by cell; secrets are
 * redacted from what is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTable } from "../../../cli/table.ts";
import { textBlocks } from "../../../cli/view/blocks.ts";
import { type RunningView, serveView } from "../../../cli/view/command.ts";
import { Redactor } from "../../../cli/view/redact.ts";
import { runInProcess, tempDir } from "../../helpers/cli.ts";

describe("bazaar view's server", () => {
  const dir = tempDir("bazaar-view-unit-");
  const store = `${dir}/s.db`;
  let view: RunningView;
  beforeAll(async () => {
    const r = await runInProcess(["run", "choice", "--limit", "20", "--store", store]);
    expect(r.code, r.err).toBe(0);
    view = await serveView([], { store, port: "0", host: "127.0.0.1", token: "tok-0123456789" });
  });
  afterAll(() => view?.close());

  it("off loopback without a token refuses to start (exit 2, nothing served)", async () => {
    await expect(serveView([], { store, port: "0", host: "0.0.0.0" })).rejects.toThrow(/off loopback/);
    const r = await runInProcess(["view", "--host", "0.0.0.0", "--port", "0", "--store", store]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/off loopback[\s\S]*--token/);
  });

  it("a request without the token gets 401; with it, the page, its policy and no inline script", async () => {
    expect((await fetch(view.url)).status).toBe(401);
    expect((await fetch(`${view.url}api/runs`)).status).toBe(401);
    const ok = await fetch(view.url, { headers: { Authorization: "Bearer tok-0123456789" } });
    expect(ok.status).toBe(200);
    const csp = ok.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const html = await ok.text();
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    // ?token= once: a cookie, and the address without it.
    const once = await fetch(`${view.url}runs?token=tok-0123456789`, { redirect: "manual" });
    expect(once.status).toBe(303);
    expect(once.headers.get("location")).toBe("/runs");
    expect(once.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    const runs = (await (
      await fetch(`${view.url}api/runs`, { headers: { Authorization: "Bearer tok-0123456789" } })
    ).json()) as { runs: { env: string; done: number }[] };
    expect(runs.runs).toMatchObject([{ env: "choice", done: 20 }]);
    expect(
      (await fetch(view.url, { method: "POST", headers: { Authorization: "Bearer tok-0123456789" } })).status,
    ).toBe(405);
  });

  it("reads renderTable's tables back cell by cell, and keeps the other lines", () => {
    const text = [
      "title line",
      renderTable(
        ["agent", "n", "share"],
        [
          ["sim:a b", "1,200", "52.3%"],
          ["x", "3", "–"],
        ],
      ),
      "a note under it",
    ].join("\n");
    expect(textBlocks(text)).toEqual([
      { kind: "text", lines: ["title line"] },
      {
        kind: "table",
        header: ["agent", "n", "share"],
        rows: [
          ["sim:a b", "1,200", "52.3%"],
          ["x", "3", "–"],
        ],
        numeric: [false, true, false],
      },
      { kind: "text", lines: ["a note under it"] },
    ]);
  });

  it("redacts keys, bearer tokens, URL passwords and this process's secrets", () => {
    const r = new Redactor(["my-secret-value-42"]);
    const out = r.value({
      apiKey: "anything",
      text: "key sk-abcdefghijklmnop, Bearer abcdefghijkl, postgres://u:pw@h/db and my-secret-value-42",
      inputTokens: 12,
    });
    expect(out.apiKey).toBe("[redacted]");
    expect(out.inputTokens).toBe(12);
    expect(out.text).not.toMatch(/sk-abc|abcdefghijkl\b|:pw@|my-secret/);
  });
});
