import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Model-backed suites each start their own server; two cores run two files at once at most.
    maxWorkers: 2,
  },
});
