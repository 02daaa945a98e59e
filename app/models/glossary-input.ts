import { z } from "zod";
import { findLanguage } from "~/translation/languages";
import { checkPlainText } from "~/lib/names";

export const TERM_MAX_LENGTH = 100;
export const TRANSLATION_MAX_LENGTH = 200;

// The placeholder brackets the glossary's protection uses (decision 026) may not appear in a term.
const PLACEHOLDER_BRACKETS = /[⟦⟧]/u;
const HAS_WORD = /[\p{L}\p{N}]/u;

function textSchema(max: number, { term }: { term: boolean }) {
  return z.string({ required_error: "required", invalid_type_error: "wrong_type" }).transform((raw, ctx) => {
    const checked = checkPlainText(raw, max);
    if (!checked.ok) {
      ctx.addIssue({ code: "custom", message: checked.problem });
      return z.NEVER;
    }
    if (term && PLACEHOLDER_BRACKETS.test(checked.text)) {
      ctx.addIssue({ code: "custom", message: "forbidden_characters" });
      return z.NEVER;
    }
    // A term of punctuation only ("-") would be found everywhere.
    if (term && !HAS_WORD.test(checked.text)) {
      ctx.addIssue({ code: "custom", message: "invalid" });
      return z.NEVER;
    }
    return checked.text;
  });
}

/** A glossary term: NFC, trimmed, 1–100 characters, at least one letter or digit, no control/bidi/⟦⟧. */
export const glossaryTermTextSchema = textSchema(TERM_MAX_LENGTH, { term: true });
export const glossaryTranslationSchema = textSchema(TRANSLATION_MAX_LENGTH, { term: false });

/** A catalogue language code, stored in its catalogue spelling ("DE" → "de"). */
export const glossaryLangSchema = z.string({ invalid_type_error: "wrong_type" }).transform((raw, ctx) => {
  const language = raw.length <= 20 ? findLanguage(raw.trim()) : undefined;
  if (!language || language.code.toLowerCase() !== raw.trim().toLowerCase()) {
    ctx.addIssue({ code: "custom", message: "invalid" });
    return z.NEVER;
  }
  return language.code;
});

/**
 * `{ term, lang?, translation? }`: a term never translated (no lang, no translation), or translated one
 * fixed way into one language (both). null counts as absent.
 */
export const addGlossaryTermSchema = z
  .object({
    term: glossaryTermTextSchema,
    lang: glossaryLangSchema.nullish(),
    translation: glossaryTranslationSchema.nullish(),
  })
  .strict()
  .transform((input, ctx) => {
    const lang = input.lang ?? null;
    const translation = input.translation ?? null;
    if (lang !== null && translation === null) {
      ctx.addIssue({ code: "custom", path: ["translation"], message: "required" });
      return z.NEVER;
    }
    if (lang === null && translation !== null) {
      ctx.addIssue({ code: "custom", path: ["lang"], message: "required" });
      return z.NEVER;
    }
    return { term: input.term, lang, translation };
  });

export type AddGlossaryTermInput = z.infer<typeof addGlossaryTermSchema>;

export const glossaryTermIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  ],
  { errorMap: () => ({ message: "wrong_type" }) },
);

export const deleteGlossaryTermSchema = z.object({ id: glossaryTermIdSchema }).strict();
