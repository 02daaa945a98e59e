import { z } from "zod";
import { DEFAULT_QR_LOOK, QR_LOOKS } from "~/qrcode/looks";
import { articleIdSchema } from "./tree-input";

export const qrcodeIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  ],
  { errorMap: () => ({ message: "wrong_type" }) },
);

/** The spec's `add_qrcode` takes no payload; an empty JSON object is the same call. */
export const addQrcodeSchema = z.object({}).strict();

/** `articleId: null` unlinks the code (it goes inactive). */
export const updateQrcodeSchema = z.object({ qrcodeId: qrcodeIdSchema, articleId: articleIdSchema.nullable() });

export const qrcodeQuerySchema = z.object({ qrcodeId: qrcodeIdSchema });

/** The image's colours (decision 115): black on white unless the spec's white on black is asked for. */
export const qrLookSchema = z.enum(QR_LOOKS, { errorMap: () => ({ message: "invalid" }) }).default(DEFAULT_QR_LOOK);
export const qrImageFormatSchema = z.enum(["png", "svg"], { errorMap: () => ({ message: "invalid" }) }).default("png");

export const qrcodeImageQuerySchema = z.object({
  qrcodeId: qrcodeIdSchema,
  format: qrImageFormatSchema,
  look: qrLookSchema,
});

/** 8 characters, lowercase letters and digits without look-alikes (no 0/o, 1/l/i): easy to type from paper. */
export const LINK_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const LINK_LENGTH = 8;
export const linkSchema = z.string().regex(new RegExp(`^[${LINK_ALPHABET}]{${LINK_LENGTH}}$`));
