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

export interface Destination {
  label: string;
  toPathArray: string[];
  toFolderId: string | null;
  isParent: boolean;
}

/** Spec: the parent folder when not at the root, plus the sibling folders (never the item itself). */
export function moveDestinations(path: readonly string[], siblings: TreeNode[], item: TreeNode): Destination[] {
  const out: Destination[] = [];
  if (path.length > 0) {
    const parentPath = path.slice(0, -1);
    out.push({
      label: parentPath.at(-1) ?? "",
      toPathArray: parentPath.slice(0, -1),
      toFolderId: parentPath.at(-1) ?? null,
      isParent: true,
    });
  }
  for (const sibling of siblings) {
    if (sibling.type !== "folder" || itemKey(sibling) === itemKey(item)) continue;
    out.push({ label: sibling.name, toPathArray: [...path], toFolderId: sibling.id, isParent: false });
  }
  return out;
}

export function folderHref(path: readonly string[]): string {
  return ["/articles", ...path.map(encodeURIComponent)].join("/");
}
