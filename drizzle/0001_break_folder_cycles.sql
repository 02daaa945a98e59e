-- Hand-written (no schema change): breaks folder parent loops left by crossed concurrent moves before
-- moves were checked atomically. Each folder on a loop goes back to the root, renamed "name (id)" when a
-- live root folder already holds its name. The walk is bounded by the number of folders.
WITH RECURSIVE walk(start, cur, depth) AS (
  SELECT id, parent_id, 1 FROM folders WHERE parent_id IS NOT NULL
  UNION ALL
  SELECT w.start, f.parent_id, w.depth + 1 FROM walk w JOIN folders f ON f.id = w.cur
  WHERE w.cur != w.start AND f.parent_id IS NOT NULL AND w.depth <= (SELECT count(*) FROM folders)
)
UPDATE folders SET parent_id = NULL,
  name = CASE WHEN deleted_at IS NULL AND EXISTS (
    SELECT 1 FROM folders o WHERE o.museum_id = folders.museum_id AND o.parent_id IS NULL AND o.deleted_at IS NULL
      AND o.name = folders.name AND o.id != folders.id
  ) THEN substr(name, 1, 100 - length(' (' || id || ')')) || ' (' || id || ')' ELSE name END
WHERE id IN (SELECT start FROM walk WHERE cur = start);
