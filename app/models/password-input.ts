import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** A password someone chooses (settings, an invitation, a reset link). Messages are reason codes. */
export const newPasswordSchema = z
  .string({ required_error: "required", invalid_type_error: "wrong_type" })
  .min(PASSWORD_MIN_LENGTH, "too_short")
  .max(PASSWORD_MAX_LENGTH, "too_long")
  // Spaces are fine inside a password, but a password of spaces alone is no password.
  .refine((password) => password.trim() !== "", "invalid");

/** Messages are reason codes, said beside the field in the interface language. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "empty"),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((d) => d.newPassword === d.confirmPassword, {
    path: ["confirmPassword"],
    message: "mismatch",
  });
