import { defineConfig } from "vitest/config";

// Test tiers are folders, one Vitest project each. `npm test` runs the fast ones (unit, http,
// e2e): no llama-server build, no Redis, no Chromium, a couple of minutes on two cores.
// `npm run test:all` runs every project. A new test file lands in a tier by the folder it lives in:
//   test/unit         components without a server (a loopback webhook receiver at most)
//   test/http         the app in-process through `app.request()`: the process boundary is not the point
//   test/e2e          a handful of runs through a real `inkpress serve` process on stories260K
//   test/integration  real processes: the CLI, servers, crashes, the model runtime at length
//   test/external     a program outside node_modules: a built llama-server or redis-server
//   test/browser      a headless Chromium
const TIERS = ["unit", "http", "e2e", "integration", "external", "browser"];
/** Tiers whose files share loaded modules within a worker (`test/unit/structure.test.ts` keeps stubs out of them). */
export const SHARED_TIERS = ["unit", "http"];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Model-backed suites each start their own server; two cores run two files at once at most.
    maxWorkers: 2,
    // unit and http files share loaded modules within a worker (no file there mocks a module or
    // stubs env, globals or timers): importing the engine afresh per file cost a third of `npm test`.
    projects: TIERS.map((name) => ({
      extends: true,
      test: {
        name,
        include: [`test/${name}/**/*.test.ts`],
        isolate: !SHARED_TIERS.includes(name),
        // The e2e files share one `inkpress serve` on stories260K (test/helpers/stories.ts).
        ...(name === "e2e" ? { globalSetup: ["test/helpers/stories-setup.ts"] } : {}),
      },
    })),
  },
});
