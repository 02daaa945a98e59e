import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "~/audit/actions";
import { actionKey, AUDIT_GROUP_ORDER, sentenceKey, sentenceKeys } from "~/components/audit/audit-labels";
import en from "../../locales/en/common.json";
import fr from "../../locales/fr/common.json";

// Every audit action the code writes reads as words in both languages on /audit (decision 124): the test
// finds the actions in the source itself, so an action added anywhere in app/ without its words fails here,
// not on the page where staff would see a raw key such as "easy_read.approve".

const APP = join(__dirname, "../../app");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const DOTTED = /^[a-z_]+\.[a-z_]+$/;

/** The action keys a file writes: `action: "x.y"` (ternaries included) and, in raw SQL that inserts into audit_log, `'x.y'`. */
function writtenActions(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\baction:\s*([^,}\n]+)/g)) {
    for (const literal of match[1]!.matchAll(/(?<!\bt\()["'`]([^"'`]+)["'`]/g)) if (DOTTED.test(literal[1]!)) found.push(literal[1]!);
  }
  if (/INSERT INTO audit_log/.test(source)) {
    for (const literal of source.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) found.push(literal[1]!);
  }
  return found;
}

type Locale = { audit: { actionLabel: Record<string, string>; sentence: Record<string, string>; group: Record<string, string> } };
const LOCALES: [string, Locale][] = [
  ["fr", fr as unknown as Locale],
  ["en", en as unknown as Locale],
];

describe("audit actions have words", () => {
  const written = new Map<string, string>();
  for (const file of sourceFiles(APP)) for (const action of writtenActions(readFileSync(file, "utf8"))) written.set(action, file.slice(APP.length + 1));

  it("finds the actions written in app/, the raw SQL ones included", () => {
    expect(written.size).toBeGreaterThanOrEqual(45);
    // Written only inside SQL strings, and by a ternary.
    for (const action of ["item.purge", "glossary.delete", "qrcode.unlink", "qrcode.relink", "easy_read.approve", "translations.update"])
      expect([...written.keys()]).toContain(action);
  });

  it("knows every action written anywhere (the filter offers it)", () => {
    const unknown = [...written].filter(([action]) => !(AUDIT_ACTIONS as readonly string[]).includes(action)).map(([a, f]) => `${a} (${f})`);
    expect(unknown).toEqual([]);
  });

  it("has a label, a sentence for each case and a group in French and English for every action", () => {
    const missing: string[] = [];
    const actions = new Set<string>([...written.keys(), ...AUDIT_ACTIONS]);
    for (const [locale, strings] of LOCALES) {
      for (const action of actions) {
        if (!strings.audit.actionLabel[actionKey(action)]?.trim()) missing.push(`${locale} audit.actionLabel.${actionKey(action)}`);
        for (const key of sentenceKeys(action)) if (!strings.audit.sentence[key]?.trim()) missing.push(`${locale} audit.sentence.${key}`);
        const group = action.split(".")[0]!;
        if (!strings.audit.group[group]) missing.push(`${locale} audit.group.${group}`);
        if (!(AUDIT_GROUP_ORDER as readonly string[]).includes(group)) missing.push(`filter group ${group}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("picks a sentence the locales have for the cases an entry can be", () => {
    expect(sentenceKey("item.delete", { type: "folder" })).toBe("item_delete_folder");
    expect(sentenceKey("item.purge", { type: "article" })).toBe("item_purge_article");
    expect(sentenceKey("translations.reset", { languages: ["de"] })).toBe("translations_reset_some");
    expect(sentenceKey("translations.reset", { languages: "all" })).toBe("translations_reset_all");
    expect(sentenceKey("easy_read.approve", {})).toBe("easy_read_approve");
    for (const action of AUDIT_ACTIONS) {
      for (const detail of [{}, { type: "folder" }, { languages: ["de"] }, { count: 2 }]) {
        const key = sentenceKey(action, detail);
        expect(
          sentenceKeys(action).some((k) => k === key || k === `${key}_one`),
          `${action} ${JSON.stringify(detail)}`,
        ).toBe(true);
      }
    }
  });

  it("writes English sentences with English quotation marks and no French spacing", () => {
    const french: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value === "string") {
        if (/[«»\u202f]|\s[:;!?](\s|$)/.test(value)) french.push(`${path}: ${value}`);
      } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    };
    walk(en, "");
    expect(french).toEqual([]);
  });
});
