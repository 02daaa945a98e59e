import { Link } from "@remix-run/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { ConflictPanel } from "./conflict-panel";
import { EditorTabs } from "./editor-tabs";
import { SAVE_ID } from "./focus-machine";
import { HistoryButtons } from "./history-buttons";
import { useToastsBelow } from "./toast-place";
import type { ArticleEditorModel } from "./use-article-editor";

interface ActionBarProps {
  editor: ArticleEditorModel;
  articleId: number;
  /** The public page of the saved article, for staff (not counted in the statistics). */
  publicHref: string;
  /** A narrow screen: the form and the preview are two tabs (decision 066). */
  narrow: boolean;
}

/** The editor's actions: Save, undo and redo, whether all is saved, the tabs and, next to Save, a conflict. */
export function ActionBar({ editor, articleId, publicHref, narrow }: ActionBarProps) {
  const { state, saver, dirty, actions } = editor;
  const { history, announce } = state;
  const { t } = useTranslation();
  const barRef = useRef<HTMLDivElement>(null);
  useToastsBelow(barRef);

  const secondaryActions = (
    <>
      <button type="button" className="button button--ghost" onClick={() => actions.setDialog("reset")}>
        {t("editor.resetTranslations")}
      </button>
      <Link className="button button--ghost" to={`/translations?id=${articleId}`}>
        {t("translations.editorLink")}
      </Link>
      <a className="button button--ghost" href={publicHref} target="_blank" rel="noopener">
        {t("editor.openPublic")}
        <span className="visually-hidden"> {t("editor.newTab")}</span>
      </a>
    </>
  );

  return (
    <>
      {/* On a phone only Save stays pinned; the other two actions sit above it, outside the sticky bar. */}
      <div className="editor-more" role="group" aria-label={t("editor.actions")}>
        {secondaryActions}
      </div>
      <div ref={barRef} className="editor-bar" role="group" aria-label={t("editor.actions")}>
        <button type="button" id={SAVE_ID} className="button" aria-disabled={saver.busy} onClick={() => void actions.save()}>
          {t("editor.save")}
        </button>
        <HistoryButtons
          canUndo={history.past.length > 0}
          canRedo={history.future.length > 0}
          onUndo={() => actions.step("undo")}
          onRedo={() => actions.step("redo")}
          // A trailing no-break space alternates, so the same words are read out again on the next step.
          announce={announce ? t(announce.message) + (announce.alternate ? "\u00a0" : "") : ""}
        />
        <div className="editor-bar__more">{secondaryActions}</div>
        <span className={dirty ? "editor-bar__state editor-bar__state--dirty" : "editor-bar__state"}>{dirty ? t("editor.unsaved") : t("editor.allSaved")}</span>
        {narrow ? <EditorTabs current={state.tab} onChange={actions.setTab} /> : null}
        {saver.conflict ? (
          <ConflictPanel
            current={saver.conflict.current}
            busy={saver.busy}
            onCompare={() => actions.setDialog("compare")}
            onKeepMine={() => actions.setDialog("keep")}
            onTakeTheirs={() => (dirty ? actions.setDialog("reload") : actions.reloadSaved())}
          />
        ) : null}
        {saver.errors.general ? (
          <div className="editor-alert editor-bar__alert" role="alert">
            <p>{saver.errors.general}</p>
          </div>
        ) : null}
      </div>
    </>
  );
}
