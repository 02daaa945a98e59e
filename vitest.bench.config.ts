import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// `npm run bench`'s timings of pure functions (tests/bench/pure-timings.test.ts, decision 127): not part of
// `npm test`, which asserts no wall-clock upper bound.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/bench/**/*.test.ts"],
    environment: "node",
    // One file at a time, alone: the figures are timings.
    fileParallelism: false,
  },
});
