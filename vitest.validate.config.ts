import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Long statistical validations (interval coverage over hundreds of replications). Run by
// `npm run validate` and by .ci/run, never by `npm test`.
export default defineConfig({
  test: {
    include: ["test/**/*.validate.test.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Every core (vitest's default leaves one free): each study is one seeded, single-threaded
    // computation, so two run side by side in the time of one — and their results are the same.
    maxWorkers: availableParallelism(),
  },
});
