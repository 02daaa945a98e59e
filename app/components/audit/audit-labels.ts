import { AUDIT_ACTIONS } from "~/audit/actions";

/** An action's i18n key part: "item.delete" → "item_delete" (a dot would nest the key). */
export const actionKey = (action: string) => action.replace(/\./g, "_");

/** The groups in the order the filter offers them. */
export const AUDIT_GROUP_ORDER = ["article", "articles", "item", "translations", "glossary", "qrcode", "tour", "easy_read", "narration", "member", "session", "museum"] as const;

export const actionsInGroup = (group: string) => AUDIT_ACTIONS.filter((a) => a.startsWith(`${group}.`));
