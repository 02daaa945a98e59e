import { useTranslation } from "react-i18next";
import { StopNumberField } from "~/components/tours/stop-number-field";
import { AddPanel } from "./add-panel";
import { ArticlePreview } from "./article-preview";
import { panelProps } from "./editor-tabs";
import { ElementList } from "./element-list";
import { FieldErrorsProvider } from "./field-errors";
import { MediaFilesProvider, type MediaFileInfo } from "./media-files";
import { SettingsFields } from "./settings-fields";
import type { ArticleEditorModel } from "./use-article-editor";

interface EditorPanelsProps {
  editor: ArticleEditorModel;
  articleId: number;
  /** The article's uploaded files by `/media/…` address: their own names and sizes (issue 20). */
  mediaFiles: Record<string, MediaFileInfo>;
  /** A narrow screen: the form and the preview are two tabs (decision 066). */
  narrow: boolean;
}

/** The form (the article's own fields, its element cards, the add panel) and, beside it or as a tab, the preview. */
export function EditorPanels({ editor, articleId, mediaFiles, narrow }: EditorPanelsProps) {
  const { t } = useTranslation();
  const { state, draft, edits } = editor;
  // The "deleted, undo" message shows while the delete is the last step.
  const deleted = state.lastDeleted && state.lastDeleted.revision === state.history.revision ? state.lastDeleted.item : null;
  return (
    <FieldErrorsProvider value={editor.fieldErrors}>
      <MediaFilesProvider initial={mediaFiles}>
        <div className="editor-layout">
          <div className="editor-main" {...panelProps("edit", state.tab, narrow)}>
            <SettingsFields name={draft.name} metadatas={draft.metadatas} errors={editor.saver.errors} onName={edits.onName} onMetadatas={edits.onMetadatas}>
              <StopNumberField articleId={articleId} />
            </SettingsFields>
            <section className="editor-content" aria-labelledby="editor-content-heading">
              <h2 id="editor-content-heading">{t("editor.contentHeading")}</h2>
              <div role="status" className="editor-undo">
                {deleted ? (
                  <>
                    <span>{t("editor.deleted", { type: t(`editor.types.${deleted.element.type}`) })}</span>{" "}
                    <button type="button" className="button button--ghost button--small" onClick={edits.onUndoDelete}>
                      {t("editor.undo")}
                    </button>
                  </>
                ) : null}
              </div>
              <ElementList
                items={draft.items}
                articleId={articleId}
                error={editor.cardError}
                openKey={state.openKey}
                onOpen={edits.onOpen}
                onChange={edits.onChange}
                onMove={edits.onMove}
                onMoveTo={edits.onMoveTo}
                onDuplicate={edits.onDuplicate}
                onDelete={edits.onDelete}
              />
            </section>
            <AddPanel onAdd={edits.onAdd} />
          </div>
          <div className="editor-preview-pane" {...panelProps("preview", state.tab, narrow)}>
            <ArticlePreview content={editor.content} />
          </div>
        </div>
      </MediaFilesProvider>
    </FieldErrorsProvider>
  );
}
