import { defineConfig } from "vitest/config";

// Long end-to-end runs whose value is the long run: several runners on one store, the live view in
// tmux, batch resume, a PostgreSQL store gone mid-run, endpoint pools, the cue battery, the PriceBench
// release run. Run by `npm run test:long` and by .ci/run, never by `npm test`.
export default defineConfig({
  test: {
    include: ["test/**/*.long.test.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
