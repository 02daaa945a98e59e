-- Moving a museum between shards (decision 143). While `state` is 'copying' or 'frozen', `moving_to` is the shard
-- its copy is being made on; once switched, `moved_from` is the shard whose old rows still wait to be removed.
-- `state_since` is when `state` last changed: the freeze waits until every isolate has seen 'copying'.
ALTER TABLE museums ADD COLUMN moving_to INTEGER;
ALTER TABLE museums ADD COLUMN moved_from INTEGER;
ALTER TABLE museums ADD COLUMN state_since INTEGER;
