// Loads the content check (./content-check: the schema and zod) the first time a save needs it (decision 077).
// The editor opens without it; once loaded it stays, so the live re-check after a refused save is synchronous.
import type * as Check from "./content-check";

type ContentCheck = typeof Check;

let loaded: ContentCheck | null = null;
let loading: Promise<ContentCheck> | null = null;

export function loadContentCheck(): Promise<ContentCheck> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import("./content-check").then(
    (module) => (loaded = module),
    (error: unknown) => {
      // A failed download (offline, a newer deploy) may be tried again on the next save.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The check if a save already loaded it; null before the first save. */
export function loadedContentCheck(): ContentCheck | null {
  return loaded;
}
