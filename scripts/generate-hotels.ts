/**
 * Regenerates the committed default hotel pool (datasets/hotels/pool.json) from the seeded
 * generator, or writes another pool elsewhere:
 *
 *   npx tsx scripts/generate-hotels.ts                      # the committed pool (seed 2026, 179 hotels)
 *   npx tsx scripts/generate-hotels.ts --seed 7 --size 60 --out /tmp/pool.json
 *
 * The file is then formatted with biome, so `npm run lint` stays clean; a test checks that the
 * committed file equals generateHotelPool() exactly.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_POOL_SEED, DEFAULT_POOL_SIZE, generateHotelPool } from "../datasets/hotels/generate.ts";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    seed: { type: "string", default: String(DEFAULT_POOL_SEED) },
    size: { type: "string", default: String(DEFAULT_POOL_SIZE) },
    out: { type: "string", default: path.join(root, "datasets/hotels/pool.json") },
  },
});

const seed = Number.isInteger(Number(values.seed)) ? Number(values.seed) : values.seed;
const size = Number(values.size);
const hotels = generateHotelPool(seed, size);
const file = {
  about:
    "Invented New-York-like hotel profiles from generateHotelPool(seed, size) in datasets/hotels/generate.ts. " +
    "Regenerate with: npx tsx scripts/generate-hotels.ts. Do not edit by hand.",
  seed,
  size,
  hotels,
};
const out = path.resolve(values.out);
writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
if (out.startsWith(`${root}${path.sep}`)) {
  execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", "--write", out], { stdio: "inherit" });
}
console.log(`wrote ${hotels.length} hotels (seed ${seed}) to ${path.relative(process.cwd(), out) || out}`);
