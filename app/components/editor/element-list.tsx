import { useTranslation } from "react-i18next";
import { MEDIA_PREFIX } from "~/content/urls";
import { CardControls, SummaryLine } from "./card-parts";
import { cardSummary } from "./card-summary";
import type { BodyElement, Item } from "./editor-state";
import { ElementFields } from "./element-fields";
import { elementDomId } from "./focus-machine";
import { useMediaFiles } from "./media-files";
import { useElementDrag } from "./use-element-drag";

interface ElementListProps {
  items: Item[];
  articleId: number;
  /** An element the server refused, by list index, with what is wrong. */
  error?: { index: number; message: string };
  /** The key of the one element card shown open, or null when all are closed (decision 065). */
  openKey: string | null;
  /** Opens a card (closing the one open) or, with null, closes them all. */
  onOpen: (key: string | null) => void;
  onChange: (index: number, next: BodyElement) => void;
  onMove: (index: number, by: -1 | 1) => void;
  /** A drag ended: the element at `from` goes to position `to`; focus then goes to `focusId` (else the card). */
  onMoveTo: (from: number, to: number, focusId?: string) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
}

/**
 * The article's elements after metadatas, each a card (decision 065): its type, position and a one-line
 * summary on a button that opens it, and its actions. One card is open at a time; closed cards keep
 * their fields mounted (hidden) so an upload in progress or a number being typed is not lost. Cards move
 * by dragging the handle (pointer events: mouse, pen and touch), with the handle and the keyboard (a
 * button: Space or Enter picks up, arrows, Home and End move, Space or Enter drops, Escape cancels;
 * decision 078) or with the up/down buttons, and each step is announced.
 * The drag is `use-element-drag.ts`, the card's summary and buttons `card-parts.tsx`.
 */
export function ElementList({ items, articleId, error, openKey, onOpen, onChange, onMove, onMoveTo, onDuplicate, onDelete }: ElementListProps) {
  const { t } = useTranslation();
  const files = useMediaFiles();
  const [listRef, drag, announcement, setAnnouncement, typeName, announceMove, handleProps] = useElementDrag(items, onMoveTo);

  return (
    <>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <p id="editor-drag-help" hidden>
        {t("editorCards.handleHelp")}
      </p>
      {items.length === 0 ? (
        <p className="editor-empty">{t("editor.noElements")}</p>
      ) : (
        <ol className={drag ? "editor-elements editor-elements--dragging" : "editor-elements"} ref={listRef}>
          {items.map((item, index) => {
            const id = elementDomId(item.key);
            const label = t("editor.elementLabel", { type: typeName(item), position: index + 1, count: items.length });
            const invalid = error?.index === index;
            const open = openKey === item.key;
            const summary = cardSummary(item.element);
            const thumb = summary.thumb?.startsWith(MEDIA_PREFIX) ? summary.thumb : null;
            const classes = ["editor-element"];
            if (open) classes.push("editor-element--open");
            if (invalid) classes.push("editor-element--invalid");
            // Picked up with the keys, the card is outlined, not dimmed: its words stay readable (decision 078).
            if (drag?.from === index) classes.push(drag.keyboard ? "editor-element--lifted" : "editor-element--dragged");
            if (drag && drag.to !== drag.from && drag.to === index)
              classes.push(drag.to > drag.from ? "editor-element--drop-after" : "editor-element--drop-before");
            // Open, the card's first field comes right after its title in the Tab order: the card's buttons move
            // to its foot (decision 124); closed, they sit in its head.
            const controls = (
              <CardControls
                id={id}
                label={label}
                isFirst={index === 0}
                isLast={index === items.length - 1}
                onMove={(by) => {
                  onMove(index, by);
                  announceMove(item, index + by);
                }}
                onDuplicate={() => {
                  onDuplicate(index);
                  setAnnouncement(t("editorCards.duplicated", { type: typeName(item), position: index + 2, count: items.length + 1 }));
                }}
                onDelete={() => onDelete(index)}
              />
            );
            return (
              <li key={item.key}>
                <div
                  id={id}
                  role="group"
                  aria-labelledby={`${id}-title`}
                  tabIndex={-1}
                  className={classes.join(" ")}
                  aria-describedby={invalid ? `${id}-error` : undefined}
                >
                  <div className="editor-element__head">
                    <button
                      type="button"
                      id={`${id}-handle`}
                      className={drag?.keyboard && drag.from === index ? "editor-element__handle editor-element__handle--lifted" : "editor-element__handle"}
                      aria-label={t("editorCards.handleLabel", { label })}
                      aria-describedby="editor-drag-help"
                      title={t("editorCards.dragHint")}
                      data-drag-handle
                      {...handleProps(index)}
                    >
                      <span aria-hidden="true">⠿</span>
                    </button>
                    <h3 className="editor-element__title">
                      <button
                        type="button"
                        id={`${id}-toggle`}
                        className="editor-element__toggle"
                        aria-expanded={open}
                        aria-controls={`${id}-body`}
                        onClick={() => onOpen(open ? null : item.key)}
                      >
                        {thumb ? <img className="editor-element__thumb" src={thumb} alt="" width={40} height={40} loading="lazy" /> : null}
                        <span className="editor-element__words">
                          <span id={`${id}-title`} className="editor-element__type">
                            {label}
                          </span>{" "}
                          <SummaryLine
                            summary={summary}
                            fileName={item.element.type === "video" && item.element.src ? files.lookup(item.element.src)?.name : null}
                          />
                        </span>
                        <span className="editor-element__chevron" aria-hidden="true" />
                      </button>
                    </h3>
                    {open ? null : controls}
                  </div>
                  {invalid ? (
                    <p className="field__error editor-element__error" id={`${id}-error`}>
                      {error.message}
                    </p>
                  ) : null}
                  <div id={`${id}-body`} className="editor-element__fields" data-fields hidden={!open}>
                    <ElementFields element={item.element} onChange={(next) => onChange(index, next)} articleId={articleId} idPrefix={id} />
                  </div>
                  {open ? <div className="editor-element__foot">{controls}</div> : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
