import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { useTranslation } from "react-i18next";
import { MEDIA_PREFIX } from "~/content/urls";
import { cardSummary, type CardSummary } from "./card-summary";
import type { BodyElement, Item } from "./editor-state";
import { ElementFields } from "./element-fields";
import { elementDomId } from "./focus-machine";
import { useMediaFiles } from "./media-files";

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

/** Where a dragged card would land: the number of other cards whose middle is above the pointer. */
function dropIndex(list: HTMLOListElement, from: number, clientY: number): number {
  let index = 0;
  Array.from(list.children).forEach((card, i) => {
    if (i === from) return;
    const box = card.getBoundingClientRect();
    if (clientY > box.top + box.height / 2) index++;
  });
  return index;
}

function SummaryLine({ summary, fileName }: { summary: CardSummary; fileName?: string | null }) {
  const { t } = useTranslation();
  let text = summary.text;
  if (summary.video) {
    // The uploaded file's own name when known (issue 20), else its kind of file.
    text = fileName ? fileName : summary.video.format ? t("editorCards.videoFile", { format: summary.video.format }) : t("editorCards.noVideo");
    if (summary.video.subtitles) text += ` · ${t("editorCards.withSubtitles")}`;
  } else if (summary.height !== undefined) {
    text = t("editorCards.spaceHeight", { height: summary.height });
  } else if (summary.count !== undefined) {
    text = `${summary.text || t("editorCards.noHeader")} · ${t("editorCards.details", { count: summary.count })}`;
  }
  return <span className={text ? "editor-element__summary" : "editor-element__summary editor-element__summary--empty"}>{text || t("editorCards.empty")}</span>;
}

/**
 * The article's elements after metadatas, each a card (decision 065): its type, position and a one-line
 * summary on a button that opens it, and its actions. One card is open at a time; closed cards keep
 * their fields mounted (hidden) so an upload in progress or a number being typed is not lost. Cards move
 * by dragging the handle (pointer events: mouse, pen and touch), with the handle and the keyboard (a
 * button: Space or Enter picks up, arrows, Home and End move, Space or Enter drops, Escape cancels;
 * decision 078) or with the up/down buttons, and each step is announced. The first cannot move up and the last cannot move down: those buttons stay
 * focusable (aria-disabled), so focus is not lost when a move brings an element to either end.
 */
