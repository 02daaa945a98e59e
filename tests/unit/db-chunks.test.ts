import { describe, expect, it } from "vitest";
import { chunks, IN_LIST_MAX, rowsPerStatement } from "~/db/chunks";

describe("D1 chunking", () => {
  it("cuts a list into consecutive pieces of at most the size, keeping order", () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 90)).toEqual([]);
    const hashes = Array.from({ length: 181 }, (_, i) => i);
    const pieces = chunks(hashes, IN_LIST_MAX);
    expect(pieces.map((p) => p.length)).toEqual([90, 90, 1]);
    expect(pieces.flat()).toEqual(hashes);
  });

  it("refuses a size that would loop forever or drop items", () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => chunks([1], size)).toThrow(RangeError);
  });

  it("keeps a multi-row statement under D1's 100 bound parameters", () => {
    for (const columns of [5, 9, 12]) {
      expect(rowsPerStatement(columns) * columns).toBeLessThanOrEqual(100);
      expect((rowsPerStatement(columns) + 1) * columns).toBeGreaterThan(100);
    }
  });
});
