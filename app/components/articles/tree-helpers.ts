import type { TreeNode } from "~/models/tree-input";

export type FolderNode = Extract<TreeNode, { type: "folder" }>;

export function itemKey(node: TreeNode): string {
  return node.type === "folder" ? `folder:${node.id}` : `article:${node.id}`;
}

/** Folders and articles inside a folder, at any depth. */
export function countDescendants(node: TreeNode): number {
  if (node.type !== "folder") return 0;
  return node.children.reduce((n, child) => n + 1 + countDescendants(child), 0);
}

export function findFolder(nodes: TreeNode[], path: readonly string[]): TreeNode[] | null {
  let current = nodes;
  for (const name of path) {
    const next = current.find((n): n is FolderNode => n.type === "folder" && n.id === name);
    if (!next) return null;
    current = next.children;
  }
  return current;
}

/** The full path of every folder of the tree, parents before their children, in tree order. */
export function allFolderPaths(nodes: TreeNode[], parent: readonly string[] = []): string[][] {
  return nodes.flatMap((node) => {
    if (node.type !== "folder") return [];
    const path = [...parent, node.id];
    return [path, ...allFolderPaths(node.children, path)];
  });
}

export interface Destination {
  /** The destination's full path joined with " / " (siblings: their name); "" is the root. */
  label: string;
  toPathArray: string[];
  toFolderId: string | null;
  isParent: boolean;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);
const startsWith = (path: readonly string[], prefix: readonly string[]) => path.length >= prefix.length && prefix.every((s, i) => s === path[i]);

function destinationOf(folderPath: readonly string[], label: string, isParent: boolean): Destination {
  return {
    label,
    toPathArray: folderPath.slice(0, -1),
    toFolderId: folderPath.at(-1) ?? null,
    isParent,
  };
}

/**
 * Where an item of the folder `path` can go: first the spec's parent folder (not at the root) and sibling
 * folders, then every other folder of the museum by its full path (and the root when it is not the parent).
 * Never the item itself, its current folder, or (for a folder) one of its own descendants.
 */
export function moveDestinations(
  path: readonly string[],
  siblings: TreeNode[],
  item: TreeNode,
  everyFolder: readonly (readonly string[])[] = [],
): Destination[] {
  const out: Destination[] = [];
  const listed: (readonly string[])[] = [path];
  const own = item.type === "folder" ? [...path, item.id] : null;
  if (path.length > 0) {
    const parentPath = path.slice(0, -1);
    out.push(destinationOf(parentPath, parentPath.join(" / "), true));
    listed.push(parentPath);
  }
  for (const sibling of siblings) {
    if (sibling.type !== "folder" || itemKey(sibling) === itemKey(item)) continue;
    const siblingPath = [...path, sibling.id];
    out.push(destinationOf(siblingPath, sibling.name, false));
    listed.push(siblingPath);
  }
  for (const folderPath of [[], ...everyFolder]) {
    if (listed.some((p) => samePath(p, folderPath))) continue;
    if (own && startsWith(folderPath, own)) continue;
    out.push(destinationOf(folderPath, folderPath.join(" / "), false));
    listed.push(folderPath);
  }
  return out;
}

export function folderHref(path: readonly string[]): string {
  return ["/articles", ...path.map(encodeURIComponent)].join("/");
}
