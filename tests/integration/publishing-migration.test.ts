import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("migration 0008 on a database that already holds an article", () => {
  it("makes the article published, version 1 of its history", async () => {
    const db = env.MIGRATION_TEST_DB;
    const upTo0007 = env.TEST_MIGRATIONS.filter((m) => m.name < "0008");
    const the0008 = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0008"));
    expect(upTo0007).toHaveLength(8);
    expect(the0008).toHaveLength(1);
    await applyD1Migrations(db, upTo0007);
    const museum = await db.prepare("INSERT INTO museums (name, slug) VALUES ('Ancien', 'ancien') RETURNING id").first<{ id: number }>();
    const content = JSON.stringify([
      { type: "metadatas", url: "la-joconde" },
      { type: "text", content: "Déjà en ligne" },
    ]);
    const article = await db
      .prepare(
        "INSERT INTO articles (museum_id, slug, unformatted_name, content, version, updated_at) VALUES (?, 'la-joconde', 'La Joconde', ?, 7, 1700000000000) RETURNING id",
      )
      .bind(museum!.id, content)
      .first<{ id: number }>();
    await applyD1Migrations(db, the0008);
    const row = await db
      .prepare("SELECT content, version, published_content, published_version, published_at, publish_at FROM articles WHERE id = ?")
      .bind(article!.id)
      .first();
    expect(row).toEqual({ content, version: 7, published_content: content, published_version: 7, published_at: 1700000000000, publish_at: null });
    const versions = await db
      .prepare("SELECT number, content, name, published_at, museum_id FROM article_versions WHERE article_id = ?")
      .bind(article!.id)
      .all();
    expect(versions.results).toEqual([{ number: 1, content, name: "La Joconde", published_at: 1700000000000, museum_id: museum!.id }]);
  });
});
