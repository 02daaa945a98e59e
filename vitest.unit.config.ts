import { availableParallelism } from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    // Every core when run alone (vitest 3's own default leaves one free: one worker on a 2-core machine).
    // `npm test` passes --maxWorkers=1 while the end-to-end suite runs beside it (decision 127).
    maxWorkers: availableParallelism(),
    // The files share their workers' module graph instead of each loading it afresh (about a third of the
    // suite's CPU). The unit tests keep no state across files: globals and timers are put back after each test
    // (below, and each file's own afterEach/finally); checked with the files shuffled (decision 127).
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    // A limit that ends a hang, not a measure: the slowest case (the user script against a local D1) sets its own.
    testTimeout: 30_000,
  },
});
