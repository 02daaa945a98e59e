// The XLIFF calls' parameters (decision 058), refused with the field named like every other call.
import { z } from "zod";
import { langSchema } from "~/models/translation-input";
import { articleIdSchema } from "~/models/tree-input";
import { XLIFF_VERSIONS } from "./format";

const folderIdSchema = z
  .string({ invalid_type_error: "wrong_type" })
  .regex(/^[1-9]\d{0,14}$/, "wrong_type")
  .transform(Number);

/** `GET /api/read/xliff?articleId=|folderId=&lang=&version=`: neither id exports the whole museum. */
export const xliffExportSchema = z
  .object({
    articleId: articleIdSchema.optional(),
    folderId: folderIdSchema.optional(),
    lang: langSchema,
    version: z.enum(XLIFF_VERSIONS, { errorMap: () => ({ message: "invalid" }) }).default("2.0"),
  })
  .superRefine((input, ctx) => {
    if (input.articleId !== undefined && input.folderId !== undefined) ctx.addIssue({ code: "custom", path: ["folderId"], message: "invalid" });
  });

/** A yes/no form field: absent, "", "false", "0", "off" are no; "true", "1", "on", "yes" are yes. */
export const flagSchema = z
  .string()
  .max(8)
  .transform((v, ctx) => {
    const value = v.trim().toLowerCase();
    if (["", "false", "0", "off", "no"].includes(value)) return false;
    if (["true", "1", "on", "yes"].includes(value)) return true;
    ctx.addIssue({ code: "custom", message: "invalid" });
    return z.NEVER;
  });
