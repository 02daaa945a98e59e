import { applyD1Migrations, env } from "cloudflare:test";
import { attemptKeys } from "~/models/auth.server";

import { shardSeedSql } from "../../scripts/shards.mjs";

// The directory and the three local shards (decision 142), each shard's ids in its own range.
await applyD1Migrations(env.DIRECTORY, env.TEST_DIRECTORY_MIGRATIONS);
for (const [k, db] of [env.DB, env.DB_1, env.DB_2].entries()) {
  await applyD1Migrations(db, env.TEST_MIGRATIONS);
  for (const statement of shardSeedSql(k).split(";\n")) await db.prepare(statement).run();
}

// Test files share their runtime's D1 (decision 130). A request without CF-Connecting-IP comes from the address
// "local", and the login limiter counts its refused logins for 15 minutes: ten of them in one file (a fuzz of the
// login, a wrong password checked) made every later file's requests from "local" answer 429, in whichever files
// shared that runtime. Each file starts with that one shared key cleared; limiter tests use addresses of their own.
const { addressKey } = await attemptKeys(env.SESSION_SECRET, "", "local");
await env.DIRECTORY.prepare("DELETE FROM login_attempts WHERE key = ?").bind(addressKey).run();
