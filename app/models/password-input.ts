import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** Messages are i18n keys shown beside the field. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "settings.errors.currentPasswordRequired"),
    newPassword: z
      .string()
      .min(PASSWORD_MIN_LENGTH, "settings.errors.passwordTooShort")
      .max(PASSWORD_MAX_LENGTH, "settings.errors.passwordTooLong"),
    confirmPassword: z.string(),
  })
  .refine((d) => d.newPassword === d.confirmPassword, {
    path: ["confirmPassword"],
    message: "settings.errors.passwordMismatch",
  });
