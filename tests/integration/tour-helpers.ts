import { env } from "cloudflare:test";
import { LINK_ALPHABET, LINK_LENGTH } from "~/models/qrcode-input";

// Tours written straight to D1 (the staff API is another part of issue 21): a tour with its stops in
// order, and stop numbers on articles.

/** A fresh tour link of the printed alphabet. */
export function tourLink(): string {
  let out = "";
  const bytes = crypto.getRandomValues(new Uint8Array(LINK_LENGTH));
  for (const b of bytes) out += LINK_ALPHABET[b % LINK_ALPHABET.length];
  return out;
}

export async function insertTour(
  museumId: number,
  articleIds: readonly number[],
  fields: { name?: string; description?: string; minutes?: number | null; cover?: string | null; link?: string } = {},
) {
  const link = fields.link ?? tourLink();
  const row = await env.DB.prepare(
    "INSERT INTO tours (museum_id, link, name, description, cover, minutes, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      museumId,
      link,
      fields.name ?? "Le parcours des vases",
      fields.description ?? "Une promenade dans les salles grecques.",
      fields.cover ?? null,
      fields.minutes ?? 45,
      Date.now(),
    )
    .first<{ id: number }>();
  const id = row!.id;
  if (articleIds.length > 0) {
    await env.DB.batch(
      articleIds.map((articleId, i) =>
        env.DB.prepare("INSERT INTO tour_stops (tour_id, position, article_id, museum_id) VALUES (?, ?, ?, ?)").bind(id, i + 1, articleId, museumId),
      ),
    );
  }
  return { id, link };
}

export async function setStopNumber(articleId: number, stopNumber: number | null) {
  await env.DB.prepare("UPDATE articles SET stop_number = ? WHERE id = ?").bind(stopNumber, articleId).run();
}
