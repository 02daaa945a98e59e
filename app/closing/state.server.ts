// Whether a museum is closed (decision 148), read on its own shard: the one question every operator action asks first.
import { conflict } from "~/errors";

/** When the museum was closed, or null (open, or no such museum on this shard). */
export async function museumClosedAt(d1: D1Database, museumId: number): Promise<number | null> {
  const row = await d1.prepare("SELECT closed_at AS at FROM museums WHERE id = ?1").bind(museumId).first<{ at: number | null }>();
  return row?.at ?? null;
}

/** A closed museum takes nothing but a reopen: 409 `museum_closed`. */
export async function refuseClosed(d1: D1Database, museumId: number): Promise<void> {
  if ((await museumClosedAt(d1, museumId)) !== null) throw conflict("museum", "This museum is closed: reopen it first", "museum_closed");
}
