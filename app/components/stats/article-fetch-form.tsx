import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export interface PickerArticle {
  id: number;
  unformatted_name: string;
}

/**
 * The spec's "Article :" picker and Fetch button. A GET form: the choice lands in the address (and the
 * loader), and the browser refuses to send it without a picked article, so no call goes out for nothing.
 */
export function ArticleFetchForm({ articles, days, articleId }: { articles: PickerArticle[]; days: number; articleId: number | null }) {
  const { t } = useTranslation();
  if (articles.length === 0) return <p className="stats-pick">{t("stats.noArticles")}</p>;
  return (
    <Form method="get" action="/stats" preventScrollReset className="stats-pick">
      <input type="hidden" name="days" value={days} />
      <label htmlFor="stats-article">{t("stats.articleLabel")}</label>
      {/* Keyed by the loaded choice: the select shows it again after a navigation, yet stays free to change. */}
      <select id="stats-article" name="articleId" required defaultValue={articleId ?? ""} key={articleId ?? "none"}>
        <option value="" disabled>
          {t("stats.chooseArticle")}
        </option>
        {articles.map((article) => (
          <option key={article.id} value={article.id}>
            {article.unformatted_name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--small">
        {t("stats.fetch")}
      </button>
    </Form>
  );
}
