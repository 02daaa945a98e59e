// D1 and KV of the deployed account through Cloudflare's HTTP API, shaped as the Workers bindings are, so the same
// move code (app/shards/move.ts) runs against production from the operator's machine (decision 143).
//
// As Cloudflare documents them:
// - "Query D1 Database", POST /accounts/{account_id}/d1/database/{database_id}/query, body `{ sql, params }` or
//   `{ batch: [{ sql, params }] }`; the answer's `result` is one `{ results, success, meta }` per statement
//   (https://developers.cloudflare.com/api/resources/d1/subresources/database/methods/query);
// - "Write key-value pair", PUT /accounts/{account_id}/storage/kv/namespaces/{namespace_id}/values/{key_name}
//   with `expiration_ttl` in the query string
//   (https://developers.cloudflare.com/api/resources/kv/subresources/namespaces/subresources/values/methods/update).
// Authentication: CLOUDFLARE_API_TOKEN (D1 Write, Workers KV Storage Write) and CLOUDFLARE_ACCOUNT_ID, as wrangler
// reads them; CLOUDFLARE_API_BASE_URL, as wrangler honours it, points the calls elsewhere (a rehearsal).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";
import { d1Bindings } from "./shards.mjs";

/** A value as D1's HTTP API takes a parameter: a number, a string or null (a blob as its bytes' array). */
const param = (value) => (value instanceof ArrayBuffer ? [...new Uint8Array(value)] : value === undefined ? null : value);

export function httpD1({ base, account, token, databaseId, fetchImpl = fetch }) {
  const url = `${base}/accounts/${account}/d1/database/${databaseId}/query`;
  async function query(body) {
    const response = await fetchImpl(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => null);
    if (!response.ok || !answer?.success) {
      const message = answer?.errors?.map((e) => e.message).join("; ") || `HTTP ${response.status}`;
      throw new Error(`D1 ${databaseId}: ${message}`);
    }
    return answer.result;
  }
  const statement = (sql, params = []) => ({
    sql,
    params,
    bind: (...values) => statement(sql, values.map(param)),
    async all() {
      const [result] = await query({ sql, params });
      return { results: result.results ?? [], success: true, meta: result.meta ?? {} };
    },
    async run() {
      return this.all();
    },
    async first(column) {
      const { results } = await this.all();
      const row = results[0] ?? null;
      return column === undefined || row === null ? row : row[column];
    },
  });
  return {
    prepare: (sql) => statement(sql),
    async batch(statements) {
      const results = await query({ batch: statements.map((s) => ({ sql: s.sql, params: s.params })) });
      return results.map((r) => ({ results: r.results ?? [], success: true, meta: r.meta ?? {} }));
    },
  };
}

export function httpKv({ base, account, token, namespaceId, fetchImpl = fetch }) {
  return {
    async put(key, value, options = {}) {
      const ttl = options.expirationTtl ? `?expiration_ttl=${options.expirationTtl}` : "";
      const url = `${base}/accounts/${account}/storage/kv/namespaces/${namespaceId}/values/${encodeURIComponent(key)}${ttl}`;
      const response = await fetchImpl(url, { method: "PUT", headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/plain" }, body: value });
      if (!response.ok) throw new Error(`KV ${namespaceId}: HTTP ${response.status} writing ${key}`);
    },
  };
}

/** The deployed databases and KV namespace of wrangler.toml, by binding name (`DIRECTORY`, `DB`, `DB_1`, …, `KV`). */
export async function remoteBindings(environment = process.env, tomlPath = join(ROOT, "wrangler.toml")) {
  const token = environment.CLOUDFLARE_API_TOKEN;
  const account = environment.CLOUDFLARE_ACCOUNT_ID;
  if (!token || !account) throw new Error("a remote move needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID (D1 and KV write rights)");
  const base = (environment.CLOUDFLARE_API_BASE_URL || "https://api.cloudflare.com/client/v4").replace(/\/$/, "");
  const env = {};
  for (const { binding, database_id } of d1Bindings(tomlPath)) env[binding] = httpD1({ base, account, token, databaseId: database_id });
  const kv = /\[\[kv_namespaces\]\]\s*binding\s*=\s*"KV"\s*id\s*=\s*"([^"]+)"/.exec(readFileSync(tomlPath, "utf8"));
  if (kv) env.KV = httpKv({ base, account, token, namespaceId: kv[1] });
  return env;
}
