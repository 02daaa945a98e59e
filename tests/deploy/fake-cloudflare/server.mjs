// A local fake of the Cloudflare REST API (v4), enough for wrangler 4.164 to run `npm run deploy` against it
// (CLOUDFLARE_API_BASE_URL=http://127.0.0.1:PORT/client/v4). It keeps the account's resources in memory,
// records every call (method, path, query, a summary of the body, never a secret's value), and can make one
// chosen call answer 500 to rehearse a failure in the middle of a deploy.
//
// Sources, read for wrangler 4.86.0 (github:cloudflare/workers-sdk at tag wrangler@4.86.0; what 4.164 added:
// decision 131, and the comments at each route) and the API
// reference at https://developers.cloudflare.com/api/ :
// - the envelope `{ success, errors: [{ code, message }], messages, result, result_info }`:
//   packages/wrangler/src/cfetch/index.ts (fetchResult throws APIError with the first error's code);
// - whoami: GET /user, GET /accounts, GET /memberships (packages/wrangler/src/user/whoami.ts);
// - D1: GET/POST /accounts/:a/d1/database (list, create; create answers { uuid, name }: src/d1/create.ts,
//   src/d1/list.ts), GET /accounts/:a/d1/database/:uuid, POST /accounts/:a/d1/database/:uuid/query with
//   { sql } answering an array of { results, success, meta } (src/d1/execute.ts executeRemotely);
//   migrations apply runs `CREATE TABLE IF NOT EXISTS d1_migrations…`, `SELECT * FROM d1_migrations ORDER
//   BY id`, then each file's SQL followed by `INSERT INTO d1_migrations (name) values ('…')`
//   (src/d1/migrations/apply.ts, helpers.ts);
// - KV: GET/POST /accounts/:a/storage/kv/namespaces (src/kv/index.ts through the `cloudflare` SDK);
// - R2: GET/POST /accounts/:a/r2/buckets, GET /accounts/:a/r2/buckets/:name (src/r2/helpers/bucket.ts);
//   a missing bucket is error 10006 "The specified bucket does not exist.";
// - Queues: GET /accounts/:a/queues?name=… (list, filtered by name), POST /accounts/:a/queues
//   { queue_name }, GET/POST/PUT …/queues/:id/consumers[/:cid] (src/queues/client.ts);
// - Workers: PUT /accounts/:a/workers/scripts/:name multipart (part `metadata` JSON with `main_module`,
//   `bindings`, `compatibility_date`, `assets`…; then the modules), secrets GET/PUT
//   /accounts/:a/workers/scripts/:name/secrets, assets upload session POST
//   /accounts/:a/workers/scripts/:name/assets-upload-session and POST /accounts/:a/workers/assets/upload,
//   schedules PUT /accounts/:a/workers/scripts/:name/schedules, the workers.dev subdomain GET
//   /accounts/:a/workers/subdomain and GET/POST /accounts/:a/workers/scripts/:name/subdomain
//   (src/deploy/deploy.ts, src/deploy/upload.ts, src/assets.ts, src/triggers/deploy.ts).
//   "Script not found" is error 10007 (src/secret/index.ts, src/deploy/deploy.ts).
import { randomUUID, randomBytes } from "node:crypto";
import { createServer } from "node:http";

export const ACCOUNT_ID = "9a7806061c88ada191ed06f989cc3dac";
export const SUBDOMAIN = "muselingo-rehearsal";

const hex32 = () => randomBytes(16).toString("hex");

/**
 * Starts the fake on 127.0.0.1:port. `fail` makes the first call matching `{ method, path: RegExp }`
 * answer 500 (once). Returns { url, calls, state, setFailure, close }.
 */
