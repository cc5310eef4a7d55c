import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Long validations (`npm run validate`) and long end-to-end runs (`npm run test:long`) run apart.
    exclude: ["test/**/*.validate.test.ts", "test/**/*.long.test.ts", "node_modules/**"],
    // A guard against a hung test, not a speed limit: the e2e tests run whole CLI processes and
    // model servers, and must hold on a loaded machine (speed is measured in bench/, not here).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // One file more than cores (vitest's default leaves one free): an e2e test spends much of its
    // time waiting on the processes and servers it started, and another file runs meanwhile (on
    // two cores: 310 s with two files at once, 274 s with three).
    maxWorkers: availableParallelism() + 1,
  },
});
