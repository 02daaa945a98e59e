import { env } from "cloudflare:test";

// Stop numbers on articles, written straight to D1 (tours themselves: `createTour` in ./builders.ts).

export async function setStopNumber(articleId: number, stopNumber: number | null) {
  await env.DB.prepare("UPDATE articles SET stop_number = ? WHERE id = ?").bind(stopNumber, articleId).run();
}
