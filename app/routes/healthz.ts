import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { configReadiness } from "~/config.server";
import { getOnly } from "~/utils/api.server";
import { version } from "../../package.json";
import journal from "../../drizzle/meta/_journal.json";
import { DIRECTORY_MIGRATIONS } from "~/shards/directory-migrations";
import { bindingOfShard } from "~/shards/keys";
import { shardsOf } from "~/shards/route.server";

/** The migrations this build expects, as wrangler records them in d1_migrations (file names). */
const EXPECTED_MIGRATIONS = journal.entries.map((entry) => `${entry.tag}.sql`);

async function appliedMigrations(db: D1Database): Promise<{ applied: string[]; error: string | null }> {
  try {
    const table = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'").first();
    if (!table) return { applied: [], error: null };
    const { results } = await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    return { applied: results.map((row) => row.name), error: null };
  } catch {
    // The reason may hold details of the deployment; the operator reads it in `wrangler tail`.
    return { applied: [], error: "the database did not answer" };
  }
}

/**
 * `GET /healthz`, for the operator after a deploy and for uptime checks (decision 037): the version, the
 * migrations applied and missing, which engines are configured and whether each has what it needs. No
 * secret, no setting's value, no personal data: only names and booleans. 200 when everything is ready,
 * 503 otherwise (so a monitor sees it), with the same body.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env as unknown as Record<string, unknown> & { DB: D1Database };
  const readiness = configReadiness(env);
  const { applied, error } = await appliedMigrations(env.DB);
  const pending = EXPECTED_MIGRATIONS.filter((name) => !applied.includes(name));
  // Every other database the Worker binds: the directory and the other shards (decision 142).
  const shards = shardsOf(env);
  const others = [
    { name: "DIRECTORY", db: shards.directory, expected: DIRECTORY_MIGRATIONS },
    ...[...shards.byIndex].filter(([k]) => k !== 0).map(([k, db]) => ({ name: bindingOfShard(k), db, expected: EXPECTED_MIGRATIONS })),
  ];
  const databases = await Promise.all(
    others.map(async ({ name, db, expected }) => {
      const got = await appliedMigrations(db);
      return { binding: name, error: got.error, pending: expected.filter((file) => !got.applied.includes(file)) };
    }),
  );
  const problems: string[] = [];
  if (!readiness.sessionSecret) problems.push("SESSION_SECRET is missing or shorter than 32 characters");
  if (readiness.enginesError) problems.push(readiness.enginesError);
  for (const engine of readiness.engines) {
    if (!engine.ready) problems.push(`engine ${engine.id} lacks ${engine.missing.join(", ")}`);
  }
  if (error) problems.push(error);
  if (pending.length > 0) problems.push(`${pending.length} migration(s) not applied`);
  for (const other of databases) {
    if (other.error) problems.push(`${other.binding}: ${other.error}`);
    if (other.pending.length > 0) problems.push(`${other.binding}: ${other.pending.length} migration(s) not applied`);
  }
  const body = {
    ok: problems.length === 0,
    version,
    migrations: { applied: applied.length, expected: EXPECTED_MIGRATIONS.length, latest: applied.at(-1) ?? null, pending },
    databases: databases.map(({ binding, pending }) => ({ binding, pending })),
    engines: readiness.engines,
    // Visibly fake translations: fine for a local run, never what a museum's visitors should see.
    pseudoTranslations: readiness.engines.some((engine) => engine.offline),
    sessionSecret: readiness.sessionSecret,
    problems,
  };
  return new Response(JSON.stringify(body, null, 2), {
    status: body.ok ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const action = getOnly;
