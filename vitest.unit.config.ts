import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    // The operator-script tests spawn wrangler, slow on a busy 2-core machine.
    testTimeout: 30_000,
  },
});
