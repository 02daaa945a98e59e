-- Id blocks handed to shards that receive a moved museum (decision 143). SQLite's AUTOINCREMENT gives a new row an id
-- above both its counter and the largest id the table holds, so a museum moved into a shard whose own ids are
-- lower would send that shard's next ids right after the museum's, into the range of the shard it came from. Such
-- a shard first moves its counters to a fresh block of 2^40 ids, above every id ever handed out: blocks 512 to
-- 908 (shard k's first block is k, from its seed; ids stay below 10^15), claimed here one at a time.
CREATE TABLE id_blocks (
  block INTEGER PRIMARY KEY,
  shard INTEGER NOT NULL,
  claimed_at INTEGER NOT NULL
);
