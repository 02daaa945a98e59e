-- The directory (decision 142): what is looked up before a museum is known, or must be unique across
-- museums. Everything else lives in the museum's shard (bindings DB, DB_1, …; migrations in drizzle/).

-- A museum's thin row: its id (handed out here, so it is unique across shards), its slug, where its data
-- lives and whether it is being moved. The museum's own settings (name, languages, time zone) stay in its shard.
CREATE TABLE museums (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  shard INTEGER NOT NULL CHECK (shard >= 0),
  state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'copying', 'frozen')),
  -- "" = the default location; "eu" = a shard created in the EU jurisdiction.
  jurisdiction TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL DEFAULT (unixepoch() * 1000)
);
CREATE INDEX museums_shard_idx ON museums (shard);

-- A member's e-mail address (normalized, lower case) → their museum: login finds the shard, and an address
-- joins at most one museum.
CREATE TABLE accounts (
  email TEXT PRIMARY KEY,
  museum_id INTEGER NOT NULL REFERENCES museums (id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX accounts_museum_idx ON accounts (museum_id);

-- A printed link (a QR code's or a tour's) → its museum: a scan finds the shard, and a link is unique across
-- museums. A link stays claimed after its code is deleted: a printed code never comes to lead elsewhere.
CREATE TABLE links (
  link TEXT PRIMARY KEY,
  museum_id INTEGER NOT NULL REFERENCES museums (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('qrcode', 'tour'))
) WITHOUT ROWID;
CREATE INDEX links_museum_idx ON links (museum_id);

-- Each shard's size as D1 last reported it (`meta.size_after`), written by the app Worker's daily cron: a new
-- museum goes to the shard with the most room (the smallest; a shard not measured yet is new, hence first).
CREATE TABLE shards (
  shard INTEGER PRIMARY KEY,
  bytes INTEGER NOT NULL,
  measured_at INTEGER NOT NULL
);

-- Rate limits keyed before a museum is known (login by address and e-mail), as the shards' own table.
CREATE TABLE login_attempts (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
