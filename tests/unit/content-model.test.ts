import { describe, expect, it } from "vitest";
import { ADDABLE_TYPES, ELEMENT_TYPES, newElement, VIDEO_ID_PATTERN } from "~/content/model";
import { contentElementSchema, ELEMENT_SCHEMAS } from "~/content/schema";

// ./model repeats, without zod, what the schema makes of a bare element (decision 077): these tests keep the
// two equal, so a default changed in the schema and not in the model fails here.
describe("the content model without the validator", () => {
  it("knows exactly the schema's element types, in order", () => {
    expect([...ELEMENT_TYPES]).toEqual([...contentElementSchema.optionsMap.keys()]);
    expect(Object.keys(ELEMENT_SCHEMAS).sort()).toEqual([...ELEMENT_TYPES].sort());
  });

  it("makes each new element with the schema's defaults", () => {
    for (const type of ADDABLE_TYPES) {
      const made = newElement(type);
      const extra = type === "video" ? { videoId: (made as { videoId: string }).videoId } : type === "accordion" ? { details: [{ type: "text" }] } : {};
      expect(made, type).toEqual(ELEMENT_SCHEMAS[type].parse({ type, ...extra }));
      // What the editor adds is valid content as it stands.
      expect(contentElementSchema.safeParse(made).success, type).toBe(true);
    }
  });

  it("gives each new element its own objects and each video a fresh id", () => {
    const a = newElement("accordion");
    const b = newElement("accordion");
    expect(a).toEqual(b);
    expect(a.header).not.toBe(b.header);
    expect(a.details[0]).not.toBe(b.details[0]);
    const ids = new Set(Array.from({ length: 50 }, () => newElement("video").videoId));
    for (const id of ids) expect(id).toMatch(VIDEO_ID_PATTERN);
    expect(ids.size).toBeGreaterThan(45);
  });
});
