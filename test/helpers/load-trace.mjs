// Records every module a process loads through `import` (its resolved URL, one per line) into the
// file $BAZAAR_LOAD_TRACE: `node --import ./test/helpers/load-trace.mjs bin/bazaar.js …`. Used by
// test/e2e/startup.test.ts to pin what a command loads (and what it must not).
import { register } from "node:module";

if (process.env.BAZAAR_LOAD_TRACE) {
  register("./load-trace-hooks.mjs", import.meta.url, { data: { file: process.env.BAZAAR_LOAD_TRACE } });
}
