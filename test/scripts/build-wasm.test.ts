/** The committed WebAssembly modules are exactly what their .wat sources compile to. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileWat, generatedPath, moduleText, WASM_SOURCES } from "../../scripts/build-wasm.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm run build:wasm", () => {
  for (const rel of WASM_SOURCES) {
    it(`${generatedPath(rel)} matches ${path.basename(rel)} (run npm run build:wasm after editing it)`, async () => {
      const committed = readFileSync(path.join(ROOT, generatedPath(rel)), "utf8");
      expect(committed).toBe(moduleText(rel, await compileWat(rel)));
    });
  }
});
