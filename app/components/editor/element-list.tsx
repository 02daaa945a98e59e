import { useTranslation } from "react-i18next";
import type { BodyElement, Item } from "./editor-state";
import { ElementFields } from "./element-fields";

interface ElementListProps {
  items: Item[];
  articleId: number;
  /** An element the server refused, by list index, with what is wrong. */
  error?: { index: number; message: string };
  /** The key of the one element card shown open, or null when all are closed (editor v2, issue 20). */
  openKey: string | null;
  /** Opens a card (closing the one open) or, with null, closes them all. */
  onOpen: (key: string | null) => void;
  onChange: (index: number, next: BodyElement) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onDelete: (index: number) => void;
}

export const elementDomId = (key: string) => `editor-${key}`;

/**
 * The article's elements after metadatas, each a labelled group with its fields and its controls. The
 * first cannot move up and the last cannot move down: those buttons stay focusable (aria-disabled), so
 * focus is not lost when a move brings an element to either end.
 */
export function ElementList({ items, articleId, error, onChange, onMove, onDelete }: ElementListProps) {
  const { t } = useTranslation();
  if (items.length === 0) return <p className="editor-empty">{t("editor.noElements")}</p>;
  return (
    <ol className="editor-elements">
      {items.map((item, index) => {
        const id = elementDomId(item.key);
        const label = t("editor.elementLabel", { type: t(`editor.types.${item.element.type}`), position: index + 1, count: items.length });
        const invalid = error?.index === index;
        const isFirst = index === 0;
        const isLast = index === items.length - 1;
        return (
          <li key={item.key}>
            <div
              id={id}
              role="group"
              aria-labelledby={`${id}-title`}
              tabIndex={-1}
              className={invalid ? "editor-element editor-element--invalid" : "editor-element"}
              aria-describedby={invalid ? `${id}-error` : undefined}
            >
              <div className="editor-element__head">
                <h3 id={`${id}-title`} className="editor-element__title">
                  {label}
                </h3>
                <div className="editor-element__controls">
                  <button
                    type="button"
                    id={`${id}-up`}
                    className="button button--ghost button--small"
                    aria-disabled={isFirst}
                    onClick={() => !isFirst && onMove(index, -1)}
                  >
                    <span aria-hidden="true">↑</span> {t("editor.moveUp")}
                    <span className="visually-hidden"> — {label}</span>
                  </button>
                  <button
                    type="button"
                    id={`${id}-down`}
                    className="button button--ghost button--small"
                    aria-disabled={isLast}
                    onClick={() => !isLast && onMove(index, 1)}
                  >
                    <span aria-hidden="true">↓</span> {t("editor.moveDown")}
                    <span className="visually-hidden"> — {label}</span>
                  </button>
                  <button type="button" className="button button--ghost button--small editor-element__delete" onClick={() => onDelete(index)}>
                    {t("editor.delete")}
                    <span className="visually-hidden"> — {label}</span>
                  </button>
                </div>
              </div>
              {invalid ? (
                <p className="field__error editor-element__error" id={`${id}-error`}>
                  {error.message}
                </p>
              ) : null}
              <div className="editor-element__fields" data-fields>
                <ElementFields element={item.element} onChange={(next) => onChange(index, next)} articleId={articleId} idPrefix={id} />
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
