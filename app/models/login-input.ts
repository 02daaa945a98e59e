import { z } from "zod";

export const loginSchema = z.object({
  email: z.string({ required_error: "Required" }).trim().min(1, "Required").max(254).email("Not an e-mail address"),
  password: z.string({ required_error: "Required" }).min(1, "Required").max(1024),
});
