// What the member calls accept (issue 18, decision 040). Messages are reason codes (decision 010).
import { z } from "zod";
import { langSchema } from "~/models/translation-input";
import { newPasswordSchema } from "~/models/password-input";
import { ROLES } from "./roles";

export const EMAIL_MAX_LENGTH = 254;
/** More languages than a translator could cover is a mistake, not a wish. */
export const MEMBER_LANGUAGES_MAX = 40;

/**
 * An e-mail address, trimmed and lowercased (the form users log in with). ASCII only, as zod's rule: an
 * address with accents, invisible or control characters is refused (400 naming `email`).
 */
export const memberEmailSchema = z
  .string({ required_error: "required", invalid_type_error: "wrong_type" })
  .max(EMAIL_MAX_LENGTH * 2, "too_long")
  .transform((email) => email.trim().toLowerCase())
  .pipe(z.string().min(1, "empty").max(EMAIL_MAX_LENGTH, "too_long").email("invalid"));

export const roleSchema = z.enum(ROLES, {
  errorMap: (issue) => ({ message: issue.code === "invalid_type" && issue.received === "undefined" ? "required" : "invalid" }),
});

/** A translator's languages (catalogue codes, deduplicated); an empty list means every language. */
export const memberLanguagesSchema = z
  .array(langSchema, { invalid_type_error: "wrong_type" })
  .max(MEMBER_LANGUAGES_MAX, "too_many")
  .transform((langs) => [...new Set(langs)].sort());

/** A row id: a positive integer, or its decimal form. */
export const idSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  ],
  {
    errorMap: (issue) => ({ message: issue.code === "invalid_union" ? "wrong_type" : "required" }),
  },
);

export const inviteMemberSchema = z.object({ email: memberEmailSchema, role: roleSchema, languages: memberLanguagesSchema.optional() }).strict();
export const revokeInvitationSchema = z.object({ id: idSchema }).strict();
export const updateMemberSchema = z.object({ userId: idSchema, role: roleSchema, languages: memberLanguagesSchema.optional() }).strict();
export const removeMemberSchema = z.object({ userId: idSchema }).strict();
export const passwordResetLinkSchema = z.object({ userId: idSchema }).strict();

/** `POST /invite/{token}` and `POST /reset/{token}`: the chosen password (the page's form also confirms it). */
export const choosePasswordSchema = z.object({ password: newPasswordSchema });
export const choosePasswordFormSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((d) => d.password === d.confirmPassword, { path: ["confirmPassword"], message: "mismatch" });

/** A link's token as the URL carries it: what `randomToken` makes (43 base64url characters), with room. */
/** An invitation or reset link's token: its museum's id, a dot, 32 random bytes in base64url (decision 142). */
export const TOKEN_PATTERN = /^[1-9]\d{0,15}\.[A-Za-z0-9_-]{32,64}$/;

/** The languages stored for a role: only a translator's count; the others' are always "every language". */
export function languagesForRole(role: (typeof ROLES)[number], languages: readonly string[] | undefined): string[] {
  return role === "translator" ? [...(languages ?? [])] : [];
}
