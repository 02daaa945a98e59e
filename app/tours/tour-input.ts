import { z } from "zod";
import { MEDIA_PREFIX, safeMediaSrc } from "~/content/urls";
import { checkPlainText } from "~/lib/names";
import { qrImageFormatSchema, qrLookSchema } from "~/models/qrcode-input";
import { articleIdSchema, folderNameSchema, pathArraySchema } from "~/models/tree-input";

/** Tours (issue 21, decisions 076 and 081–083): the API's input rules, shared by the routes and the staff pages. */

export const TOUR_NAME_MAX = 120;
export const TOUR_DESCRIPTION_MAX = 1000;
export const TOUR_MAX_STOPS = 200;
export const TOUR_MINUTES_MAX = 600;
export const STOP_NUMBER_MAX = 9999;

export const tourIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  ],
  { errorMap: () => ({ message: "wrong_type" }) },
);

/**
 * 1–120 characters, NFC, trimmed, no control, bidi-override or stray invisible characters (the glossary's
 * rule), and at least one visible character: a name of right-to-left marks alone (U+200F, allowed inside
 * Arabic or Hebrew text) would print as an empty heading on the tour page and the QR sheet ("empty").
 */
export const tourNameSchema = z.string({ required_error: "required", invalid_type_error: "wrong_type" }).transform((raw, ctx) => {
  const checked = checkPlainText(raw, TOUR_NAME_MAX);
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: checked.problem });
    return z.NEVER;
  }
  return checked.text;
});

// eslint-disable-next-line no-control-regex
const DESCRIPTION_FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Up to 1,000 characters, NFC, trimmed; line breaks kept (as \n), other controls refused. Empty is allowed. */
export const tourDescriptionSchema = z.string({ invalid_type_error: "wrong_type" }).transform((raw, ctx) => {
  if (LONE_SURROGATE.test(raw)) {
    ctx.addIssue({ code: "custom", message: "forbidden_characters" });
    return z.NEVER;
  }
  const text = raw.replace(/\r\n?/g, "\n").normalize("NFC").trim();
  if (DESCRIPTION_FORBIDDEN.test(text)) {
    ctx.addIssue({ code: "custom", message: "forbidden_characters" });
    return z.NEVER;
  }
  if ([...text].length > TOUR_DESCRIPTION_MAX) {
    ctx.addIssue({ code: "custom", message: "too_long" });
    return z.NEVER;
  }
  return text;
});

/** A `/media/…` path of this app (whose museum the model checks), or null for no cover. */
export const tourCoverSchema = z
  .string({ invalid_type_error: "wrong_type" })
  .max(2048, "too_long")
  .superRefine((src, ctx) => {
    const safe = safeMediaSrc(src);
    if (safe === null) ctx.addIssue({ code: "custom", message: "unsafe_url" });
    else if (!safe.startsWith(MEDIA_PREFIX)) ctx.addIssue({ code: "custom", message: "external_media" });
  })
  .nullable();

export const tourMinutesSchema = z
  .number({ invalid_type_error: "wrong_type" })
  .int("wrong_type")
  .min(1, "out_of_range")
  .max(TOUR_MINUTES_MAX, "out_of_range")
  .nullable();

export const stopNumberSchema = z
  .number({ required_error: "required", invalid_type_error: "wrong_type" })
  .int("wrong_type")
  .min(1, "out_of_range")
  .max(STOP_NUMBER_MAX, "out_of_range")
  .nullable();

/** `{name}`, or `{name, folderId, pathArray}`: a tour of the folder's live articles in tree order. */
export const addTourSchema = z.object({ name: tourNameSchema, folderId: folderNameSchema.optional(), pathArray: pathArraySchema.default([]) }).strict();

export const updateTourSchema = z
  .object({
    id: tourIdSchema,
    version: z.number({ required_error: "required", invalid_type_error: "wrong_type" }).int("wrong_type").positive("out_of_range"),
    name: tourNameSchema.optional(),
    description: tourDescriptionSchema.optional(),
    cover: tourCoverSchema.optional(),
    minutes: tourMinutesSchema.optional(),
    articleIds: z.array(articleIdSchema, { invalid_type_error: "wrong_type" }).max(TOUR_MAX_STOPS, "too_many").optional(),
  })
  .strict();

export const deleteTourSchema = z.object({ id: tourIdSchema }).strict();
export const tourQuerySchema = z.object({ id: tourIdSchema });

export const updateStopNumberSchema = z.object({ articleId: articleIdSchema, stopNumber: stopNumberSchema }).strict();

export type UpdateTourInput = z.infer<typeof updateTourSchema>;

export const tourQrQuerySchema = z.object({
  id: tourIdSchema,
  format: qrImageFormatSchema,
  look: qrLookSchema,
});
