import { describe, expect, it } from "vitest";
import { highestNumber, nextNumberedName, slugify, uniqueSlug } from "~/utils/names";

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
