import { defineConfig } from "vitest/config";

// Two cores on CI: at most two test files at once; prover-backed tests are slow, so the
// default timeout is generous and the teeth test sets its own. One PostgreSQL server on loopback
// serves the whole run (test/pg/global-setup.ts): the session suites run against it too.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/pg/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
