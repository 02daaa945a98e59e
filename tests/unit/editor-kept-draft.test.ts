import { describe, expect, it } from "vitest";
import { snapshotOf, type Draft } from "~/components/editor/editor-state";
import { KEPT_MAX_AGE_MS, KEPT_PREFIX, keptKey, parseKept, parseKeptKey, type KeptDraft } from "~/components/editor/kept-draft";
import { listKept, pruneKept, readKept, removeKept, writeKept, type KeptStore } from "~/components/editor/kept-store";

/** An in-memory Storage; `quota` bytes (counted in characters) makes setItem throw like a full browser store. */
class MemoryStore implements KeptStore {
  map = new Map<string, string>();
  constructor(private readonly quota = Infinity) {}
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(name: string) {
    return this.map.get(name) ?? null;
  }
  setItem(name: string, value: string) {
    const used = [...this.map].reduce((n, [k, v]) => n + (k === name ? 0 : k.length + v.length), 0);
    if (used + name.length + value.length > this.quota) throw new DOMException("full", "QuotaExceededError");
    this.map.set(name, value);
  }
  removeItem(name: string) {
    this.map.delete(name);
  }
}

const refusing: KeptStore = {
  length: 0,
  key: () => null,
  getItem: () => {
    throw new DOMException("denied", "SecurityError");
  },
  setItem: () => {
    throw new DOMException("denied", "SecurityError");
  },
  removeItem: () => {
    throw new DOMException("denied", "SecurityError");
  },
};

const draft: Draft = {
  name: "Vase « grec » 🏺 \u202e",
  metadatas: { type: "metadatas", url: "vase", backgroundColor: "#341539" },
  items: [
    { key: "el0", element: { type: "text", content: "Texte\u0000 avec\nretours et 𝄞" } },
    { key: "new4", element: { type: "image", src: "/media/x.png", alt: "" } },
  ] as Draft["items"],
};
const now = Date.UTC(2026, 10, 24, 14, 32);

