import { Link } from "@remix-run/react";
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { filterArticles } from "./qrcode-helpers";

export interface PickerArticle {
  id: number;
  unformatted_name: string;
}

interface ArticlePickerProps {
  articles: readonly PickerArticle[];
  selected: number | null;
  onSelect: (id: number) => void;
}

/**
 * A search box over a native radio group: Tab or ↓ goes from the box to the list, the arrow keys move the
 * choice, and screen readers announce it as a group of radio buttons with no ARIA to get wrong.
 */
export function ArticlePicker({ articles, selected, onSelect }: ArticlePickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const matches = useMemo(() => filterArticles(articles, query), [articles, query]);
  const list = useRef<HTMLDivElement>(null);
  const id = useId();

  if (articles.length === 0) {
    return (
      <p className="picker__empty">
        {t("qrcodes.picker.noArticles")} <Link to="/articles">{t("qrcodes.picker.toArticles")}</Link>
      </p>
    );
  }

  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    // Enter would send the surrounding form: here it only means "done typing", so go to the list.
    if (event.key !== "ArrowDown" && event.key !== "Enter") return;
    event.preventDefault();
    const radios = [...(list.current?.querySelectorAll<HTMLInputElement>("input[type=radio]") ?? [])];
    (radios.find((radio) => radio.checked) ?? radios[0])?.focus();
  }

  return (
    <div className="picker">
      <div className="field">
        <label htmlFor={`${id}-search`}>{t("qrcodes.picker.search")}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-count`}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onSearchKey}
        />
      </div>
      <p id={`${id}-count`} className="muted picker__count" aria-live="polite">
        {t("qrcodes.picker.count", { count: matches.length })}
      </p>
      <fieldset className="picker__group">
        <legend>{t("qrcodes.picker.legend")}</legend>
        <div ref={list} className="picker__list">
          {matches.map((article) => (
            <label key={article.id} className="picker__option">
              <input type="radio" name={`${id}-article`} value={article.id} checked={selected === article.id} onChange={() => onSelect(article.id)} />
              <span>{article.unformatted_name}</span>
            </label>
          ))}
          {matches.length === 0 ? <p className="picker__none muted">{t("qrcodes.picker.noMatch")}</p> : null}
        </div>
      </fieldset>
    </div>
  );
}
