import { describe, expect, it } from "vitest";
import { flattenFolders, flattenTree, fold, moveItem, parseStopNumber } from "~/components/tours/tour-helpers";

describe("tour page helpers", () => {
  it("moves an item up, down and to the ends; out-of-range targets are clamped, a bad source changes nothing", () => {
    expect(moveItem(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveItem(["a", "b", "c"], 1, 99)).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b", "c"], 1, -5)).toEqual(["b", "a", "c"]);
    expect(moveItem(["a", "b"], 5, 0)).toEqual(["a", "b"]);
    const list = ["a"];
    expect(moveItem(list, 0, 0)).not.toBe(list);
  });

  it("reads a stop number: empty is none, 1–9999 digits only", () => {
    expect(parseStopNumber("")).toEqual({ ok: true, value: null });
    expect(parseStopNumber(" 12 ")).toEqual({ ok: true, value: 12 });
    expect(parseStopNumber("9999")).toEqual({ ok: true, value: 9999 });
    for (const bad of ["0", "10000", "-1", "1.5", "1e3", "١٢", "12a", "0x10"]) expect(parseStopNumber(bad), bad).toEqual({ ok: false });
  });

  it("flattens the tree in its order, with folder paths; folders too", () => {
    const tree = [
      {
        type: "folder" as const,
        id: "Salle",
        name: "Salle",
        children: [
          { type: "folder" as const, id: "Vitrine", name: "Vitrine", children: [{ type: "article" as const, id: 3, name: "Vase" }] },
          { type: "article" as const, id: 2, name: "Zeus" },
        ],
      },
      { type: "article" as const, id: 1, name: "Accueil" },
    ];
    expect(flattenTree(tree)).toEqual([
      { id: 3, name: "Vase", path: ["Salle", "Vitrine"] },
      { id: 2, name: "Zeus", path: ["Salle"] },
      { id: 1, name: "Accueil", path: [] },
    ]);
    expect(flattenFolders(tree)).toEqual([
      { name: "Salle", pathArray: [] },
      { name: "Vitrine", pathArray: ["Salle"] },
    ]);
    expect(fold("Athéna ÉTÉ")).toBe("athena ete");
  });
});
