import { createCookie } from "@remix-run/cloudflare";
import { z } from "zod";

/** A message to show once on the next page, e.g. after a redirect; `key` is an i18n key. */
const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error"]),
  key: z.string(),
});
export type FlashToast = z.infer<typeof toastSchema>;

const toastCookie = createCookie("toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function flashToast(type: FlashToast["type"], key: string): Promise<string> {
  return toastCookie.serialize({ id: crypto.randomUUID(), type, key });
}

export async function readFlashToast(request: Request): Promise<{ toast: FlashToast | null; setCookie?: string }> {
  const raw: unknown = await toastCookie.parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { toast: null };
  const parsed = toastSchema.safeParse(raw);
  return {
    toast: parsed.success ? parsed.data : null,
    setCookie: await toastCookie.serialize("", { maxAge: 0 }),
  };
}
