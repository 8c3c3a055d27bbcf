import { defineConfig } from "vitest/config";

// Test tiers, as Vitest projects. `npm test` runs the fast ones (unit, http, e2e): no
// llama-server build, no Redis, no Chromium, a few minutes on two cores. `npm run test:all`
// runs every project. A new test file lands in a tier by where it lives and what it needs:
// add it to the lists below when it starts a real server process or needs an outside program.

/** Suites that drive a program outside node_modules: a built llama-server, redis-server, Chromium. */
const EXTERNAL = [
  // A real llama-server, built once per machine (scripts/build-llama-server.sh).
  "test/integration/backend-*.test.ts",
  // A real redis-server on a loopback port (the key-identity and fairness suites run on both storages).
  "test/integration/*-redis.test.ts",
  "test/integration/key-identity.test.ts",
  "test/integration/jobs-fairness.test.ts",
  "test/unit/key-storage.test.ts",
  // A headless Chromium.
  "test/browser/**/*.test.ts",
];

/** HTTP suites served in-process with `app.request()` (test/helpers/app.ts): the process boundary is not their point. */
const HTTP = [
  "test/integration/docs.test.ts",
  "test/integration/errors.test.ts",
  "test/integration/generate.test.ts",
  "test/integration/jobs-limits.test.ts",
  "test/integration/jobs-webhooks.test.ts",
  "test/integration/jsonld.test.ts",
  "test/integration/metrics.test.ts",
  "test/integration/openapi.test.ts",
  "test/integration/pages.test.ts",
  "test/integration/rate-limits.test.ts",
];

/** Component tests without a server: the unit tests, and webhook delivery to a real loopback receiver. */
const UNIT = ["test/unit/**/*.test.ts", "test/integration/webhook-delivery.test.ts"];

/** A handful of end-to-end runs through a real `inkpress serve` process, on the stories260K fixture. */
const E2E = ["test/integration/stories.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Model-backed suites each start their own server; two cores run two files at once at most.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT, exclude: EXTERNAL } },
      { extends: true, test: { name: "http", include: HTTP, exclude: EXTERNAL } },
      { extends: true, test: { name: "e2e", include: E2E, exclude: EXTERNAL } },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"], exclude: [...EXTERNAL, ...UNIT, ...HTTP, ...E2E] } },
      { extends: true, test: { name: "external", include: EXTERNAL } },
    ],
  },
});
