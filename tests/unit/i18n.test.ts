import { describe, expect, it } from "vitest";
import { resources, translate } from "~/i18n/config";

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort();
}

describe("interface strings", () => {
  it("exist in both French and English", () => {
    expect(keys(resources.en.common).sort()).toEqual(keys(resources.fr.common).sort());
  });

  it("use the same placeholders in both languages", () => {
    for (const key of keys(resources.fr.common)) {
      expect(placeholders(translate("en", key)), key).toEqual(placeholders(translate("fr", key)));
    }
  });

  it("are never empty", () => {
    for (const locale of ["fr", "en"] as const) {
      for (const key of keys(resources[locale].common)) expect(translate(locale, key).trim(), `${locale}:${key}`).not.toBe("");
    }
  });

  it("fix the spec's defects: a real English wrong-credentials sentence and a distinct logout error", () => {
    expect(translate("en", "login.invalid")).toBe("Invalid email or password");
    expect(translate("en", "logout.error")).not.toBe(translate("en", "logout.success"));
    expect(translate("fr", "logout.error")).not.toBe(translate("fr", "logout.success"));
  });

  it("interpolate variables and fall back to the key", () => {
    expect(translate("fr", "footer.credit", { product: "Muselingo", year: 2025 })).toBe("Muselingo 2025 par");
    expect(translate("en", "footer.credit", { product: "Muselingo", year: 2025 })).toBe("Muselingo 2025 by");
    expect(translate("en", "no.such.key")).toBe("no.such.key");
  });
});
