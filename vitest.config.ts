import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    exclude: ["test/**/*.validate.test.ts", "node_modules/**"],
    // A guard against a hung test, not a speed limit: the e2e tests run whole CLI processes and
    // model servers, and must hold on a loaded machine (speed is measured in bench/, not here).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
