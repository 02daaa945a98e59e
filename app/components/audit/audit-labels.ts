import { AUDIT_ACTIONS } from "~/audit/actions";

/** An action's i18n key part: "item.delete" → "item_delete" (a dot would nest the key). */
export const actionKey = (action: string) => action.replace(/\./g, "_");

/** The groups in the order the filter offers them. */
export const AUDIT_GROUP_ORDER = [
  "article",
  "folder",
  "articles",
  "item",
  "translations",
  "glossary",
  "qrcode",
  "tour",
  "easy_read",
  "question",
  "narration",
  "member",
  "session",
  "museum",
] as const;

export const actionsInGroup = (group: string) => AUDIT_ACTIONS.filter((a) => a.startsWith(`${group}.`));

/**
 * The sentence an entry reads as (`audit.sentence.<key>`): some actions have one per kind of target or per
 * case, named by a suffix; `count` then picks the plural form.
 */
export function sentenceKey(action: string, detail: Record<string, unknown>): string {
  const key = actionKey(action);
  if (action.startsWith("item.")) return `${key}_${detail.type === "folder" ? "folder" : "article"}`;
  if (action === "translations.reset") return `${key}_${Array.isArray(detail.languages) && detail.languages.length > 0 ? "some" : "all"}`;
  return key;
}

/** Every sentence key an action may use (the plural forms of a counted one included), for the test that each has words. */
export function sentenceKeys(action: string): string[] {
  const key = actionKey(action);
  if (action.startsWith("item.")) return [`${key}_article`, `${key}_folder`];
  if (action === "translations.reset") return [`${key}_some`, `${key}_all`];
  if (COUNTED.has(action)) return [`${key}_one`, `${key}_other`];
  return [key];
}

/** Actions whose sentence counts something (`detail.count`). */
const COUNTED = new Set(["translations.mark_reviewed"]);
