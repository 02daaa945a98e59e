// The inputs of the easy-to-read calls (decision 094), checked by zod; a refusal's message is its reason code.
import { z } from "zod";
import { articleIdSchema } from "~/models/tree-input";

/** The easy-to-read version the caller last saw (0 = none yet): a stale one is refused with 409. */
const versionSchema = z
  .number({ required_error: "required", invalid_type_error: "wrong_type" })
  .int("wrong_type")
  .min(0, "out_of_range")
  .max(Number.MAX_SAFE_INTEGER, "out_of_range");

/** Field ids as `fields.ts` makes them: `e3.content`, `e5.header`, `e5.d1.alt`. */
const FIELD_ID = /^e\d{1,3}\.(?:content|alt|header|d\d{1,3}\.(?:content|alt))$/;
export const FIELD_TEXT_MAX = 20_000;

// Controls (but tab and line breaks), lone surrogates, bidi overrides and other invisible format characters.
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|\p{Cs}/u;

export const articleQuerySchema = z.object({ articleId: articleIdSchema });

export const generateEasyReadSchema = z.object({ articleId: articleIdSchema, version: versionSchema });
export type GenerateEasyReadInput = z.infer<typeof generateEasyReadSchema>;

export const updateEasyReadSchema = z.object({
  articleId: articleIdSchema,
  version: versionSchema,
  /** New texts by field id; fields not named keep their text. */
  texts: z
    .record(
      z.string().regex(FIELD_ID, "invalid"),
      z
        .string({ invalid_type_error: "wrong_type" })
        .max(FIELD_TEXT_MAX, "too_long")
        .refine((text) => !FORBIDDEN.test(text), "forbidden_characters"),
      { required_error: "required", invalid_type_error: "wrong_type" },
    )
    .refine((texts) => Object.keys(texts).length <= 2_000, "too_many"),
});
export type UpdateEasyReadInput = z.infer<typeof updateEasyReadSchema>;

export const approveEasyReadSchema = z.object({ articleId: articleIdSchema, version: versionSchema });
export type ApproveEasyReadInput = z.infer<typeof approveEasyReadSchema>;

export const deleteEasyReadSchema = z.object({ articleId: articleIdSchema });
