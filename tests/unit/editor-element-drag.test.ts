import { describe, expect, it } from "vitest";
import { dropIndex, keyStep, type Drag, type KeyStep } from "~/components/editor/use-element-drag";

/** Presses the keys in turn on the handle of card `index` of `count`, as the hook does: each step's drag is the next one's. */
function press(keys: string[], index: number, count: number, drag: Drag | null = null) {
  const steps: (KeyStep | null)[] = [];
  for (const key of keys) {
    const step = keyStep(drag, index, key, count);
    steps.push(step);
    if (step) drag = step.drag;
  }
  return { steps, drag };
}

describe("the handle's keys (decision 078)", () => {
  it("pick up with Space or Enter, move with the arrows, Home and End, and drop where the card now stands", () => {
    for (const key of [" ", "Enter"]) expect(keyStep(null, 2, key, 5)).toEqual({ drag: { from: 2, to: 2, keyboard: true }, say: "pickedUp", at: 2 });
    const { steps, drag } = press([" ", "ArrowDown", "ArrowRight", "ArrowUp", "End", "Home", "ArrowLeft", "ArrowDown", "Enter"], 2, 5);
    expect(steps.map((s) => [s?.say, s?.at])).toEqual([
      ["pickedUp", 2],
      ["movingTo", 3],
      ["movingTo", 4],
      ["movingTo", 3],
      ["movingTo", 4],
      ["movingTo", 0],
      ["movingTo", 0],
      ["movingTo", 1],
      ["moved", 1],
    ]);
    expect(drag).toBeNull();
  });

  it("drop in place, cancel with Escape (the blur's key too), and leave every other key alone", () => {
    expect(press([" ", "ArrowDown", "ArrowUp", " "], 1, 3).steps.at(-1)).toEqual({ drag: null, say: "droppedInPlace", at: 1 });
    expect(press(["Enter", "ArrowDown", "Escape"], 1, 3).steps.at(-1)).toEqual({ drag: null, say: "moveCancelled", at: 1 });
    // Not lifted: only Space and Enter mean something; Escape (a blur) does nothing, nothing is announced.
    for (const key of ["Escape", "ArrowDown", "Home", "Tab", "a", "Spacebar", "\u00a0", "", "🏺", "e\u0301", "\u202e"])
      expect(keyStep(null, 1, key, 3), key).toBeNull();
    // Lifted: a key that is not the drag's goes on (Tab moves focus; the blur then cancels).
    const lifted: Drag = { from: 1, to: 2, keyboard: true };
    for (const key of ["Tab", "a", "Shift", "\u00a0", "", "🏺", "e\u0301"]) expect(keyStep(lifted, 1, key, 3), key).toBeNull();
  });

  it("keep the same drag object for a step that changes nothing, so React renders nothing", () => {
    const atTop: Drag = { from: 0, to: 0, keyboard: true };
    expect(keyStep(atTop, 0, "ArrowUp", 4)!.drag).toBe(atTop);
    expect(keyStep(atTop, 0, "Home", 4)!.drag).toBe(atTop);
    const atEnd: Drag = { from: 0, to: 3, keyboard: true };
    expect(keyStep(atEnd, 0, "End", 4)!.drag).toBe(atEnd);
  });

  it("stop at either end after 50 arrows, and 50 Spaces pick up and drop in place in turn", () => {
    const down = press([" ", ...Array<string>(50).fill("ArrowDown")], 1, 4);
    expect(down.drag).toEqual({ from: 1, to: 3, keyboard: true });
    expect(down.steps.slice(3).every((s) => s?.say === "movingTo" && s.at === 3)).toBe(true);
    const up = press(Array<string>(50).fill("ArrowUp"), 1, 4, down.drag);
    expect(up.drag).toEqual({ from: 1, to: 0, keyboard: true });
    const spaces = press(Array<string>(50).fill(" "), 1, 4);
    expect(spaces.steps.map((s) => s?.say)).toEqual(Array.from({ length: 50 }, (_, i) => (i % 2 ? "droppedInPlace" : "pickedUp")));
    expect(spaces.drag).toBeNull();
  });

  it("a card's keys never drop another card: Space on a second handle picks that one up instead", () => {
    const first: Drag = { from: 0, to: 2, keyboard: true };
    expect(keyStep(first, 1, " ", 3)).toEqual({ drag: { from: 1, to: 1, keyboard: true }, say: "pickedUp", at: 1 });
    expect(keyStep(first, 1, "ArrowDown", 3)).toBeNull();
    expect(keyStep(first, 1, "Escape", 3)).toBeNull();
    // A pointer drag under way is not the keys': Space picks the card up by the keys.
    expect(keyStep({ from: 1, to: 2 }, 1, "Enter", 3)).toEqual({ drag: { from: 1, to: 1, keyboard: true }, say: "pickedUp", at: 1 });
    // A one-card list: every move stays in place.
    expect(press([" ", "ArrowDown", "End", "Home", " "], 0, 1).steps.map((s) => s?.at)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe("a pointer drag", () => {
  const boxes = [0, 100, 200, 300].map((top) => ({ top, height: 100 }));

  it("lands after every other card whose middle is above the pointer", () => {
    expect(dropIndex(boxes, 0, -500)).toBe(0);
    expect(dropIndex(boxes, 0, 49)).toBe(0);
    expect(dropIndex(boxes, 0, 151)).toBe(1);
    expect(dropIndex(boxes, 0, 351)).toBe(3);
    expect(dropIndex(boxes, 3, 10_000)).toBe(3);
    expect(dropIndex(boxes, 2, 151)).toBe(2);
    // Exactly on a middle is not past it; odd pointer values land at either end or nowhere past a card.
    expect(dropIndex(boxes, 0, 150)).toBe(0);
    expect(dropIndex(boxes, 1, Number.NaN)).toBe(0);
    expect(dropIndex(boxes, 1, Infinity)).toBe(3);
    expect(dropIndex([], 0, 10)).toBe(0);
  });
});
