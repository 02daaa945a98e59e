import { deleteE2eMuseums } from "./staff-pool.mjs";

/**
 * After every worker has finished (the server still up, but no request in flight): deletes every museum the
 * suite made and fails the run if any row hanging off one is left behind (decision 080).
 */
export default function globalTeardown() {
  deleteE2eMuseums();
}
