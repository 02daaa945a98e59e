import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { museums } from "~/db/schema";
import { auditStatement } from "~/audit/log.server";
import { findLanguage } from "~/translation/languages";

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

export function listTimeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** Field messages are reason codes, which the settings form says in the interface language. */
export const museumSettingsSchema = z.object({
  name: z.string().trim().min(1, "empty").max(120, "too_long"),
  sourceLang: z.string().refine((code) => findLanguage(code)?.code === code, "invalid"),
  timezone: z.string().refine(isValidTimeZone, "invalid"),
});
export type MuseumSettings = z.infer<typeof museumSettingsSchema>;

export async function getMuseum(db: Database, museumId: number) {
  return db.query.museums.findFirst({ where: eq(museums.id, museumId) });
}

/** Saves the settings; the `museum.settings` audit entry (the values saved) goes in the same batch. */
export async function updateMuseumSettings(db: Database, museumId: number, settings: MuseumSettings, actor: { id: number; email: string }) {
  await db.batch([
    db.update(museums).set(settings).where(eq(museums.id, museumId)),
    auditStatement(db, { museumId, actor, action: "museum.settings", target: `museum:${museumId}`, detail: { ...settings } }),
  ]);
}
