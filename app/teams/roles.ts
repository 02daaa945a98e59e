// Who may do what in a museum (issue 18, decision 040). Pure: the API wrappers, the staff pages and the
// models all ask `can`, and the role-matrix integration test walks the same table.
import { DomainError } from "~/errors";

export const ROLES = ["admin", "editor", "translator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/**
 * What a call or a page needs:
 * - `session`: any member (the dashboard, one's own settings and sessions);
 * - `stats.read`: the statistics (every role);
 * - `content.read`: the articles tree, an article, the glossary (what a translator needs to work);
 * - `translations.review`: read, correct, pretranslate, reset and answer reports of translations (a translator only in
 *   their languages: `canReviewLanguage`);
 * - `content.edit`: articles, folders, media, QR codes, glossary, trash, translation management;
 * - `content.publish`: publish, schedule, discard drafts, restore versions;
 * - `museum.manage`: the museum's settings, members, invitations, password-reset links;
 * - `audit.read`: the audit log.
 */
export type Permission =
  "session" | "stats.read" | "content.read" | "translations.review" | "content.edit" | "content.publish" | "museum.manage" | "audit.read";

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: ["session", "stats.read", "content.read", "translations.review", "content.edit", "content.publish", "museum.manage", "audit.read"],
  editor: ["session", "stats.read", "content.read", "translations.review", "content.edit", "content.publish"],
  translator: ["session", "stats.read", "content.read", "translations.review"],
  viewer: ["session", "stats.read"],
};

export const PERMISSIONS = [...new Set(Object.values(GRANTS).flat())] as Permission[];

export interface Member {
  role: Role;
  /** A translator's languages (BCP 47 codes); empty = every language. Ignored for other roles. */
  languages: readonly string[];
}

export function can(member: Member, permission: Permission): boolean {
  return GRANTS[member.role]?.includes(permission) ?? false;
}

/** Whether the member may review translations into `lang`: a translator limited to some languages only in those. */
export function canReviewLanguage(member: Member, lang: string): boolean {
  if (!can(member, "translations.review")) return false;
  if (member.role !== "translator" || member.languages.length === 0) return true;
  const wanted = lang.toLowerCase();
  return member.languages.some((l) => l.toLowerCase() === wanted);
}

/**
 * The languages a member is limited to when reviewing (a translator's list), or null for every language.
 * Their translations page offers each of them from the start, before any visitor asked (decision 123).
 */
export function limitedLanguages(member: Member): readonly string[] | null {
  if (!can(member, "translations.review") || member.role !== "translator" || member.languages.length === 0) return null;
  return member.languages;
}

export function forbidden(message = "Your role in this museum does not allow this"): DomainError {
  return new DomainError("forbidden", message);
}

/** Throws 403 `forbidden` unless the member holds the permission. */
export function assertCan(member: Member, permission: Permission): void {
  if (!can(member, permission)) throw forbidden();
}

/** Throws 403 `forbidden` unless the member may review translations into `lang` (field `lang`). */
export function assertCanReviewLanguage(member: Member, lang: string, field = "lang"): void {
  if (!canReviewLanguage(member, lang)) throw new DomainError("forbidden", `Your role does not cover translations into ${lang}`, field);
}

/** The stored form of a translator's languages: a JSON array of codes. Anything unreadable reads as none. */
export function parseLanguages(stored: string | null | undefined): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
