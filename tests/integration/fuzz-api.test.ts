/**
 * Malformed-input fuzz of every call of the app (this file: the JSON API; fuzz-auth: the session pages;
 * fuzz-visitor: the public visitor routes), asserting the error contract:
 *
 *  1. Never a 5xx, for any input.
 *  2. Every /api/* and JSON /login error is JSON `{ error: { code, message, field? } }` with status 400
 *     (`field` naming the offending field when one is at fault), 401, 404, 405, 409, 413, 415 or 429.
 *  3. 405 responses carry an `Allow` header.
 *  4. An invalid value is never echoed back whole: an error body (other than an HTML page) is under
 *     2,000 characters even when the bad value was 1 MB; an HTML page never contains the bad value.
 *  5. A JSON body over 1 MB (1,048,576 bytes) answers 413 `too_large`, on any JSON call.
 *  6. The JSON content-type check parses the media type: "text/plain; a=application/json" answers 415
 *     `unsupported_media_type`; "application/json; charset=utf-8" is accepted.
 *  7. /login and /settings answer 400 or 415, not 500, to a body of an unexpected content type or none.
 *  8. After the fuzz the museum's data is intact: /api/tree answers 200 JSON with the folder made before.
 *
 * Deterministic: every generated input comes from a seeded PRNG (SEED below), so a failure replays.
 * Each call has its own table of cases (extend the tables, not the `it` blocks); requests run with
 * bounded concurrency and every contract breach is reported with the case, status and body excerpt.
 *
 * The file's tests share one storage (the Workers vitest plugin isolates storage per file, decision 128): each
 * `it` fuzzes the fixtures written in `beforeAll` and then checks they are intact (rule 8).
 */
import { beforeAll, describe, it } from "vitest";
import { getCallCases, JSON_TYPE, jsonCallCases } from "./fuzz/cases";
import { manageCalls, setUpFixtures } from "./fuzz/fixtures";
import { clip, fuzz, fx, type FuzzCase } from "./fuzz/harness";
import { MAX_JSON_BYTES, randomString, rngFor, TEST_TIMEOUT_MS } from "./fuzz/random";
import { enc, ser, sized } from "./fuzz/values";

beforeAll(setUpFixtures);

describe("malformed-input fuzz: the JSON API", () => {
  it("GET /api/tree", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz("GET /api/tree", getCallCases({ call: "GET /api/tree", path: "/api/tree", api: true, ok: [200] }, rngFor("GET /api/tree")));
  });

  it("GET /api/read/articles", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz(
      "GET /api/read/articles",
      getCallCases({ call: "GET /api/read/articles", path: "/api/read/articles", api: true, ok: [200] }, rngFor("GET /api/read/articles")),
    );
  });

  it("GET /api/read/article", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz(
      "GET /api/read/article",
      getCallCases(
        {
          call: "GET /api/read/article",
          path: "/api/read/article",
          api: true,
          ok: [200],
          query: { name: "articleId", valid: () => String(fx.articleInSalle), kind: "id" },
        },
        rngFor("GET /api/read/article"),
      ),
    );
  });

  it("GET /api/read/trash", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz(
      "GET /api/read/trash",
      getCallCases({ call: "GET /api/read/trash", path: "/api/read/trash", api: true, ok: [200] }, rngFor("GET /api/read/trash")),
    );
  });

  for (const [path, query] of [
    ["/api/read/article_versions", "id"],
    ["/api/read/qrcodes", undefined],
    ["/api/read/qrcode", "qrcodeId"],
    ["/api/read/qrcode_image", "qrcodeId"],
  ] as const) {
    it(`GET ${path}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const call = `GET ${path}`;
      await fuzz(
        call,
        getCallCases(
          {
            call,
            path,
            api: true,
            ok: [200],
            ...(query
              ? { query: { name: query, valid: () => String(path === "/api/read/article_versions" ? fx.articleAtRoot : fx.qrcode), kind: "id" as const } }
              : {}),
          },
          rngFor(call),
        ),
      );
    });
  }

  for (const name of [
    "add_article",
    "add_folder",
    "rename_article",
    "rename_folder",
    "delete_item",
    "move_item",
    "restore_item",
    "update_article",
    "add_qrcode",
    "update_qrcode",
    "restore_article_version",
  ]) {
    it(`POST /api/manage/${name}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const spec = manageCalls().find((c) => c.path.endsWith(`/${name}`))!;
      const cases = jsonCallCases(spec, rngFor(spec.call));
      if (name !== "add_article") return fuzz(spec.call, cases);
      // Two add_article at once pick the same next number; run the fuzz one request at a time so that
      // race shows up once, in its own case, instead of as random 500s among the fuzz cases.
      const together = [1, 2].map((n): FuzzCase => ({
        label: `valid add_article sent together with another (#${n})`,
        method: "POST",
        path: spec.path,
        contentType: JSON_TYPE,
        body: () => ser({ pathArray: [] }),
        session: "user",
        jsonErrors: true,
        api: true,
        expect: [{ rule: "rule 1 (concurrent requests)", status: [200] }],
      }));
      await fuzz(spec.call, cases, { concurrency: 1, together });
    });
  }

  it("unknown /api/nope", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("unknown /api/nope");
    const cases: FuzzCase[] = [];
    const paths = [
      "/api/nope",
      "/api/nope?x=1&x=2",
      "/api/",
      "/api/manage/nope",
      "/api/manage/",
      "/api/tree/extra",
      "/api/read/article/12",
      "/api/%E0%A4%A",
      "/api/%00",
      "/api/..%2F..%2Fsession",
      "/api//tree",
      `/api/${"n".repeat(8192)}`,
      `/api/${enc(randomString(rng, 40))}`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        for (const session of ["user", "none"] as const) {
          const withBody = method !== "GET";
          cases.push({
            label: `${method} ${clip(path, 40)} (${session} session)`,
            method,
            path,
            contentType: withBody ? JSON_TYPE : undefined,
            body: withBody ? () => '{"pathArray":[]}' : undefined,
            session,
            jsonErrors: true,
            api: true,
            expect: [{ rule: "docs", status: session === "user" ? [404, 405] : [401, 404, 405] }],
          });
        }
      }
    }
    cases.push({
      label: "1 MB + 1 byte JSON to an unknown call",
      method: "POST",
      path: "/api/nope",
      contentType: JSON_TYPE,
      body: () => sized(MAX_JSON_BYTES + 1, (pad) => ser({ pad })),
      session: "user",
      jsonErrors: true,
      api: true,
    });
    await fuzz("unknown /api/nope", cases);
  });
});
