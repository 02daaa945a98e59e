import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { users } from "~/db/schema";
import { conflict, type DomainError } from "~/errors";

/**
 * The 409 `stale_version` of a save that lost to another one, with who won for the editor's conflict panel
 * (decision 068): the current version, when and by whom it was saved (a member since removed is unknown).
 * One answer for articles and tours.
 */
export async function staleVersion(
  db: Database,
  museumId: number,
  what: "article" | "tour",
  still: { version: number; updatedAt: number; updatedBy: number | null },
): Promise<DomainError> {
  const by =
    still.updatedBy === null
      ? undefined
      : await db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(eq(users.id, still.updatedBy), eq(users.museumId, museumId)))
          .get();
  return conflict("version", `The ${what} was saved elsewhere meanwhile (now version ${still.version})`, "stale_version").withCurrent({
    version: still.version,
    savedAt: still.updatedAt,
    savedBy: by ?? null,
  });
}
