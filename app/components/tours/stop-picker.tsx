import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { fold, type TreeArticle } from "./tour-helpers";

const SHOWN = 50;

/** The articles tree, searchable by name or folder, each article with an Add button. */
export function StopPicker({ articles, onAdd }: { articles: TreeArticle[]; onAdd: (article: TreeArticle) => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const matches = useMemo(() => {
    const needle = fold(query.trim());
    return needle ? articles.filter((a) => fold([...a.path, a.name].join(" / ")).includes(needle)) : articles;
  }, [articles, query]);
  return (
    <div className="stop-picker">
      <div className="field">
        <label htmlFor="tour-stop-search">{t("tours.picker.search")}</label>
        <input
          id="tour-stop-search"
          type="search"
          value={query}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="tour-stop-count"
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <p id="tour-stop-count" className="muted" aria-live="polite">
        {t("tours.picker.count", { count: matches.length })}
        {matches.length > SHOWN ? ` ${t("tours.picker.more", { count: SHOWN })}` : ""}
      </p>
      {articles.length === 0 ? <p className="muted">{t("tours.picker.noArticles")}</p> : null}
      <ul className="stop-picker__list">
        {matches.slice(0, SHOWN).map((article) => (
          <li key={article.id} className="stop-picker__item">
            <span className="stop-picker__name">
              {article.path.length ? <span className="muted stop-picker__path">{article.path.join(" / ")} / </span> : null}
              {article.name}
            </span>
            <button type="button" className="button button--small button--ghost" onClick={() => onAdd(article)}>
              {t("tours.picker.add")}
              <span className="visually-hidden"> — {article.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
