import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The deploy rehearsal (tests/deploy/): real wrangler runs against a fake Cloudflare API, in order. Each
// wrangler start costs seconds on a busy machine, hence the long time-out.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/deploy/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 30_000,
  },
});
