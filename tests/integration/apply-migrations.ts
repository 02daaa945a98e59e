import { applyD1Migrations, env } from "cloudflare:test";
import { attemptKeys } from "~/models/auth.server";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Test files share their runtime's D1 (decision 130). A request without CF-Connecting-IP comes from the address
// "local", and the login limiter counts its refused logins for 15 minutes: ten of them in one file (a fuzz of the
// login, a wrong password checked) made every later file's requests from "local" answer 429, in whichever files
// shared that runtime. Each file starts with that one shared key cleared; limiter tests use addresses of their own.
const { addressKey } = await attemptKeys(env.SESSION_SECRET, "", "local");
await env.DB.prepare("DELETE FROM login_attempts WHERE key = ?").bind(addressKey).run();