export async function startFakeCloudflare({ port = 0, fail = null, state: initial } = {}) {
  const state = initial ?? {
    d1: [], // { uuid, name, created_at, migrations: [{ id, name }], statements: number, jurisdiction: string | null }
    kv: [], // { id, title }
    r2: [], // { name, creation_date, jurisdiction: "default" | "eu" | "fedramp" }
    queues: [], // { queue_id, queue_name, consumers: [] }
    scripts: {}, // name → { uploads: [metadata], secrets: { NAME: length }, schedules, subdomain }
    assetSessions: {},
  };
  const calls = [];
  let failure = fail ? { ...fail } : null;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://fake");
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const path = url.pathname.replace(/^\/client\/v4/, "");
    const call = { method: req.method, path, query: Object.fromEntries(url.searchParams), status: 200 };
    calls.push(call);
    const send = (status, payload, extra = {}) => {
      call.status = status;
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(payload));
      Object.assign(call, extra);
    };
    // Lists are one page: a later page is empty (the `cloudflare` SDK and fetchPagedListResult ask for the
    // next page until one comes back short or empty; result_info as in the API reference's list answers).
    const page = Number(url.searchParams.get("page") ?? 1);
    const ok = (result, extra = {}) => {
      if (!Array.isArray(result)) return send(200, { success: true, errors: [], messages: [], result }, extra);
      const items = page > 1 ? [] : result;
      return send(
        200,
        {
          success: true,
          errors: [],
          messages: [],
          result: items,
          result_info: { page, per_page: 1000, count: items.length, total_count: result.length, total_pages: 1 },
        },
        extra,
      );
    };
    const error = (status, code, message) => send(status, { success: false, errors: [{ code, message }], messages: [], result: null });

    // `times` (default 1): how many matching calls fail; the `cloudflare` SDK retries a 500 twice itself.
    if (failure && (failure.times ?? 1) > 0 && req.method === failure.method && failure.path.test(path)) {
      failure.times = (failure.times ?? 1) - 1;
      call.injected = true;
      return error(500, 10000, "Internal Server Error (injected by the rehearsal)");
    }
    const json = () => (body.length ? JSON.parse(body.toString("utf8")) : {});
    const auth = req.headers.authorization ?? "";
    if (!/^Bearer \S+/.test(auth)) return error(401, 10000, "Authentication error");

    const A = `/accounts/${ACCOUNT_ID}`;
    let m;
    try {
      // whoami
      if (req.method === "GET" && path === "/user") return ok({ id: "u1", email: "operator@museum.example" });
      if (req.method === "GET" && path === "/user/tokens/verify") return ok({ id: "t1", status: "active" });
      if (req.method === "GET" && (path === "/accounts" || path === "/memberships"))
        return ok(path === "/accounts" ? [{ id: ACCOUNT_ID, name: "Museum account" }] : [{ id: "m1", account: { id: ACCOUNT_ID, name: "Museum account" } }]);
      // GraphQL Analytics API (https://developers.cloudflare.com/analytics/graphql-api/, R2's storage metrics
      // in https://developers.cloudflare.com/r2/platform/metrics-analytics/): `wrangler r2 bucket info` asks
      // r2StorageAdaptiveGroups for the last day (src/r2/helpers/bucket.ts getR2BucketMetrics). A GraphQL
      // answer is { data, errors }, not the v4 envelope; a new bucket has no storage sample yet.
      if (req.method === "POST" && path === "/graphql") {
        const { operationName } = json();
        if (operationName === "getR2StorageMetrics") {
          call.status = 200;
          res.writeHead(200, { "Content-Type": "application/json" });
          return res.end(JSON.stringify({ data: { viewer: { accounts: [{ r2StorageAdaptiveGroups: [] }] } }, errors: null }));
        }
      }
      if (!path.startsWith(A)) return error(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`);
      const sub = path.slice(A.length);

      // D1
      if (sub === "/d1/database" && req.method === "GET") {
        const name = url.searchParams.get("name");
        return ok(
          state.d1
            .filter((d) => !name || d.name === name)
            .map(({ uuid, name: n, created_at }) => ({ uuid, name: n, created_at, version: "production", num_tables: 0, file_size: 0 })),
        );
      }
      if (sub === "/d1/database" && req.method === "POST") {
        // `d1 create --jurisdiction eu` sends { name, jurisdiction } (wrangler src/d1/create.ts createD1Database);
        // the API takes "eu" or "fedramp" (https://developers.cloudflare.com/api/resources/d1/subresources/database/methods/create,
        // read 2026-11-27), and "us" since 2026-10-02 (developers.cloudflare.com/changelog/post/2026-10-02-us-jurisdiction).
        const { name, jurisdiction } = json();
        if (state.d1.some((d) => d.name === name)) return error(400, 7502, "A database with that name already exists");
        if (jurisdiction !== undefined && !["eu", "fedramp", "us"].includes(jurisdiction)) return error(400, 7400, `Unknown jurisdiction ${jurisdiction}`);
        const db = { uuid: randomUUID(), name, created_at: new Date().toISOString(), migrations: [], statements: 0, jurisdiction: jurisdiction ?? null };
        state.d1.push(db);
        call.created = `d1:${name}${jurisdiction ? `@${jurisdiction}` : ""}`;
        return ok({ uuid: db.uuid, name, created_in_region: "WEUR" });
      }
      if ((m = /^\/d1\/database\/([^/]+)(\/query|\/raw)?$/.exec(sub))) {
        const db = state.d1.find((d) => d.uuid === m[1]);
        if (!db) return error(404, 7404, "The database could not be found");
        if (!m[2] && req.method === "GET")
          return ok({ uuid: db.uuid, name: db.name, version: "production", num_tables: 0, file_size: 0, running_in_region: "WEUR" });
        if (m[2] && req.method === "POST") return ok(runSql(db, json().sql ?? "", call));
      }

      // KV
      if (sub === "/storage/kv/namespaces" && req.method === "GET") return ok(state.kv.map((n) => ({ ...n, supports_url_encoding: true })));
      if (sub === "/storage/kv/namespaces" && req.method === "POST") {
        const { title } = json();
        if (state.kv.some((n) => n.title === title)) return error(400, 10014, "a namespace with this account ID and title already exists");
        const ns = { id: hex32(), title };
        state.kv.push(ns);
        call.created = `kv:${title}`;
        return ok({ ...ns, supports_url_encoding: true });
      }

      // R2. A bucket lives in a jurisdiction: the `cf-r2-jurisdiction` header of every bucket call ("default" when
      // absent; "eu", "fedramp"), as the API documents it ("Create Bucket", POST /accounts/{account_id}/r2/buckets,
      // header cf-r2-jurisdiction) and wrangler sends it for `--jurisdiction` (src/r2/helpers/bucket.ts). The same
      // name may exist in two jurisdictions.
      const r2Jurisdiction = String(req.headers["cf-r2-jurisdiction"] ?? "default");
      if (sub.startsWith("/r2/buckets") && !["default", "eu", "fedramp"].includes(r2Jurisdiction))
        return error(400, 10040, `Unknown jurisdiction ${r2Jurisdiction}`);
      if (sub === "/r2/buckets" && req.method === "GET") return ok({ buckets: state.r2.filter((b) => b.jurisdiction === r2Jurisdiction) });
      if (sub === "/r2/buckets" && req.method === "POST") {
        const { name } = json();
        if (state.r2.some((b) => b.name === name && b.jurisdiction === r2Jurisdiction))
          return error(409, 10004, "The bucket you tried to create already exists, and you own it.");
        state.r2.push({ name, creation_date: new Date().toISOString(), location: "WEUR", storage_class: "Standard", jurisdiction: r2Jurisdiction });
        call.created = `r2:${name}${r2Jurisdiction === "default" ? "" : `@${r2Jurisdiction}`}`;
        return ok({});
      }
      if ((m = /^\/r2\/buckets\/([^/]+)$/.exec(sub)) && req.method === "GET") {
        const bucket = state.r2.find((b) => b.name === m[1] && b.jurisdiction === r2Jurisdiction);
        return bucket ? ok(bucket) : error(404, 10006, "The specified bucket does not exist.");
      }

      // Queues
      if (sub === "/queues" && req.method === "GET") {
        const names = url.searchParams.getAll("name");
        return ok(state.queues.filter((q) => names.length === 0 || names.includes(q.queue_name)).map(queueView));
      }
      if (sub === "/queues" && req.method === "POST") {
        const { queue_name, settings = {} } = json();
        if (state.queues.some((q) => q.queue_name === queue_name)) return error(409, 11009, "Queue name is already taken");
        // settings.message_retention_period: 60 s to 14 days, 4 days when absent (Cloudflare's changelog of
        // 2025-02-14, "Customize queue message retention periods"; wrangler's queues create sends it as here).
        const retention = settings.message_retention_period ?? 345_600;
        if (!Number.isInteger(retention) || retention < 60 || retention > 1_209_600) return error(400, 10001, "Invalid message_retention_period");
        const queue = {
          queue_id: hex32(),
          queue_name,
          consumers: [],
          created_on: new Date().toISOString(),
          settings: { delivery_delay: settings.delivery_delay ?? 0, delivery_paused: false, message_retention_period: retention },
        };
        state.queues.push(queue);
        call.created = `queue:${queue_name}`;
        return ok(queueView(queue));
      }
      if ((m = /^\/queues\/([^/]+)(\/consumers(?:\/([^/]+))?)?$/.exec(sub))) {
        const queue = state.queues.find((q) => q.queue_id === m[1]);
        if (!queue) return error(404, 11000, "Queue not found");
        if (!m[2] && req.method === "GET") return ok(queueView(queue));
        if (m[2] && req.method === "GET") return ok(queue.consumers);
        if (m[2] && (req.method === "POST" || req.method === "PUT")) {
          const consumer = { consumer_id: m[3] ?? hex32(), type: "worker", ...json() };
          queue.consumers = queue.consumers.filter(
            (c) => c.consumer_id !== consumer.consumer_id && c.script !== consumer.script_name && c.script_name !== consumer.script_name,
          );
          queue.consumers.push({ ...consumer, script: consumer.script_name });
          call.consumer = { queue: queue.queue_name, script: consumer.script_name, settings: consumer.settings, dead_letter_queue: consumer.dead_letter_queue };
          return ok(consumer);
        }
      }

      // Workers
      if (sub === "/workers/subdomain" && req.method === "GET") return ok({ subdomain: SUBDOMAIN });
      if ((m = /^\/workers\/(?:scripts|services)\/([^/]+)(\/.*)?$/.exec(sub))) {
        const name = m[1];
        const rest = m[2] ?? "";
        const script = state.scripts[name];
        if (rest === "" && req.method === "PUT") return await uploadScript(state, name, req, body, call, ok, error);
        if (rest === "/assets-upload-session" && req.method === "POST") {
          const { manifest } = json();
          const jwt = `fake-jwt-${hex32()}`;
          const hashes = Object.values(manifest ?? {}).map((entry) => entry.hash);
          state.assetSessions[jwt] = { name, count: hashes.length };
          call.assets = hashes.length;
          // Every file "needs" uploading on the first deploy: one bucket with every hash.
          return ok({ jwt, buckets: hashes.length ? [hashes] : [] });
        }
        if (!script) return error(404, 10007, `This Worker does not exist on your account. [code: 10007]`);
        if (rest === "" && req.method === "GET")
          return ok({ id: name, default_environment: { environment: "production", script: { id: name, tag: script.tag } } });
        if (rest === "/secrets" && req.method === "GET") return ok(Object.keys(script.secrets).map((n) => ({ name: n, type: "secret_text" })));
        if (rest === "/secrets" && req.method === "PUT") {
          const secret = json();
          script.secrets[secret.name] = String(secret.text ?? "").length;
          call.secret = secret.name;
          return ok({ name: secret.name, type: "secret_text" });
        }
        if (rest === "/schedules" && req.method === "PUT") {
          script.schedules = json();
          call.schedules = script.schedules;
          return ok({ schedules: script.schedules });
        }
        if (rest === "/schedules" && req.method === "GET") return ok({ schedules: script.schedules ?? [] });
        if (rest === "/subdomain" && req.method === "GET")
          return ok({ enabled: script.subdomain.enabled, previews_enabled: script.subdomain.previews_enabled });
        if (rest === "/subdomain" && req.method === "POST") {
          script.subdomain = { enabled: true, previews_enabled: true, ...json() };
          return ok(script.subdomain);
        }
        if (rest === "/settings" && (req.method === "GET" || req.method === "PATCH"))
          return ok(script.settings ?? { bindings: script.uploads.at(-1)?.bindings ?? [] });
        // A Worker that exists gets the versions API (src/deploy/deploy.ts canUseNewVersionsDeploymentsApi):
        // POST …/versions (the same multipart body), POST …/deployments at 100 %, PATCH …/script-settings
        // (src/versions/api.ts createDeployment, patchNonVersionedScriptSettings).
        if (rest === "/versions" && req.method === "POST") return await uploadScript(state, name, req, body, call, ok, error, "version");
        if (rest === "/deployments" && req.method === "POST") {
          const deployment = { id: randomUUID(), created_on: new Date().toISOString(), source: "wrangler", strategy: "percentage", ...json() };
          script.deployments.push(deployment);
          call.deployment = deployment.versions;
          return ok(deployment);
        }
        if (rest === "/deployments" && req.method === "GET") return ok({ deployments: script.deployments.slice(-1) });
        if (rest === "/script-settings" && req.method === "PATCH") return ok(json());
        if (rest.startsWith("/versions") && req.method === "GET") return ok({ items: [] });
      }
      // The Workers API (beta) a Worker as a whole: GET /accounts/:a/workers/workers/:worker_id answers the
      // Worker { id, name, created_on, updated_on, logpush, observability, subdomain: { enabled,
      // previews_enabled }, tags, tail_consumers } ("Get Worker" in https://developers.cloudflare.com/workers/api,
      // the Worker model in https://developers.cloudflare.com/api/go/resources/workers/subresources/beta). wrangler
      // 4.164 reads the workers.dev state from it before setting it (src/routes.ts getWorkerSubdomain, called
      // by src/triggers/deploy.ts subdomainDeploy), where 4.86 asked GET …/scripts/:name/subdomain.
      if ((m = /^\/workers\/workers\/([^/]+)$/.exec(sub)) && req.method === "GET") {
        const script = state.scripts[m[1]];
        if (!script) return error(404, 10007, "This Worker does not exist on your account. [code: 10007]");
        return ok({
          id: script.tag,
          name: m[1],
          created_on: script.created_on,
          updated_on: script.updated_on,
          logpush: false,
          observability: { enabled: false },
          subdomain: { enabled: script.subdomain.enabled, previews_enabled: script.subdomain.previews_enabled },
          tags: [],
          tail_consumers: [],
        });
      }
      if (sub === "/workers/assets/upload" && req.method === "POST") {
        const jwt = auth.replace(/^Bearer /, "");
        if (!state.assetSessions[jwt]) return error(401, 10000, "Authentication error (assets upload JWT)");
        call.assetBytes = body.length;
        return send(201, { success: true, errors: [], messages: [], result: { jwt: `fake-completion-${hex32()}` } });
      }
    } catch (e) {
      return error(400, 10000, `The fake could not read the request: ${e.message}`);
    }
    call.unknown = true;
    return error(404, 7003, `Could not route to ${path} (not in the fake: tests/deploy/fake-cloudflare/server.mjs)`);
  });

  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/client/v4`,
    calls,
    state,
    setFailure(next) {
      failure = next ? { ...next } : null;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function queueView(queue) {
  return {
    queue_id: queue.queue_id,
    queue_name: queue.queue_name,
    created_on: queue.created_on,
    modified_on: queue.created_on,
    producers: [],
    producers_total_count: 0,
    consumers: queue.consumers,
    settings: queue.settings,
    consumers_total_count: queue.consumers.length,
  };
}

/**
 * The part of D1's /query wrangler needs for migrations: the d1_migrations table (create, select, insert)
 * and any other statement accepted and counted. Each migration file arrives as one `sql` whose last
 * statement records its name.
 */
function runSql(db, sql, call) {
  const meta = { duration: 1, rows_read: 0, rows_written: 0, changes: 0, last_row_id: 0, changed_db: false, size_after: 4096, served_by: "fake" };
  // wrangler 4.164 quotes the table name (src/d1/migrations/helpers.ts escapeIdentifier: `"d1_migrations"`);
  // the unquoted form of older versions is accepted too, as D1 (SQLite) accepts both.
  if (/^\s*SELECT [\w*, ]+\s+FROM "?d1_migrations"?/i.test(sql)) {
    return [{ results: db.migrations.map((m) => ({ ...m, applied_at: m.applied_at })), success: true, meta }];
  }
  const inserted = [...sql.matchAll(/INSERT INTO "?d1_migrations"? \(name\)\s*values \('([^']+)'\)/gi)].map((match) => match[1]);
  for (const name of inserted) {
    if (db.migrations.some((m) => m.name === name)) throw new Error(`UNIQUE constraint failed: d1_migrations.name (${name})`);
    db.migrations.push({ id: db.migrations.length + 1, name, applied_at: new Date().toISOString().replace("T", " ").slice(0, 19) });
  }
  if (inserted.length) call.migrations = inserted;
  // A shard's id range (decision 142): recorded so the rehearsal can check which databases got one.
  const seeded = /INSERT INTO sqlite_sequence \(name, seq\) SELECT m\.name, (\d+)/.exec(sql);
  if (seeded) call.seeded = { database: db.name, first: Number(seeded[1]) };
  db.statements += 1;
  return [{ results: [], success: true, meta: { ...meta, changed_db: true } }];
}

async function uploadScript(state, name, req, body, call, ok, error, kind = "script") {
  const contentType = req.headers["content-type"] ?? "";
  if (!contentType.startsWith("multipart/form-data")) return error(400, 10021, "Expected a multipart/form-data upload");
  const form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  const part = form.get("metadata");
  const metadata = JSON.parse(typeof part === "string" ? part : await part.text());
  const modules = [...form.keys()].filter((key) => key !== "metadata");
  if (!modules.includes(metadata.main_module)) return error(400, 10021, `main_module ${metadata.main_module} is not among the uploaded parts`);
  const script = (state.scripts[name] ??= {
    tag: hex32(),
    created_on: new Date().toISOString(),
    uploads: [],
    deployments: [],
    secrets: {},
    schedules: null,
    subdomain: { enabled: false, previews_enabled: false },
  });
  script.updated_on = new Date().toISOString();
  // Secrets passed with the upload (`wrangler deploy --secrets-file`) are kept as names and lengths only.
  const bindings = metadata.bindings.map((b) => (b.type === "secret_text" ? { name: b.name, type: b.type, length: String(b.text ?? "").length } : b));
  for (const b of bindings) if (b.type === "secret_text") script.secrets[b.name] = b.length;
  if (metadata.keep_bindings?.includes("secret_text")) {
    // Kept from the previous version.
  }
  script.uploads.push({ ...metadata, bindings, modules });
  call.upload = {
    script: name,
    bindings,
    main_module: metadata.main_module,
    assets: Boolean(metadata.assets),
    compatibility_date: metadata.compatibility_date,
    modules: modules.length,
  };
  const versionId = randomUUID();
  if (kind === "version") {
    // ApiVersion (src/versions/types.ts): id, number, resources.script.etag, startup_time_ms.
    return ok({
      id: versionId,
      number: script.uploads.length,
      metadata: { source: "wrangler" },
      resources: { script: { etag: hex32(), handlers: ["fetch"] }, bindings: metadata.bindings },
      startup_time_ms: 10,
    });
  }
  script.deployments.push({ id: randomUUID(), versions: [{ version_id: versionId, percentage: 100 }] });
  return ok({
    id: name,
    tag: script.tag,
    etag: hex32(),
    handlers: ["fetch", "scheduled", "queue"],
    deployment_id: versionId,
    startup_time_ms: 10,
    has_modules: true,
    modified_on: new Date().toISOString(),
    created_on: new Date().toISOString(),
  });
}
