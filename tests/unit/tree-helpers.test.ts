import { describe, expect, it } from "vitest";
import { allFolderPaths, countDescendants, findFolder, folderHref, moveDestinations } from "~/components/articles/tree-helpers";
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
    expect(deep).toEqual([
      { label: "A", toPathArray: [], toFolderId: "A", isParent: true },
      { label: "", toPathArray: [], toFolderId: null, isParent: false },
    ]);
  });

  it("lists every folder by its full path, parents first", () => {
    expect(allFolderPaths(tree)).toEqual([["A"], ["A", "B"], ["A", "C"]]);
    expect(allFolderPaths([])).toEqual([]);
  });

  it("then offers every other folder by its path, never the current folder nor a folder's own descendants", () => {
    const museum: TreeNode[] = [
      {
        type: "folder",
        id: "Salle 1",
        name: "Salle 1",
        children: [
          { type: "folder", id: "Vitrine 1", name: "Vitrine 1", children: [{ type: "folder", id: "Tiroir", name: "Tiroir", children: [] }] },
          { type: "folder", id: "Vitrine 2", name: "Vitrine 2", children: [] },
        ],
      },
      { type: "folder", id: "Salle 2", name: "Salle 2", children: [{ type: "article", id: 7, name: "Vase" }] },
    ];
    const every = allFolderPaths(museum);
    const labels = (ds: ReturnType<typeof moveDestinations>) => ds.map((d) => `${d.isParent ? "↑" : ""}${d.label}`);

    // An article in Salle 2: the root (its parent), the sibling-less folder's neighbours by path.
    const vase = moveDestinations(["Salle 2"], findFolder(museum, ["Salle 2"])!, { type: "article", id: 7, name: "Vase" }, every);
    expect(labels(vase)).toEqual(["↑", "Salle 1", "Salle 1 / Vitrine 1", "Salle 1 / Vitrine 1 / Tiroir", "Salle 1 / Vitrine 2"]);
    expect(vase[4]).toEqual({ label: "Salle 1 / Vitrine 2", toPathArray: ["Salle 1"], toFolderId: "Vitrine 2", isParent: false });

    // Vitrine 1 itself: parent Salle 1, sibling Vitrine 2, then the root and Salle 2; never its Tiroir.
    const inSalle1 = findFolder(museum, ["Salle 1"])!;
    const vitrine = moveDestinations(["Salle 1"], inSalle1, inSalle1[0]!, every);
    expect(labels(vitrine)).toEqual(["↑", "Vitrine 2", "Salle 2"]);
    expect(vitrine[0]).toEqual({ label: "", toPathArray: [], toFolderId: null, isParent: true });

    // Deep inside, the root is offered as an ordinary destination.
    const tiroir = moveDestinations(["Salle 1", "Vitrine 1", "Tiroir"], [], { type: "article", id: 9, name: "x" }, every);
    expect(labels(tiroir)).toEqual(["↑Salle 1 / Vitrine 1", "", "Salle 1", "Salle 1 / Vitrine 2", "Salle 2"]);
    expect(tiroir[1]).toEqual({ label: "", toPathArray: [], toFolderId: null, isParent: false });
  });

  it("builds folder links with each segment encoded", () => {
    expect(folderHref([])).toBe("/articles");
    expect(folderHref(["Salle 1", "A&B"])).toBe("/articles/Salle%201/A%26B");
  });
});
