import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMember, createMuseum } from "./builders";

const EXPECTED: Record<string, string[]> = {
  museums: [
    "id",
    "name",
    "slug",
    "source_lang",
    "timezone",
    "created_at",
    "suspended_at",
    "translation_monthly_chars",
    "narration_monthly_chars",
    "closed_at",
    "questions_monthly",
  ],
  users: ["id", "museum_id", "email", "password_hash", "created_at", "role", "languages", "last_active_at"],
  sessions: ["id", "user_id", "expires_at", "created_at", "user_agent", "last_seen_at"],
  login_attempts: ["key", "window_start", "count"],
  folders: ["id", "museum_id", "parent_id", "name", "created_at", "deleted_at"],
  articles: [
    "id",
    "museum_id",
    "folder_id",
    "slug",
    "unformatted_name",
    "content",
    "version",
    "created_at",
    "updated_at",
    "deleted_at",
    "published_content",
    "published_version",
    "published_at",
    "publish_at",
    "publish_at_by",
    "updated_by",
    "stop_number",
  ],
  // 0014 (issue 32 §3, decision 145): the source text once per segment, in translation_segments.
  translation_memory: ["museum_id", "source_lang", "target_lang", "source_hash", "text", "origin", "engine", "updated_at"],
  translation_segments: ["museum_id", "source_lang", "source_hash", "source_text"],
  qrcodes: ["id", "museum_id", "link", "article_id", "created_at"],
  scan_events: ["id", "museum_id", "article_id", "qrcode_id", "lang", "kind", "occurred_at", "received_at"],
  scan_visits: ["fingerprint", "article_id", "kind", "counted_at", "inserted_at"],
  daily_stats: ["museum_id", "day", "article_id", "lang", "scans", "views"],
  media: ["id", "museum_id", "r2_key", "kind", "content_type", "bytes", "article_id", "width", "height", "created_at", "original_name"],
  translation_claims: ["museum_id", "source_lang", "target_lang", "source_hash", "expires_at"],
  translation_reviews: ["museum_id", "article_id", "target_lang", "segment_id", "source_hash", "source_text", "text", "updated_at"],
  translation_reports: ["id", "museum_id", "article_id", "lang", "message", "created_at", "resolved_at"],
  glossary_terms: ["id", "museum_id", "term", "target_lang", "translation", "created_at"],
  translation_failures: [
    "museum_id",
    "source_lang",
    "target_lang",
    "source_hash",
    "article_id",
    "engines",
    "reason",
    "detail",
    "failures",
    "first_failed_at",
    "last_failed_at",
    "retry_at",
  ],
  article_versions: ["article_id", "museum_id", "number", "content", "name", "published_at", "published_by", "published_by_email", "note"],
  member_tokens: [
    "id",
    "museum_id",
    "kind",
    "token_hash",
    "email",
    "role",
    "languages",
    "user_id",
    "created_by",
    "created_at",
    "expires_at",
    "used_at",
    "revoked_at",
  ],
  audit_log: ["id", "museum_id", "at", "actor_id", "actor_email", "action", "target", "detail"],
  // 0009 (issue 21 tours), 0010 (issue 22 narrations), 0011 (issue 22 easy to read).
  tours: ["id", "museum_id", "link", "name", "description", "cover", "minutes", "version", "created_at", "updated_at", "updated_by"],
  tour_stops: ["tour_id", "position", "article_id", "museum_id"],
  tour_daily_stats: ["museum_id", "day", "tour_id", "position", "views"],
  narrations: [
    "id",
    "museum_id",
    "article_id",
    "lang",
    "kind",
    "r2_key",
    "content_type",
    "bytes",
    "duration_ms",
    "text_hash",
    "engine",
    "voice",
    "created_at",
    "updated_at",
  ],
  narration_claims: ["article_id", "lang", "museum_id", "text_hash", "voice", "token", "expires_at", "failure"],
  easy_read_versions: [
    "article_id",
    "museum_id",
    "content",
    "version",
    "source_hash",
    "engine",
    "generated_at",
    "generating_until",
    "updated_at",
    "updated_by",
    "approved_content",
    "approved_version",
    "approved_source_hash",
    "approved_at",
    "approved_by",
  ],
  easy_read_daily_stats: ["museum_id", "day", "article_id", "lang", "opens"],
  // 0012 (issue 22 narration spend bound, decision 105).
  narration_spend: ["museum_id", "month", "chars"],
  // 0013 (issue 31 §1, decision 132): the museums whose visitor tables changed, noted by triggers.
  visitor_changes: ["museum_id", "changed_at"],
  // 0016 (issue 33, decision 148): engine use by museum, month, kind and engine; the translation bound's count.
  engine_usage: ["museum_id", "month", "kind", "engine", "chars", "calls"],
  translation_spend: ["museum_id", "month", "chars"],
  // 0017 (issue 34, decision 151): visitors' questions and the monthly bound's count of answers.
  visitor_questions: ["id", "museum_id", "article_id", "day", "lang", "question", "source_text", "topic", "answered", "sent", "status"],
  question_spend: ["museum_id", "month", "answers"],
};

describe("migrations on a fresh D1", () => {
  it("create every table and column the code expects", async () => {
    for (const [table, columns] of Object.entries(EXPECTED)) {
      const { results } = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(table).all<{ name: string }>();
      expect(results.map((r) => r.name).sort(), table).toEqual([...columns].sort());
    }
  });

  it("default a new museum to French and Europe/Paris", async () => {
    const museum = await createMuseum();
    const row = await env.DB.prepare("SELECT source_lang, timezone FROM museums WHERE id = ?").bind(museum.museumId).first();
    expect(row).toEqual({ source_lang: "fr", timezone: "Europe/Paris" });
  });

  it("keep live sibling folder names unique but allow a trashed duplicate", async () => {
    const museum = await createMuseum();
    const insert = (deletedAt: number | null) =>
      env.DB.prepare("INSERT INTO folders (museum_id, parent_id, name, deleted_at) VALUES (?, NULL, 'Salle 1', ?)").bind(museum.museumId, deletedAt).run();
    await insert(Date.now());
    await insert(null);
    await expect(insert(null)).rejects.toThrow(/UNIQUE/);
  });

  it("make an existing user an admin of every language (0008)", async () => {
    // A member made without a role: the columns' defaults, as an existing row got them.
    const user = await createMember(await createMuseum());
    const row = await env.DB.prepare("SELECT role, languages FROM users WHERE id = ?").bind(user.userId).first();
    expect(row).toEqual({ role: "admin", languages: "[]" });
  });

  it("make user e-mails unique", async () => {
    const museum = await createMuseum();
    const email = `same-${crypto.randomUUID()}@b.c`;
    const add = () => createMember(museum, { email });
    await add();
    await expect(add()).rejects.toThrow(/UNIQUE/);
  });
});
