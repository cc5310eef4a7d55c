/**
 * The browser app's files (cli/view/ui/, compiled at install by scripts/build.ts into dist/view/) and the
 * page that loads them. The page has no inline script: the content security policy below forbids
 * it, and eval too (charts use Vega's expression interpreter).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../environments/kernel/errors.ts";

/** The compiled app's folder: beside the compiled CLI, or the repository's dist/ from the sources. */
export function assetsDir(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith(".ts")
    ? path.resolve(path.dirname(here), "../../dist/view")
    : path.join(path.dirname(here), "view");
}

export const ASSETS = ["app.js", "charts.js", "app.css"] as const;
export type AssetName = (typeof ASSETS)[number];

export function readAsset(name: AssetName): Buffer {
  const file = path.join(assetsDir(), name);
  if (!existsSync(file))
    throw new UserError(`the viewer's app is not built (${file} is missing)`, "run npm run build");
  return readFileSync(file);
}

/** What a page may load and run: its own scripts and styles, nothing inline, no eval, nothing outside. */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Vega sets style attributes on what it draws, and vega-embed its own small stylesheet.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The one HTML page of the app; `base` is where its files are (`/assets/` served, `assets/` bundled). */
export function indexHtml(base: string, extraScripts: readonly string[] = [], meta = ""): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    meta,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    "<title>bazaar view</title>",
    `<link rel="stylesheet" href="${base}app.css">`,
    ...extraScripts.map((s) => `<script src="${s}"></script>`),
    `<script src="${base}app.js" defer></script>`,
    "</head>",
    '<body><div id="root"><p class="loading">Loading…</p></div><noscript>bazaar view needs JavaScript.</noscript></body>',
    "</html>",
    "",
  ]
    .filter((l) => l !== "")
    .join("\n");
}
