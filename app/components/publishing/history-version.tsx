import { useTranslation } from "react-i18next";
import type { ArticleContent, ContentElement } from "~/content/schema";
import { elementFields } from "~/publishing/diff";
import { ElementFields, useHistoryLabels } from "./history-fields";

function ElementView({ element }: { element: ContentElement }) {
  const labels = useHistoryLabels();
  return (
    <li className="history-element">
      <p className="history-element__type">{labels.type(element.type)}</p>
      <ElementFields fields={elementFields(element)} />
      {element.type === "accordion" && element.details.length > 0 ? (
        <ol className="history-elements history-elements--nested">
          {element.details.map((detail, index) => (
            <ElementView key={index} element={detail} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** One version read-only: the texts of its elements in order, and the files they show. */
export function HistoryVersion({ number, content, headingRef }: { number: number; content: ArticleContent; headingRef?: React.Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation();
  return (
    <section className="history-panel" aria-labelledby="history-view-heading">
      <h2 id="history-view-heading" tabIndex={-1} ref={headingRef}>
        {t("history.viewHeading", { number })}
      </h2>
      <ol className="history-elements">
        {content.slice(1).map((element, index) => (
          <ElementView key={index} element={element} />
        ))}
      </ol>
      {content.length <= 1 ? <p className="history-muted">{t("history.emptyArticle")}</p> : null}
    </section>
  );
}
