import type { Database } from "~/db/client.server";

/**
 * Breaks parent loops: each folder on a loop goes back to the root, renamed "name (id)" if a live root
 * folder already holds its name. Loops cannot be made through the API any more (moves are checked in
 * the same statement that writes them); this heals data written before that, or by hand.
 */
export async function repairFolderCycles(db: Database, museumId: number, folderIds: readonly number[]) {
  const d1 = db.$client;
  console.warn(`folders: breaking a parent loop in museum ${museumId}: folders ${folderIds.join(", ")} go back to the root`);
  await d1.batch(
    folderIds.map((id) =>
      d1
        .prepare(
          `UPDATE folders SET parent_id = NULL,
             name = CASE WHEN deleted_at IS NULL AND EXISTS (
               SELECT 1 FROM folders o WHERE o.museum_id = ?2 AND o.parent_id IS NULL AND o.deleted_at IS NULL AND o.name = folders.name AND o.id != ?1
             ) THEN substr(name, 1, 100 - length(' (' || id || ')')) || ' (' || id || ')' ELSE name END
           WHERE id = ?1 AND museum_id = ?2`,
        )
        .bind(id, museumId),
    ),
  );
}
