import { z } from "zod";

export const loginSchema = z.object({
  email: z.string({ required_error: "required", invalid_type_error: "wrong_type" }).trim().min(1, "empty").max(254, "too_long").email("invalid"),
  password: z.string({ required_error: "required", invalid_type_error: "wrong_type" }).min(1, "empty").max(1024, "too_long"),
});
