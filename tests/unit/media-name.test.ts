import { describe, expect, it } from "vitest";
import { mediaRow } from "~/archive/rows";
import { ORIGINAL_NAME_MAX, sanitiseOriginalName } from "~/models/media-name";

describe("sanitiseOriginalName", () => {
  it("keeps ordinary, accented, right-to-left and emoji names as they are (NFC)", () => {
    for (const name of ["clip.mp4", "Visite de la salle 3.webm", "تمثال الملك.png", "מוזיאון.vtt", "🏺 amphore 👩🏽‍🎨.jpg", "a\u200Fb.png"])
      expect(sanitiseOriginalName(name)).toBe(name);
    expect(sanitiseOriginalName("Cafe\u0301.png")).toBe("Café.png");
  });

  it("drops path parts, controls and bidi overrides; decodes only the browser's %22, %0D and %0A", () => {
    expect(sanitiseOriginalName("C:\\Users\\x\\clip.mp4")).toBe("clip.mp4");
    expect(sanitiseOriginalName("/etc/../passwd")).toBe("passwd");
    expect(sanitiseOriginalName("photo\u202Egpj.exe")).toBe("photogpj.exe");
    expect(sanitiseOriginalName("a\u2066b\u2069c\uFEFF.png")).toBe("abc.png");
    expect(sanitiseOriginalName("a\u0000b\u001fc\u007fd\u0085e.png")).toBe("abcde.png");
    expect(sanitiseOriginalName("%22quoted%22%0D%0A.png")).toBe('"quoted".png');
    expect(sanitiseOriginalName("50%25 off.png")).toBe("50%25 off.png");
  });

  it("returns null when nothing is left or the value is not a string", () => {
    for (const value of ["", "  ", ".", "..", "dir/", "\u202E", null, undefined, 42]) expect(sanitiseOriginalName(value)).toBeNull();
  });

  it("cuts long names at 200 characters in the stem, keeping the extension and whole code points", () => {
    const cut = sanitiseOriginalName(`${"🏺".repeat(300)}.webm`)!;
    expect(Array.from(cut)).toHaveLength(ORIGINAL_NAME_MAX);
    expect(cut.endsWith("….webm")).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    const noExtension = sanitiseOriginalName("x".repeat(500))!;
    expect(Array.from(noExtension)).toHaveLength(ORIGINAL_NAME_MAX);
    expect(sanitiseOriginalName("x".repeat(ORIGINAL_NAME_MAX))).toBe("x".repeat(ORIGINAL_NAME_MAX));
  });
});

describe("archive media rows", () => {
  const row = { key: "m/1/image/a.png", kind: "image", contentType: "image/png", bytes: 10, articleId: null, width: 1, height: 1, createdAt: 1 };
  it("reads rows of older archives (no originalName) as unnamed, and sanitises a hostile name", () => {
    expect(mediaRow.parse(row).originalName).toBeNull();
    expect(mediaRow.parse({ ...row, originalName: null }).originalName).toBeNull();
    expect(mediaRow.parse({ ...row, originalName: "../\u202Eevil.png" }).originalName).toBe("evil.png");
    expect(mediaRow.safeParse({ ...row, originalName: 5 }).success).toBe(false);
  });
});
