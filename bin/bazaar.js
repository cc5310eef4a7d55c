#!/usr/bin/env node
// The bazaar command: the CLI compiled to JavaScript in dist/, which `npm ci` builds (the `prepare`
// script) and `npm run build` rebuilds; no TypeScript is compiled at run time. From the sources,
// without a build: `npm run dev -- <command> …`.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/bazaar.js", import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    `bazaar: the compiled CLI is missing (${compiled.pathname})\n  run \`npm run build\` in ${new URL("..", import.meta.url).pathname}\n`,
  );
  process.exit(1);
}
await import(compiled.href);
