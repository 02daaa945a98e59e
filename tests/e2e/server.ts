// Where the end-to-end server keeps its local D1/KV/R2 state, relative to the repository root. Shared by
// playwright.config.ts (which starts the server on it) and the fixtures (which write test data into it).
export const E2E_PERSIST_TO = ".wrangler/e2e";