export function ElementList({ items, articleId, error, openKey, onOpen, onChange, onMove, onMoveTo, onDuplicate, onDelete }: ElementListProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const files = useMediaFiles();
  // `keyboard`: picked up with the handle's keys (decision 078), moved with the arrows until dropped.
  const [drag, setDrag] = useState<{ from: number; to: number; keyboard?: boolean } | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const typeName = (item: Item) => t(`editor.types.${item.element.type}`);
  // A trailing no-break space alternates, so the same words (the same position twice) are read again.
  const say = (words: string) => setAnnouncement((current) => words + (current.endsWith("\u00a0") ? "" : "\u00a0"));
  const announceMove = (item: Item, to: number) => say(t("editorCards.moved", { type: typeName(item), position: to + 1, count: items.length }));

  // The place a keyboard move would drop at stays on screen as the arrows take it down a long list.
  const keyboardTo = drag?.keyboard ? drag.to : null;
  useEffect(() => {
    if (keyboardTo === null) return;
    listRef.current?.children[keyboardTo]?.scrollIntoView({ block: "nearest" });
  }, [keyboardTo]);

  function onHandleKey(event: ReactKeyboardEvent<HTMLElement>, index: number) {
    const item = items[index];
    if (!item) return;
    const type = typeName(item);
    const count = items.length;
    const lifted = drag?.keyboard && drag.from === index ? drag : null;
    const isDrop = event.key === " " || event.key === "Enter";
    if (!lifted) {
      if (!isDrop) return;
      event.preventDefault();
      setDrag({ from: index, to: index, keyboard: true });
      return say(t("editorCards.pickedUp", { type, position: index + 1, count }));
    }
    let to = lifted.to;
    if (event.key === "ArrowUp" || event.key === "ArrowLeft") to = Math.max(0, to - 1);
    else if (event.key === "ArrowDown" || event.key === "ArrowRight") to = Math.min(count - 1, to + 1);
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = count - 1;
    else if (event.key === "Escape") {
      event.preventDefault();
      setDrag(null);
      return say(t("editorCards.moveCancelled", { type, position: index + 1, count }));
    } else if (isDrop) {
      event.preventDefault();
      setDrag(null);
      if (lifted.to === index) return say(t("editorCards.droppedInPlace", { type, position: index + 1, count }));
      onMoveTo(index, lifted.to, `${elementDomId(item.key)}-handle`);
      return announceMove(item, lifted.to);
    } else return;
    event.preventDefault();
    if (to !== lifted.to) setDrag({ ...lifted, to });
    say(t("editorCards.movingTo", { type, position: to + 1, count }));
  }

  // Leaving a picked-up handle (Tab, a click elsewhere) puts the element back: nothing moves unannounced.
  function onHandleBlur(index: number) {
    if (!drag?.keyboard || drag.from !== index) return;
    const item = items[index];
    setDrag(null);
    if (item) say(t("editorCards.moveCancelled", { type: typeName(item), position: index + 1, count: items.length }));
  }

  function startDrag(event: ReactPointerEvent<HTMLElement>, index: number) {
    if (event.button !== 0 || drag?.keyboard) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ from: index, to: index });
  }

  function moveDrag(event: ReactPointerEvent<HTMLElement>) {
    if (!drag || drag.keyboard || !listRef.current) return;
    // Near the window's top or bottom edge the page scrolls, so a card can travel past the screen.
    const edge = 48;
    if (event.clientY < edge) window.scrollBy(0, -16);
    else if (event.clientY > window.innerHeight - edge) window.scrollBy(0, 16);
    const to = dropIndex(listRef.current, drag.from, event.clientY);
    if (to !== drag.to) setDrag({ ...drag, to });
  }

  function endDrag() {
    if (!drag || drag.keyboard) return;
    setDrag(null);
    const item = items[drag.from];
    if (!item || drag.to === drag.from) return;
    onMoveTo(drag.from, drag.to);
    announceMove(item, drag.to);
  }

  const status = (
    <>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <p id="editor-drag-help" hidden>
        {t("editorCards.handleHelp")}
      </p>
    </>
  );
  if (items.length === 0)
    return (
      <>
        {status}
        <p className="editor-empty">{t("editor.noElements")}</p>
      </>
    );
  return (
    <>
      {status}
      <ol className={drag ? "editor-elements editor-elements--dragging" : "editor-elements"} ref={listRef}>
        {items.map((item, index) => {
          const id = elementDomId(item.key);
          const label = t("editor.elementLabel", { type: typeName(item), position: index + 1, count: items.length });
          const invalid = error?.index === index;
          const open = openKey === item.key;
          const isFirst = index === 0;
          const isLast = index === items.length - 1;
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
            <div className="editor-element__controls">
              <button
                type="button"
                id={`${id}-up`}
                className="button button--ghost button--small editor-element__icon"
                title={t("editor.moveUp")}
                aria-disabled={isFirst}
                onClick={() => {
                  if (isFirst) return;
                  onMove(index, -1);
                  announceMove(item, index - 1);
                }}
              >
                <span aria-hidden="true">↑</span>
                <span className="visually-hidden">
                  {t("editor.moveUp")} — {label}
                </span>
              </button>
              <button
                type="button"
                id={`${id}-down`}
                className="button button--ghost button--small editor-element__icon"
                title={t("editor.moveDown")}
                aria-disabled={isLast}
                onClick={() => {
                  if (isLast) return;
                  onMove(index, 1);
                  announceMove(item, index + 1);
                }}
              >
                <span aria-hidden="true">↓</span>
                <span className="visually-hidden">
                  {t("editor.moveDown")} — {label}
                </span>
              </button>
              <button
                type="button"
                id={`${id}-duplicate`}
                className="button button--ghost button--small editor-element__icon"
                title={t("editorCards.duplicate")}
                onClick={() => {
                  onDuplicate(index);
                  setAnnouncement(t("editorCards.duplicated", { type: typeName(item), position: index + 2, count: items.length + 1 }));
                }}
              >
                <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2">
                  <rect x="7" y="7" width="10" height="10" rx="2" />
                  <path d="M13 4.5V4a1 1 0 0 0-1-1H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h.5" />
                </svg>
                <span className="visually-hidden">
                  {t("editorCards.duplicate")} — {label}
                </span>
              </button>
              <button
                type="button"
                className="button button--ghost button--small editor-element__icon editor-element__delete"
                title={t("editor.delete")}
                onClick={() => onDelete(index)}
              >
                <span aria-hidden="true">✕</span>
                <span className="visually-hidden">
                  {t("editor.delete")} — {label}
                </span>
              </button>
            </div>
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
                    onKeyDown={(event) => onHandleKey(event, index)}
                    onBlur={() => onHandleBlur(index)}
                    onPointerDown={(event) => startDrag(event, index)}
                    onPointerMove={moveDrag}
                    onPointerUp={endDrag}
                    onPointerCancel={() => setDrag(null)}
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
    </>
  );
}
