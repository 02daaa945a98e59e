// The browser tab's own id (decision 079): kept in sessionStorage across reloads, and held as a Web Lock
// while the editor is open, so other tabs tell a closed tab's kept draft from an open one's.
import { TAB_ID_PATTERN } from "./kept-draft";

const TAB_SESSION_KEY = "muselingo:tab-id";

/** The id this tab used before (a reload keeps it: sessionStorage is per tab), or null. */
export function storedTabId(): string | null {
  try {
    const id = window.sessionStorage.getItem(TAB_SESSION_KEY);
    return id && TAB_ID_PATTERN.test(id) ? id : null;
  } catch {
    return null;
  }
}

export function storeTabId(id: string) {
  try {
    window.sessionStorage.setItem(TAB_SESSION_KEY, id);
  } catch {
    // The id lives only as long as the page then; a reload gets a new one (its older entry is still offered).
  }
}

export const TAB_LOCK_PREFIX = "muselingo:editor-tab:";

/**
 * The tabs of this browser open now, by the Web Locks each holds while open (a duplicated tab copies
 * sessionStorage, so its id is taken: the lock tells). Empty where the browser has no Web Locks.
 */
export async function openTabIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  try {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    if (!locks) return ids;
    const { held = [] } = await locks.query();
    for (const lock of held) if (lock.name?.startsWith(TAB_LOCK_PREFIX)) ids.add(lock.name.slice(TAB_LOCK_PREFIX.length));
  } catch {
    // No answer: every kept draft counts as left by a closed tab.
  }
  return ids;
}

/** Holds this tab's lock until `signal` aborts (the editor closes) or the tab goes. */
export function holdTab(id: string, signal: AbortSignal) {
  try {
    void navigator.locks
      ?.request(`${TAB_LOCK_PREFIX}${id}`, { signal }, () => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())))
      .catch(() => undefined);
  } catch {
    // Without Web Locks the tab is simply not seen as open by others.
  }
}
