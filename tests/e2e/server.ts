// Where the end-to-end server keeps its local D1/KV/R2 state, relative to the repository root. Shared by
// playwright.config.ts (which starts the server on it) and the fixtures (which write test data into it).
// Defined in staff-pool.mjs, which also runs as plain Node before the server starts (decision 080).
export { E2E_PERSIST_TO } from "./staff-pool.mjs";
