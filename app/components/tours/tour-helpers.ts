/** Pure helpers of the tour pages (issue 21), shared with their unit test. */

/** The list with the item at `from` moved to `to` (both clamped); the same list when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** A stop number typed by staff: "" = none (null), 1–9999 digits only; anything else is refused. */
export function parseStopNumber(raw: string): { ok: true; value: number | null } | { ok: false } {
  const text = raw.trim();
  if (text === "") return { ok: true, value: null };
  if (!/^\d{1,4}$/.test(text)) return { ok: false };
  const value = Number(text);
  return value >= 1 && value <= 9999 ? { ok: true, value } : { ok: false };
}

/** Lower case without accents, so "athena" finds "Athéna". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

export interface TreeArticle {
  id: number;
  name: string;
  /** Folder names from the root, for showing where it is. */
  path: string[];
}

interface Node {
  type: "folder" | "article";
  id: string | number;
  name: string;
  children?: Node[];
}

/** The articles tree flattened in its own order (folders first), each article with its folder path. */
export function flattenTree(nodes: readonly Node[], path: string[] = []): TreeArticle[] {
  return nodes.flatMap((node) =>
    node.type === "folder" ? flattenTree(node.children ?? [], [...path, node.name]) : [{ id: Number(node.id), name: node.name, path }],
  );
}

/** Every folder of the tree with its parent path, in tree order: the "turn a folder into a tour" choices. */
export function flattenFolders(nodes: readonly Node[], path: string[] = []): { name: string; pathArray: string[] }[] {
  return nodes.flatMap((node) =>
    node.type === "folder" ? [{ name: node.name, pathArray: path }, ...flattenFolders(node.children ?? [], [...path, node.name])] : [],
  );
}
