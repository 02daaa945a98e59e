import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CardSummary } from "./card-summary";

/** A closed card's one line: the element's words, its video file, its height or its details (decision 065). */
export function SummaryLine({ summary, fileName }: { summary: CardSummary; fileName?: string | null }) {
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

interface ControlsProps {
  /** The card's DOM id (`elementDomId`): the buttons' ids follow it, focus finds them after an action. */
  id: string;
  /** The card's name ("Text, 2 of 5"), read after each button's own. */
  label: string;
  isFirst: boolean;
  isLast: boolean;
  onMove: (by: -1 | 1) => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

/**
 * A card's buttons: up, down, duplicate, delete. The first cannot move up and the last cannot move down:
 * those buttons stay focusable (aria-disabled), so focus is not lost when a move brings an element to either end.
 */
export function CardControls({ id, label, isFirst, isLast, onMove, onDuplicate, onDelete }: ControlsProps) {
  const { t } = useTranslation();
  const button = (title: string, icon: ReactNode, onClick: () => void, suffix?: string, disabled?: boolean) => (
    <button
      type="button"
      id={suffix && `${id}-${suffix}`}
      className={`button button--ghost button--small editor-element__icon${suffix ? "" : " editor-element__delete"}`}
      title={title}
      aria-disabled={disabled}
      onClick={disabled ? undefined : onClick}
    >
      {icon}
      <span className="visually-hidden">
        {title} — {label}
      </span>
    </button>
  );
  return (
    <div className="editor-element__controls">
      {button(t("editor.moveUp"), <span aria-hidden="true">↑</span>, () => onMove(-1), "up", isFirst)}
      {button(t("editor.moveDown"), <span aria-hidden="true">↓</span>, () => onMove(1), "down", isLast)}
      {button(
        t("editorCards.duplicate"),
        <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="7" y="7" width="10" height="10" rx="2" />
          <path d="M13 4.5V4a1 1 0 0 0-1-1H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h.5" />
        </svg>,
        onDuplicate,
        "duplicate",
      )}
      {button(t("editor.delete"), <span aria-hidden="true">✕</span>, onDelete)}
    </div>
  );
}
