import { useTranslation } from "react-i18next";
import { REDO_ID, UNDO_ID } from "./focus-machine";

/**
 * Undo and redo in the editor's action bar (decision 072). Unavailable, they stay focusable with
 * aria-disabled, so focus is not lost when the last step is undone; `announce` is read out politely. They
 * show only their arrows (the words are their accessible names and tooltips), so the action bar keeps one row.
 */
export function HistoryButtons({
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  announce,
}: {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  announce: string;
}) {
  const { t } = useTranslation();
  return (
    <span className="keep-history">
      <button
        type="button"
        id={UNDO_ID}
        className="button button--ghost button--small"
        aria-disabled={!canUndo}
        aria-keyshortcuts="Control+Z Meta+Z"
        title={`${t("keep.undo")} (Ctrl+Z)`}
        onClick={() => canUndo && onUndo()}
      >
        <span aria-hidden="true">↶</span> <span className="keep-history__label">{t("keep.undo")}</span>
      </button>
      <button
        type="button"
        id={REDO_ID}
        className="button button--ghost button--small"
        aria-disabled={!canRedo}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
        title={`${t("keep.redo")} (Ctrl+Shift+Z)`}
        onClick={() => canRedo && onRedo()}
      >
        <span aria-hidden="true">↷</span> <span className="keep-history__label">{t("keep.redo")}</span>
      </button>
      <span className="visually-hidden" role="status">
        {announce}
      </span>
    </span>
  );
}
