// The inputs of the publishing calls (issue 18, decision 041), checked by zod; a refusal's message is its
// reason code (errors.reasons.*).
import { z } from "zod";
import { articleIdSchema } from "~/models/tree-input";

/** The draft version the editor loaded, as for `update_article`. */
const versionSchema = z
  .number({ required_error: "required", invalid_type_error: "wrong_type" })
  .int("wrong_type")
  .positive("out_of_range")
  .max(Number.MAX_SAFE_INTEGER, "out_of_range");

// Controls, lone surrogates, bidi overrides and other invisible format characters are refused in a note.
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|\p{Cs}/u;

export const NOTE_MAX = 500;

export const publishArticleSchema = z.object({
  id: articleIdSchema,
  version: versionSchema,
  /**
   * Absent: publish now. A string: schedule (ISO 8601 with an offset or Z, or the museum's wall clock
   * "YYYY-MM-DDTHH:mm"). null: cancel the scheduled publication.
   */
  at: z.string({ invalid_type_error: "wrong_type" }).max(40, "invalid").nullable().optional(),
  note: z
    .string({ invalid_type_error: "wrong_type" })
    .max(NOTE_MAX * 2, "too_long")
    .transform((raw, ctx) => {
      const note = raw.normalize("NFC").trim();
      if (FORBIDDEN.test(note)) ctx.addIssue({ code: "custom", message: "forbidden_characters" });
      else if ([...note].length > NOTE_MAX) ctx.addIssue({ code: "custom", message: "too_long" });
      return note;
    })
    .optional(),
});
export type PublishArticleInput = z.infer<typeof publishArticleSchema>;

export const discardDraftSchema = z.object({ id: articleIdSchema });
export type DiscardDraftInput = z.infer<typeof discardDraftSchema>;
