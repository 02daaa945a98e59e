import type { Database } from "~/db/client.server";
import { dayNumber } from "~/lib/dates";

export interface EasyReadOpens {
  articleId: number;
  name: string;
  opens: number;
}

/**
 * Opens of easy-to-read versions per article over the period ending `today` (decision 096), most opened
 * first; articles since deleted for good are left out (their rows stay until the museum goes).
 */
export async function easyReadOpens(db: Database, museumId: number, firstDay: string, today: string): Promise<EasyReadOpens[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT s.article_id AS articleId, a.unformatted_name AS name, SUM(s.opens) AS opens
       FROM easy_read_daily_stats s JOIN articles a ON a.id = s.article_id AND a.museum_id = s.museum_id
       WHERE s.museum_id = ?1 AND s.day >= ?2 AND s.day <= ?3
       GROUP BY s.article_id ORDER BY opens DESC, name LIMIT 200`,
    )
    .bind(museumId, dayNumber(firstDay), dayNumber(today))
    .all<EasyReadOpens>();
  return results;
}
