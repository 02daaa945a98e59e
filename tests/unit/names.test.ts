import { describe, expect, it } from "vitest";
import { highestNumber, nextNumberedName, slugify, uniqueSlug, checkItemName, NAME_MAX_LENGTH } from "~/lib/names";

describe("nextNumberedName (the spec's new-folder rule)", () => {
  it("starts at 1", () => {
    expect(nextNumberedName("Nouveau dossier", [])).toBe("Nouveau dossier 1");
    expect(nextNumberedName("New folder", ["Salle 1", "Réserve"])).toBe("New folder 1");
  });

  it("counts an unnumbered name as 0", () => {
    expect(nextNumberedName("New folder", ["New folder"])).toBe("New folder 1");
  });

  it("takes one more than the highest number, not the count", () => {
    expect(nextNumberedName("Nouveau dossier", ["Nouveau dossier 1", "Nouveau dossier 7", "Nouveau dossier 3"])).toBe("Nouveau dossier 8");
  });

  it("ignores names that only start like the base", () => {
    expect(nextNumberedName("New folder", ["New folder 2b", "New folders 9", "Old New folder 4", "New folder 10x"])).toBe("New folder 1");
  });

  it("is exact about the base, including characters special in patterns", () => {
    expect(nextNumberedName("Dossier (A)", ["Dossier (A) 2", "Dossier A 5"])).toBe("Dossier (A) 3");
  });

  it("reads numbers after another separator for slugs", () => {
    expect(highestNumber("new-folder", ["new-folder-4", "new-folder", "new-folder-x"], "-")).toBe(4);
  });
});

describe("slugify", () => {
  it("keeps letters and digits, with dashes for spaces and accents dropped", () => {
    expect(slugify("Nouvel article 3")).toBe("nouvel-article-3");
    expect(slugify("  L'Été à Arles — 1888 ")).toBe("l-ete-a-arles-1888");
  });

  it("never returns an empty slug", () => {
    expect(slugify("日本語")).toBe("article");
    expect(slugify("---")).toBe("article");
  });

  it("caps the length without a trailing dash", () => {
    const slug = slugify(`${"a".repeat(79)} b`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("-")).toBe(false);
  });
});

describe("uniqueSlug", () => {
  it("adds the first free number", () => {
    expect(uniqueSlug("vase", new Set())).toBe("vase");
    expect(uniqueSlug("vase", new Set(["vase", "vase-2"]))).toBe("vase-3");
  });
});

describe("checkItemName (folder and article names)", () => {
  const ok = (raw: string) => {
    const result = checkItemName(raw);
    return result.ok ? result.name : `!${result.problem}`;
  };

  it("stores NFC, trimmed: NFC and NFD spellings are one name", () => {
    const nfd = "E\u0301te\u0301";
    expect(ok(nfd)).toBe("Été");
    expect(ok("  Été  ")).toBe("Été");
    expect(ok(nfd)).toBe(ok("Été"));
  });

  it("takes 1 to 100 characters", () => {
    expect(ok("")).toBe("!empty");
    expect(ok("   \t ")).toBe("!empty");
    expect(ok("a".repeat(NAME_MAX_LENGTH))).toBe("a".repeat(NAME_MAX_LENGTH));
    expect(ok("a".repeat(NAME_MAX_LENGTH + 1))).toBe("!too_long");
  });

  it("needs something a reader can see: direction, combining or joining marks alone are empty", () => {
    expect(ok("\u200F\u200F")).toBe("!empty");
    expect(ok("\u200E")).toBe("!empty");
    expect(ok("\u0301\u200F")).toBe("!empty");
    expect(ok("\u0301")).toBe("!empty");
    // Inside real words they stay, and emoji and punctuation alone are names.
    expect(ok("\u200Fمتحف")).toBe("\u200Fمتحف");
    expect(ok("👩\u200D🎨")).toBe("👩\u200D🎨");
    expect(ok("★")).toBe("★");
    expect(ok("…")).toBe("…");
    expect(ok("7")).toBe("7");
  });

  it("refuses a slash and the names . and ..", () => {
    expect(ok("a/b")).toBe("!slash");
    expect(ok("/")).toBe("!slash");
    expect(ok(".")).toBe("!dot_name");
    expect(ok(" .. ")).toBe("!dot_name");
    expect(ok("...")).toBe("...");
    expect(ok("v1.2")).toBe("v1.2");
  });

  it.each([
    ["NUL", "a\u0000b"],
    ["a C0 control", "a\u0007b"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["a bidi override", "abc\u202Eexe.txt"],
    ["a bidi isolate", "a\u2067b"],
    ["a zero-width space", "a\u200Bb"],
    ["a BOM inside", "a\uFEFFb"],
    ["a line separator", "a\u2028b"],
    ["a lone high surrogate", "a\uD800b"],
    ["a lone low surrogate", "a\uDC00"],
    ["a joiner at the end", "abc\u200D"],
    ["a joiner beside a space", "ab \u200Cc"],
  ])("refuses %s", (_, raw) => {
    expect(ok(raw)).toBe("!forbidden_characters");
  });

  it("keeps real text of every script, joiners inside words included", () => {
    for (const name of ["Salle des Pas-Perdus", "غرفة ١", "חדר 2", "می‌خواهم", "क्‍ष", "👩‍🎨 Atelier", "Зал №3", "展厅 七", "Ẹ̀kọ́"]) {
      expect(ok(name)).toBe(name.normalize("NFC"));
    }
  });
});
