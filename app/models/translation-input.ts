import { z } from "zod";
import { TEXT_MAX_LENGTH } from "~/content/defaults";
import { findLanguage } from "~/translation/languages";
import { articleIdSchema } from "./tree-input";

/** A catalogue language, given by any tag the catalogue recognises; parsed to its catalogue code. */
export const langSchema = z
  .string({ required_error: "required", invalid_type_error: "wrong_type" })
  .max(35, "invalid")
  .transform((tag, ctx) => {
    const lang = findLanguage(tag);
    if (!lang) {
      ctx.addIssue({ code: "custom", message: "invalid" });
      return z.NEVER;
    }
    return lang.code;
  });

/**
 * Where a segment sits in the content (`segments.ts`): `e3.content.0`, `e5.d1.alt.0`, or a subtitle cue of
 * video 2 (`catalogue.server.ts`): `e2.vtt.c4.0.0` (block 4, line 0; a 1 MB file of cues with no blank line
 * between them numbers its lines past 9,999 in one block).
 */
export const segmentIdSchema = z
  .string({ required_error: "required", invalid_type_error: "wrong_type" })
  .regex(/^e\d{1,3}(?:(?:\.d\d{1,2})?\.(?:content|alt|header)\.\d{1,5}|\.vtt\.c\d{1,6}\.\d{1,6}\.\d{1,4})$/, "invalid");

// One line of text: control characters (line breaks included: a segment is one line), bidi overrides and
// lone surrogates are refused rather than stored.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const segmentTextSchema = z
  .string({ required_error: "required", invalid_type_error: "wrong_type" })
  .max(TEXT_MAX_LENGTH, "too_long")
  .refine((text) => !FORBIDDEN.test(text), "forbidden_characters")
  .transform((text) => text.normalize("NFC").trim())
  .refine((text) => text !== "", "empty");

export const translationQuerySchema = z.object({ articleId: articleIdSchema, lang: langSchema });
export const updateTranslationSchema = z.object({ articleId: articleIdSchema, lang: langSchema, segmentId: segmentIdSchema, text: segmentTextSchema });
export const resetTranslationSchema = z.object({ articleId: articleIdSchema, lang: langSchema });

/** The most segments one "mark as reviewed" call takes (decision 051). */
export const MARK_REVIEWED_MAX = 1000;

export const markReviewedSchema = z.object({
  articleId: articleIdSchema,
  lang: langSchema,
  segments: z
    .array(
      z.object({
        id: segmentIdSchema,
        // The machine text the person saw, compared with the stored one (never stored itself): any string.
        text: z.string({ required_error: "required", invalid_type_error: "wrong_type" }).max(TEXT_MAX_LENGTH * 4, "too_long"),
      }),
      { required_error: "required", invalid_type_error: "wrong_type" },
    )
    .min(1, "empty")
    .max(MARK_REVIEWED_MAX, "too_many"),
});
export const pretranslateSchema = z.object({
  articleId: articleIdSchema,
  langs: z
    .array(langSchema, { required_error: "required", invalid_type_error: "wrong_type" })
    .min(1, "empty")
    .max(20, "too_many")
    .transform((langs) => [...new Set(langs)]),
});
export const resolveReportSchema = z.object({
  reportId: z.union(
    [
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      z
        .string()
        .regex(/^[1-9]\d{0,14}$/)
        .transform(Number),
    ],
    {
      errorMap: () => ({ message: "wrong_type" }),
    },
  ),
});

/** A visitor's report: a short message, one line or several. */
export const REPORT_MAX_LENGTH = 500;
export const reportFormSchema = z.object({
  lang: z.string().max(35).optional(),
  message: z
    .string({ required_error: "required", invalid_type_error: "wrong_type" })
    .max(REPORT_MAX_LENGTH * 2, "too_long")
    .transform((text) =>
      text
        .normalize("NFC")
        .replace(/\r\n?/g, "\n")
        // eslint-disable-next-line no-control-regex -- control characters are what is removed
        .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
        .trim(),
    )
    .refine((text) => text !== "", "empty")
    .refine((text) => [...text].length <= REPORT_MAX_LENGTH, "too_long"),
});
