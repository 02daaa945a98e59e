import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { StopNumberField } from "~/components/tours/stop-number-field";
import type { AddableType, ContentElement, MetadatasElement } from "~/content/schema";
import { AddPanel } from "./add-panel";
import { ArticlePreview } from "./article-preview";
import type { EditorState } from "./editor-reducer";
import type { BodyElement, Draft } from "./editor-state";
import { panelProps, type EditorTab } from "./editor-tabs";
import { ElementList } from "./element-list";
import { FieldErrorsProvider, type FieldErrorMap } from "./field-errors";
import { MediaFilesProvider, type MediaFileInfo } from "./media-files";
import { SettingsFields } from "./settings-fields";

/** What changes the draft, from the fields and the cards (use-article-editor.ts). */
export interface PanelEdits {
  onName: (name: string) => void;
  onMetadatas: (metadatas: MetadatasElement) => void;
  onChange: (index: number, element: BodyElement) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onMoveTo: (from: number, to: number, handleId?: string) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
  onAdd: (type: AddableType) => void;
  onOpen: (key: string | null) => void;
  onUndoDelete: () => void;
}

interface EditorPanelsProps {
  articleId: number;
  draft: Draft;
  content: ContentElement[];
  /** The article's own fields' messages; content fields' messages by input id, and a card's own. */
  errors: { name?: string; slug?: string; colour?: string };
  fieldErrors: FieldErrorMap;
  cardError?: { index: number; message: string };
  mediaFiles: Record<string, MediaFileInfo>;
  /** The deleted element while its delete is the last step, for the "deleted, undo" message. */
  deleted: EditorState["lastDeleted"];
  openKey: string | null;
  tab: EditorTab;
  narrow: boolean;
  addRef: RefObject<HTMLSelectElement>;
  edits: PanelEdits;
}

/** The form (the article's own fields, its element cards, the add panel) and, beside it or as a tab, the preview. */
export function EditorPanels({
  articleId,
  draft,
  content,
  errors,
  fieldErrors,
  cardError,
  mediaFiles,
  deleted,
  openKey,
  tab,
  narrow,
  addRef,
  edits,
}: EditorPanelsProps) {
  const { t } = useTranslation();
  return (
    <FieldErrorsProvider value={fieldErrors}>
      <MediaFilesProvider initial={mediaFiles}>
        <div className="editor-layout">
          <div className="editor-main" {...panelProps("edit", tab, narrow)}>
            <SettingsFields name={draft.name} metadatas={draft.metadatas} errors={errors} onName={edits.onName} onMetadatas={edits.onMetadatas}>
              <StopNumberField articleId={articleId} />
            </SettingsFields>
            <section className="editor-content" aria-labelledby="editor-content-heading">
              <h2 id="editor-content-heading">{t("editor.contentHeading")}</h2>
              <div role="status" className="editor-undo">
                {deleted ? (
                  <>
                    <span>{t("editor.deleted", { type: t(`editor.types.${deleted.item.element.type}`) })}</span>{" "}
                    <button type="button" className="button button--ghost button--small" onClick={edits.onUndoDelete}>
                      {t("editor.undo")}
                    </button>
                  </>
                ) : null}
              </div>
              <ElementList
                items={draft.items}
                articleId={articleId}
                error={cardError}
                openKey={openKey}
                onOpen={edits.onOpen}
                onChange={edits.onChange}
                onMove={edits.onMove}
                onMoveTo={edits.onMoveTo}
                onDuplicate={edits.onDuplicate}
                onDelete={edits.onDelete}
              />
            </section>
            <AddPanel ref={addRef} onAdd={edits.onAdd} />
          </div>
          <div className="editor-preview-pane" {...panelProps("preview", tab, narrow)}>
            <ArticlePreview content={content} />
          </div>
        </div>
      </MediaFilesProvider>
    </FieldErrorsProvider>
  );
}