describe("kept drafts", () => {
  it("are keyed per user and per article, and read back only for that user and article", () => {
    const store = new MemoryStore();
    expect(writeKept(store, { userId: 7, articleId: 42, baseVersion: 3, keptAt: now, draft })).toBe(true);
    expect([...store.map.keys()]).toEqual([`${KEPT_PREFIX}7:42`]);
    expect(keptKey(7, 42)).not.toBe(keptKey(74, 2));

    const kept = readKept(store, 7, 42, now + 1000);
    expect(kept).toMatchObject({ userId: 7, articleId: 42, baseVersion: 3, keptAt: now });
    expect(snapshotOf(kept!.draft)).toBe(snapshotOf(draft));
    // Fresh keys, unique, none of the old ones.
    const keys = kept!.draft.items.map((i) => i.key);
    expect(new Set(keys).size).toBe(2);
    expect(keys).not.toContain("new4");

    expect(readKept(store, 8, 42, now)).toBeNull();
    expect(readKept(store, 7, 43, now)).toBeNull();
    // An entry copied under another user's name is not theirs: the user id inside must match too.
    store.setItem(keptKey(8, 42), store.getItem(keptKey(7, 42))!);
    expect(readKept(store, 8, 42, now)).toBeNull();
    expect(store.getItem(keptKey(8, 42))).toBeNull();
    expect(readKept(store, 7, 42, now)).not.toBeNull();

    removeKept(store, 7, 42);
    expect(readKept(store, 7, 42, now)).toBeNull();
  });

  it("refuse malformed, foreign, future and expired entries", () => {
    const good = JSON.parse(
      JSON.stringify({ v: 1, userId: 1, articleId: 2, baseVersion: 1, keptAt: now, name: "n", metadatas: draft.metadatas, elements: [{ type: "space" }] }),
    ) as Record<string, unknown>;
    expect(parseKept(JSON.stringify(good), 1, 2, now)).not.toBeNull();
    const bad: unknown[] = [
      "{",
      "null",
      "[]",
      '"text"',
      { ...good, v: 2 },
      { ...good, baseVersion: -1 },
      { ...good, baseVersion: 1.5 },
      { ...good, baseVersion: "1" },
      { ...good, name: 3 },
      { ...good, metadatas: { type: "text" } },
      { ...good, metadatas: null },
      { ...good, elements: {} },
      { ...good, elements: [null] },
      { ...good, elements: [{ type: "metadatas", url: "", backgroundColor: "" }] },
      { ...good, elements: [{ type: "script" }] },
      { ...good, elements: [{ type: "__proto__" }] },
      { ...good, keptAt: now + 10 * 60_000 },
      { ...good, keptAt: now - KEPT_MAX_AGE_MS - 1 },
    ];
    for (const value of bad) expect(parseKept(typeof value === "string" ? value : JSON.stringify(value), 1, 2, now), JSON.stringify(value)).toBeNull();
    expect(parseKept(null, 1, 2, now)).toBeNull();
  });

  it("remove an unreadable entry when read, and prune every expired or unreadable one", () => {
    const store = new MemoryStore();
    store.setItem(keptKey(1, 1), "not json");
    expect(readKept(store, 1, 1, now)).toBeNull();
    expect(store.length).toBe(0);

    writeKept(store, { userId: 1, articleId: 1, baseVersion: 1, keptAt: now - KEPT_MAX_AGE_MS - 5, draft });
    writeKept(store, { userId: 2, articleId: 1, baseVersion: 1, keptAt: now - 5, draft });
    store.setItem(`${KEPT_PREFIX}garbage`, "{}");
    store.setItem("someone-else", "untouched");
    pruneKept(store, now);
    expect([...store.map.keys()].sort()).toEqual([keptKey(2, 1), "someone-else"].sort());
  });

  it("never throw when the browser refuses or is full: nothing is kept, editing goes on", () => {
    expect(writeKept(refusing, { userId: 1, articleId: 1, baseVersion: 1, keptAt: now, draft })).toBe(false);
    expect(readKept(refusing, 1, 1, now)).toBeNull();
    expect(() => removeKept(refusing, 1, 1)).not.toThrow();
    expect(() => pruneKept(refusing, now)).not.toThrow();
    expect(writeKept(null, { userId: 1, articleId: 1, baseVersion: 1, keptAt: now, draft })).toBe(false);
    expect(readKept(null, 1, 1, now)).toBeNull();

    const full = new MemoryStore(200);
    expect(writeKept(full, { userId: 1, articleId: 1, baseVersion: 1, keptAt: now, draft: { ...draft, name: "x".repeat(500) } })).toBe(false);
    expect(full.length).toBe(0);
  });

  it("are kept per tab (decision 079): two tabs on one article never overwrite each other, listed newest first", () => {
    const store = new MemoryStore();
    const other = { ...draft, name: "Autre onglet" };
    writeKept(store, { userId: 7, articleId: 42, tabId: "tab-a", baseVersion: 3, keptAt: now - 2000, draft });
    writeKept(store, { userId: 7, articleId: 42, tabId: "tab-b", baseVersion: 3, keptAt: now - 1000, draft: other });
    // One from before tabs had their own entry, and a colleague's, and another article's.
    writeKept(store, { userId: 7, articleId: 42, baseVersion: 2, keptAt: now - 5000, draft });
    writeKept(store, { userId: 8, articleId: 42, tabId: "tab-c", baseVersion: 3, keptAt: now, draft });
    writeKept(store, { userId: 7, articleId: 43, tabId: "tab-a", baseVersion: 3, keptAt: now, draft });
    expect(store.map.size).toBe(5);
    const listed = listKept(store, 7, 42, now);
    expect(listed.map((k) => [k.tabId, k.draft.name])).toEqual([
      ["tab-b", "Autre onglet"],
      ["tab-a", draft.name],
      [null, draft.name],
    ]);
    removeKept(store, 7, 42, "tab-b");
    expect(listKept(store, 7, 42, now).map((k) => k.tabId)).toEqual(["tab-a", null]);
    // A tab's entry stays the tab's: read back under its own name only.
    expect(readKept(store, 7, 42, now, "tab-a")!.tabId).toBe("tab-a");
    expect(readKept(store, 7, 42, now, "tab-z")).toBeNull();
  });

  it("name entries so that nothing else parses as one, and prune any tab's entry older than 30 days", () => {
    expect(parseKeptKey(keptKey(7, 42, "0b6f-42"))).toEqual({ userId: 7, articleId: 42, tabId: "0b6f-42" });
    expect(parseKeptKey(keptKey(7, 42))).toEqual({ userId: 7, articleId: 42, tabId: null });
    for (const bad of [`${KEPT_PREFIX}7:42:`, `${KEPT_PREFIX}7:42:a:b`, `${KEPT_PREFIX}7:42:a b`, `${KEPT_PREFIX}x:42`, "muselingo:other:7:42"])
      expect(parseKeptKey(bad), bad).toBeNull();
    const store = new MemoryStore();
    writeKept(store, { userId: 1, articleId: 1, tabId: "old", baseVersion: 1, keptAt: now - KEPT_MAX_AGE_MS - 1, draft });
    writeKept(store, { userId: 1, articleId: 1, tabId: "new", baseVersion: 1, keptAt: now - KEPT_MAX_AGE_MS + 60_000, draft });
    store.setItem(`${KEPT_PREFIX}1:1:a:b`, "{}");
    pruneKept(store, now);
    expect([...store.map.keys()]).toEqual([keptKey(1, 1, "new")]);
  });
});

describe("a kept draft's text", () => {
  const kept = (tabId: string | null, keptAt: number, d: Draft = draft): KeptDraft => ({ userId: 7, articleId: 42, tabId, baseVersion: 3, keptAt, draft: d });

  it("write the same entry 50 times over for one draft, read back as the draft with fresh keys", () => {
    const store = new MemoryStore();
    const entry = kept("tab-a", now);
    const texts = new Set(Array.from({ length: 50 }, () => (writeKept(store, entry), store.getItem(keptKey(7, 42, "tab-a")))));
    expect([texts.size, store.map.size]).toEqual([1, 1]);
    const [text] = [...texts];
    expect(JSON.parse(text!)).not.toHaveProperty("tabId");
    const back = parseKept(text!, 7, 42, now, "tab-a")!;
    expect(snapshotOf(back.draft)).toBe(snapshotOf(draft));
    expect(back.draft.items.map((i) => i.key)).not.toEqual(draft.items.map((i) => i.key));
  });
});
