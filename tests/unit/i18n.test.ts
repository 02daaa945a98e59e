import { describe, expect, it } from "vitest";
import { ERROR_CODES, REASON_TEXT } from "~/errors";
import { fixedT, resources } from "~/i18n/config";

/** The stored string itself, before i18next resolves plurals or interpolation. */
function raw(locale: "fr" | "en", key: string): string {
  let node: unknown = resources[locale].common;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : "";
}

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
      expect(placeholders(raw("en", key)), key).toEqual(placeholders(raw("fr", key)));
    }
  });

  it("are never empty", () => {
    for (const locale of ["fr", "en"] as const) {
      for (const key of keys(resources[locale].common)) expect(raw(locale, key).trim(), `${locale}:${key}`).not.toBe("");
    }
  });

  it("fix the spec's defects: a real English wrong-credentials sentence and a distinct logout error", () => {
    expect(fixedT("en")("login.invalid")).toBe("Invalid email or password");
    expect(fixedT("en")("logout.error")).not.toBe(fixedT("en")("logout.success"));
    expect(fixedT("fr")("logout.error")).not.toBe(fixedT("fr")("logout.success"));
  });

  it("interpolate variables and fall back to the key", () => {
    expect(fixedT("fr")("footer.credit", { product: "Muselingo", year: 2025 })).toBe("Muselingo 2025 par");
    expect(fixedT("en")("footer.credit", { product: "Muselingo", year: 2025 })).toBe("Muselingo 2025 by");
    expect(fixedT("en")("no.such.key")).toBe("no.such.key");
  });

  it("say plurals with i18next's plural forms, never with a bracketed (s)", () => {
    for (const locale of ["fr", "en"] as const) {
      for (const key of keys(resources[locale].common)) expect(raw(locale, key), `${locale}:${key}`).not.toMatch(/\(s\)/);
    }
    expect(fixedT("fr")("login.rateLimited", { count: 1 })).toBe("Trop de tentatives. Réessayez dans 1 minute.");
    expect(fixedT("fr")("login.rateLimited", { count: 15 })).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
    expect(fixedT("en")("login.rateLimited", { count: 1 })).toBe("Too many attempts. Try again in 1 minute.");
  });

  it("have a message for every error code and reason the server sends", () => {
    for (const locale of ["fr", "en"] as const) {
      for (const reason of Object.keys(REASON_TEXT)) expect(raw(locale, `errors.reasons.${reason}`), `${locale}:${reason}`).not.toBe("");
      for (const code of ERROR_CODES) expect(raw(locale, `errors.codes.${code}`), `${locale}:${code}`).not.toBe("");
    }
  });
});
