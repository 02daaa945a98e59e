// The article editor's page (decision 137): its behaviour is use-article-editor.ts (state in
// editor-reducer.ts, focus in focus-machine.ts); this file lays out the action bar, the panels and the dialogs.
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { folderHref } from "~/components/articles/tree-helpers";
import { PublishBar, type PublicationState } from "~/components/publishing/publish-bar";
import { ActionBar } from "./action-bar";
import { EditorDialogs } from "./editor-dialogs";
import { EditorPanels } from "./editor-panels";
import { useNarrowScreen } from "./editor-tabs";
import type { MediaFileInfo } from "./media-files";
import { RestoreOffer } from "./restore-offer";
import { SessionDialog } from "./session-dialog";
import { UnsavedGuard } from "./unsaved-guard";
import { useArticleEditor, type EditorArticle, type EditorUser } from "./use-article-editor";

export type { EditorArticle, EditorUser } from "./use-article-editor";

/** Publishing (decision 041): the article's publication and the museum's time zone; absent, no publish bar. */
export interface EditorPublishing {
  state: PublicationState;
  timeZone: string;
}

const NO_FILES: Record<string, MediaFileInfo> = {};

export function ArticleEditor({
  article,
  museumSlug,
  pathArray,
  publishing,
  user,
  mediaFiles = NO_FILES,
}: {
  article: EditorArticle;
  museumSlug: string;
  pathArray: string[];
  publishing?: EditorPublishing;
  user: EditorUser;
  /** The article's uploaded files by `/media/…` address: their own names and sizes (issue 20). */
  mediaFiles?: Record<string, MediaFileInfo>;
}) {
  const { t } = useTranslation();
  const editor = useArticleEditor(article, user);
  const { state, dirty, saver, keeper, actions } = editor;
  // Cards and layout (decision 066): on a narrow screen the form and the preview are two tabs.
  const narrow = useNarrowScreen();
  const publicPath = `/v/${encodeURIComponent(museumSlug)}/${encodeURIComponent(state.saved.slug)}`;

  return (
    <section className="page editor">
      <Link to={folderHref(pathArray)} className="button button--ghost editor__back">
        <span aria-hidden="true">←</span> {pathArray.length > 0 ? t("editor.backToFolder") : t("editor.backToArticles")}
      </Link>
      <h1 className="editor__title">{t("editor.title", { id: article.id, name: state.saved.name })}</h1>

      <ActionBar editor={editor} articleId={article.id} publicHref={`${publicPath}?ignoreStats=true`} narrow={narrow} />

      {keeper.elsewhere ? (
        <p className="editor-alert editor-elsewhere" role="status">
          {t("keep.elsewhere")}
        </p>
      ) : null}
      {publishing ? (
        <PublishBar
          articleId={article.id}
          version={saver.version}
          dirty={dirty}
          initial={publishing.state}
          timeZone={publishing.timeZone}
          publicPath={publicPath}
          save={actions.save}
          onDiscarded={actions.reloadSaved}
          onStale={saver.markStale}
        />
      ) : null}

      <EditorPanels editor={editor} articleId={article.id} mediaFiles={mediaFiles} narrow={narrow} />

      <UnsavedGuard dirty={dirty} />
      {keeper.offer ? <RestoreOffer kept={keeper.offer} savedVersion={saver.version} onRestore={actions.restoreKept} onDiscard={actions.discardKept} /> : null}
      {state.session ? (
        <SessionDialog email={user.email} returnTo={`/article?id=${article.id}`} onLoggedIn={actions.loggedIn} onCancel={actions.closeSession} />
      ) : null}
      <EditorDialogs editor={editor} articleId={article.id} />
    </section>
  );
}
