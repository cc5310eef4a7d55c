/**
 * The e2e tests run the compiled CLI, as users do (bin/bazaar.js → dist/): it must be built from the
 * sources as they are. `npm test` builds first; running vitest alone after an edit fails here, with
 * the files that changed, instead of testing yesterday's code.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_INFO, type BuildInfo, DIST, ENTRIES, staleSources } from "../../scripts/build.ts";

describe("the compiled CLI", () => {
  it("is built from the sources as they are now (npm run build)", () => {
    expect(existsSync(BUILD_INFO), "dist/ is missing: run npm run build (npm test does)").toBe(true);
    const info = JSON.parse(readFileSync(BUILD_INFO, "utf8")) as BuildInfo;
    // Every package's sources are in it (a build of part of the tree would pass the next check).
    for (const top of ["cli/", "environments/", "agents/", "analysis/", "datasets/"])
      expect(
        Object.keys(info.sources).some((f) => f.startsWith(top)),
        top,
      ).toBe(true);
    const stale = staleSources(info);
    expect(stale, `dist/ is older than these sources: run npm run build (npm test does)`).toEqual([]);
  });

  it("has an entry for the CLI and for each worker thread's module", () => {
    for (const name of Object.keys(ENTRIES))
      expect(existsSync(path.join(DIST, `${name}.js`)), name).toBe(true);
  });

  it("notices a source that changed or went away since the build", () => {
    const info = JSON.parse(readFileSync(BUILD_INFO, "utf8")) as BuildInfo;
    const [first, second] = Object.keys(info.sources);
    const changed: BuildInfo = {
      ...info,
      sources: { ...info.sources, [first!]: "0".repeat(64), "cli/no-such-file.ts": info.sources[second!]! },
    };
    expect(staleSources(changed).sort()).toEqual([first!, "cli/no-such-file.ts"].sort());
  });
});
