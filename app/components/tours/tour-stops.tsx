import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TourStopView } from "~/tours/tour-model";
import { StopNumberField } from "./stop-number-field";
import { moveItem } from "./tour-helpers";

export interface EditableStop extends Omit<TourStopView, "position" | "slug"> {
  /** Stable across moves (an article may be in the tour twice). */
  key: string;
}

interface Props {
  stops: EditableStop[];
  onChange: (next: EditableStop[]) => void;
  onNumber: (articleId: number, value: number | null) => void;
}

/**
 * The tour's ordered stops: move up/down buttons (each move said in a live region, focus kept on the moved
 * stop's button), drag and drop with a mouse, remove, and each stop's number saved on its own.
 */
export function TourStops({ stops, onChange, onNumber }: Props) {
  const { t } = useTranslation();
  const [announcement, setAnnouncement] = useState("");
  const [dragging, setDragging] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);

  function focusButton(key: string, which: "up" | "down" | "remove") {
    requestAnimationFrame(() => {
      const row = list.current?.querySelector<HTMLElement>(`[data-stop-key="${key}"]`);
      const wanted = row?.querySelector<HTMLButtonElement>(`[data-action="${which}"]:not([aria-disabled="true"])`);
      (wanted ?? row?.querySelector<HTMLButtonElement>("[data-action]:not([aria-disabled='true'])"))?.focus();
    });
  }

  function move(index: number, to: number, which: "up" | "down" | null) {
    if (to < 0 || to >= stops.length || to === index) return;
    const stop = stops[index]!;
    onChange(moveItem(stops, index, to));
    setAnnouncement(t("tours.stops.moved", { name: stop.name, position: to + 1, count: stops.length }));
    if (which) focusButton(stop.key, which);
  }

  function remove(index: number) {
    const stop = stops[index]!;
    const next = stops.filter((_, i) => i !== index);
    onChange(next);
    setAnnouncement(t("tours.stops.removed", { name: stop.name }));
    const neighbour = next[Math.min(index, next.length - 1)];
    if (neighbour) focusButton(neighbour.key, "remove");
    else requestAnimationFrame(() => document.getElementById("tour-stop-search")?.focus());
  }

  function onDrop(event: DragEvent, index: number) {
    event.preventDefault();
    if (dragging !== null) move(dragging, index, null);
    setDragging(null);
  }

  return (
    <>
      <p className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </p>
      {stops.length === 0 ? (
        <p className="muted tour-stops__empty">{t("tours.stops.empty")}</p>
      ) : (
        <ol className="tour-stops" ref={list} aria-label={t("tours.stops.listLabel")}>
          {stops.map((stop, index) => (
            <li
              key={stop.key}
              data-stop-key={stop.key}
              className={`tour-stop${dragging === index ? " tour-stop--dragging" : ""}`}
              draggable
              onDragStart={(event) => {
                setDragging(index);
                event.dataTransfer.effectAllowed = "move";
                event.dataTransfer.setData("text/plain", stop.key);
              }}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => onDrop(event, index)}
              onDragEnd={() => setDragging(null)}
            >
              <span className="tour-stop__handle" aria-hidden="true">
                ⠿
              </span>
              <span className="tour-stop__position">{index + 1}</span>
              <div className="tour-stop__main">
                <a className="tour-stop__name" href={`/article?id=${stop.articleId}`}>
                  {stop.name}
                </a>
                <span className="tour-stop__flags">
                  {stop.trashed ? <span className="badge badge--danger">{t("tours.stops.trashed")}</span> : null}
                  {!stop.trashed && !stop.published ? <span className="badge">{t("tours.stops.unpublished")}</span> : null}
                </span>
                {stop.trashed ? null : (
                  <StopNumberField
                    compact
                    articleId={stop.articleId}
                    articleName={stop.name}
                    initial={stop.stopNumber}
                    onSaved={(value) => onNumber(stop.articleId, value)}
                  />
                )}
              </div>
              <div className="tour-stop__actions">
                <button
                  type="button"
                  data-action="up"
                  className="button button--small button--ghost"
                  aria-disabled={index === 0}
                  onClick={() => move(index, index - 1, index - 1 === 0 ? "down" : "up")}
                >
                  <span aria-hidden="true">↑</span>
                  <span className="visually-hidden">{t("tours.stops.up", { name: stop.name })}</span>
                </button>
                <button
                  type="button"
                  data-action="down"
                  className="button button--small button--ghost"
                  aria-disabled={index === stops.length - 1}
                  onClick={() => move(index, index + 1, index + 1 === stops.length - 1 ? "up" : "down")}
                >
                  <span aria-hidden="true">↓</span>
                  <span className="visually-hidden">{t("tours.stops.down", { name: stop.name })}</span>
                </button>
                <button type="button" data-action="remove" className="button button--small button--ghost" onClick={() => remove(index)}>
                  {t("tours.stops.remove")}
                  <span className="visually-hidden"> — {stop.name}</span>
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
