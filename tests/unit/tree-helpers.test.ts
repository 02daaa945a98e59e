import { describe, expect, it } from "vitest";
import { countDescendants, findFolder, folderHref, moveDestinations } from "~/components/articles/tree-helpers";
import type { TreeNode } from "~/models/tree-input";

const tree: TreeNode[] = [
  {
    type: "folder",
    id: "A",
    name: "A",
    children: [
      { type: "folder", id: "B", name: "B", children: [{ type: "article", id: 3, name: "x" }] },
      { type: "folder", id: "C", name: "C", children: [] },
      { type: "article", id: 1, name: "one" },
    ],
  },
  { type: "article", id: 2, name: "two" },
];

describe("tree helpers", () => {
  it("finds a folder's items by path, or null", () => {
    expect(findFolder(tree, [])).toBe(tree);
    expect(findFolder(tree, ["A", "B"])).toEqual([{ type: "article", id: 3, name: "x" }]);
    expect(findFolder(tree, ["A", "Z"])).toBeNull();
    expect(findFolder(tree, ["two"])).toBeNull();
  });

  it("counts everything inside a folder", () => {
    expect(countDescendants(tree[0]!)).toBe(4);
    expect(countDescendants(tree[1]!)).toBe(0);
  });

  it("offers the parent (not at the root) and the sibling folders, never the item itself", () => {
    const inA = findFolder(tree, ["A"])!;
    const forB = moveDestinations(["A"], inA, inA[0]!);
    expect(forB).toEqual([
      { label: "", toPathArray: [], toFolderId: null, isParent: true },
      { label: "C", toPathArray: ["A"], toFolderId: "C", isParent: false },
    ]);
    const atRoot = moveDestinations([], tree, tree[1]!);
    expect(atRoot).toEqual([{ label: "A", toPathArray: [], toFolderId: "A", isParent: false }]);
    const deep = moveDestinations(["A", "B"], findFolder(tree, ["A", "B"])!, { type: "article", id: 3, name: "x" });
    expect(deep).toEqual([{ label: "A", toPathArray: [], toFolderId: "A", isParent: true }]);
  });

  it("builds folder links with each segment encoded", () => {
    expect(folderHref([])).toBe("/articles");
    expect(folderHref(["Salle 1", "A&B"])).toBe("/articles/Salle%201/A%26B");
  });
});
