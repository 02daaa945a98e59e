import { Link, useRevalidator } from "@remix-run/react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { folderHref } from "~/components/articles/tree-helpers";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PublishBar, type PublicationState } from "~/components/publishing/publish-bar";
import { newElement } from "~/content/model";
import type { AddableType, ArticleContent, MetadatasElement } from "~/content/schema";
import { callApi, onUnauthorized } from "~/utils/api-client";
import { AddPanel } from "./add-panel";
import { ConflictPanel } from "./conflict-panel";
import { FieldErrorsProvider, revealField, type FieldErrorMap } from "./field-errors";
import { loadedContentCheck } from "./content-check-loader";
import { fieldTarget } from "./field-paths";
import { ArticlePreview } from "./article-preview";
import {
  colourProblem,
  contentOf,
  draftFrom,
  duplicateItem,
  moveItem,
  moveItemTo,
  nameProblem,
  newKey,
  slugProblem,
  snapshotOf,
  type BodyElement,
  type Draft,
  type Item,
} from "./editor-state";
import { EditorTabs, panelProps, useNarrowScreen, type EditorTab } from "./editor-tabs";
import { elementDomId, ElementList } from "./element-list";
import { MediaFilesProvider, type MediaFileInfo } from "./media-files";
import { SettingsFields } from "./settings-fields";
import { useToastsBelow } from "./toast-place";
import { StopNumberField } from "~/components/tours/stop-number-field";
import { UnsavedGuard } from "./unsaved-guard";
import { affectedItemKey } from "./history";
import { HistoryButtons, REDO_ID, UNDO_ID } from "./history-buttons";
import { RestoreOffer } from "./restore-offer";
import { SessionDialog } from "./session-dialog";
import { useDraftHistory, useHistoryKeys } from "./use-draft-history";
import { useSaveKey } from "./use-save-key";
import { withCompletedLinks } from "./field-values";
import { useKeptDraft } from "./use-kept-draft";
import { useSaveArticle, type FocusTarget } from "./use-save-article";

export interface EditorArticle {
  id: number;
  name: string;
  unformatted_name: string;
  content: ArticleContent;
  version: number;
}

type PendingFocus =
  | { kind: "control"; id: string }
  | { kind: "element"; key: string }
  | { kind: "fields"; key: string }
  | { kind: "add" }
  // A refused field (decision 069): its input once its card is open, else the card.
  | { kind: "refused"; inputId: string | null; key: string | null };

const RESET_TOAST = "article-reset";
const NO_FILES: Record<string, MediaFileInfo> = {};

/** Where focus goes when a save is refused: the field's input, and the element card to open for it. */
function refusedFocus(target: Exclude<FocusTarget, null>, submitted: Draft): PendingFocus {
  if (typeof target === "object") {
    const place = fieldTarget(target.path, submitted);
    return { kind: "refused", inputId: place?.inputId ?? null, key: place?.key ?? null };
  }
  return { kind: "refused", inputId: { name: "editor-name", slug: "editor-slug", colour: "editor-colour-hex" }[target], key: null };
}

// The side-by-side comparison is loaded only when a conflict asks for it (decision 068).
const ConflictCompare = lazy(() => import("./conflict-compare"));

/** Publishing (decision 041): the article's publication and the museum's time zone; absent, no publish bar. */
export interface EditorPublishing {
  state: PublicationState;
  timeZone: string;
}

/** Who edits (decision 071): their unsaved changes are kept in this browser under their id. */
export interface EditorUser {
  id: number;
  email: string;
}

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
  const revalidator = useRevalidator();
  // Undo and redo (decision 072): the same draft and setDraft as a useState, every change a step.
  const history = useDraftHistory(() => draftFrom(article));
  const { draft, setDraft } = history;
  const [saved, setSaved] = useState(() => ({ snapshot: snapshotOf(draft), name: article.unformatted_name, slug: article.name }));
  // The "deleted, undo" message shows while the delete is the last step (`revision` the step it made).
  const [lastDeleted, setLastDeleted] = useState<{ item: Item; index: number; revision: number } | null>(null);
  const [dialog, setDialog] = useState<"reset" | "reload" | "keep" | "compare" | null>(null);
  // The one element card shown open (editor v2): the cards, a refused save and undo all open it by key.
  const [openKey, setOpenKey] = useState<string | null>(null);
  // Cards and layout (decision 066): on a narrow screen the form and the preview are two tabs.
  const narrow = useNarrowScreen();
  const [tab, setTab] = useState<EditorTab>("edit");
  const saver = useSaveArticle(article.id, article.version);
  const { errors, setErrors } = saver;
  const content = useMemo(() => contentOf(draft), [draft]);
  const dirty = useMemo(() => snapshotOf(draft) !== saved.snapshot, [draft, saved.snapshot]);
  const pendingFocus = useRef<PendingFocus | null>(null);
  const addRef = useRef<HTMLSelectElement>(null);
  const reloadRequested = useRef(false);
  const conflictHeading = useRef<HTMLHeadingElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  useToastsBelow(barRef);

  // Errors beside their fields (decision 069): after a refused save, the content is checked live, so a
  // message goes as soon as its field is fixed; a field only the server refused keeps its message until
  // its element changes.
  const { fieldErrors, cardError } = useMemo(() => {
    const map: Record<string, string> = {};
    let card: { index: number; message: string } | undefined;
    // `checking` is set by a save, which loaded the check first (decision 077).
    const checker = saver.checking ? loadedContentCheck() : null;
    const issues = checker ? checker.contentIssues(content).filter((issue) => issue.path[0] !== 0) : [];
    if (errors.server) issues.unshift({ path: errors.server.path, reason: "" });
    for (const issue of issues) {
      const message = issue.reason === "" && errors.server ? errors.server.message : saver.issueMessage(issue);
      const inputId = fieldTarget(issue.path, draft)?.inputId;
      if (inputId) map[inputId] ??= message;
      // No input edits it (a damaged element): the card says it, once.
      else if (!card && typeof issue.path[0] === "number" && issue.path[0] > 0) card = { index: issue.path[0] - 1, message };
    }
    return { fieldErrors: map as FieldErrorMap, cardError: card };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- issueMessage only reads the language
  }, [content, draft, saver.checking, errors.server]);

  // Nothing lost (decisions 071 and 072): unsaved changes kept in the browser, undo and redo, and a login
  // dialog when the session ends mid-edit.
  const keeper = useKeptDraft({ userId: user.id, articleId: article.id, loadedSnapshot: saved.snapshot, draft, dirty, baseVersion: saver.version });
  const [announce, setAnnounce] = useState("");
  const [session, setSession] = useState<{ retrySave: boolean } | null>(null);
  const historyFocus = useRef<string | null>(null);

  function step(command: "undo" | "redo") {
    const target = command === "undo" ? history.previous : history.next;
    if (!target) return;
    const key = affectedItemKey(draft, target);
    if (key) setOpenKey(key);
    historyFocus.current = command === "undo" ? UNDO_ID : REDO_ID;
    history[command]();
    // A trailing no-break space alternates, so the same words are read out again on the next step.
    setAnnounce((current) => t(command === "undo" ? "keep.undone" : "keep.redone") + (current.endsWith("\u00a0") ? "" : "\u00a0"));
  }
  useHistoryKeys(step);

  // Focus that fell with an element an undo or redo removed goes to the button of that command.
  useEffect(() => {
    const id = historyFocus.current;
    if (!id) return;
    historyFocus.current = null;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) document.getElementById(id)?.focus();
  });

  function restoreKept() {
    const kept = keeper.offer;
    if (!kept) return;
    keeper.accept();
    setDraft(kept.draft);
    // Kept from an older version than the saved one: saving it meets the usual stale-version refusal.
    if (kept.baseVersion < saver.version) saver.reset(kept.baseVersion);
    pendingFocus.current = { kind: "control", id: UNDO_ID };
    setAnnounce(t("keep.restored"));
  }

  function discardKept() {
    keeper.discard();
    pendingFocus.current = { kind: "control", id: "editor-name" };
  }

  // Any call answered 401 opens the login dialog; a refused save is made again once logged in.
  useEffect(() => onUnauthorized((path) => setSession((current) => ({ retrySave: Boolean(current?.retrySave) || path === "/api/manage/update_article" }))), []);

  function loggedIn() {
    const retry = session?.retrySave ?? false;
    setSession(null);
    if (retry) void save();
    else toast.success(t("keep.sessionBack"));
  }

  // Moves re-order DOM nodes, which drops focus: put it back where the person was.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    if (target.kind === "add") return addRef.current?.focus();
    if (target.kind === "control") return document.getElementById(target.id)?.focus();
    if (target.kind === "refused") {
      const input = target.inputId ? document.getElementById(target.inputId) : null;
      const place = input ?? (target.key ? document.getElementById(elementDomId(target.key)) : null);
      if (place) revealField(place);
      return;
    }
    const group = document.getElementById(elementDomId(target.key));
    const field = target.kind === "fields" ? group?.querySelector<HTMLElement>("[data-fields] :is(input, textarea, select, button, [tabindex='0'])") : null;
    (field ?? group)?.focus();
  });

  // A conflict opens its panel next to Save: focus goes to its heading, where the eyes are.
  const conflictShown = saver.conflict !== null;
  useEffect(() => {
    if (conflictShown) conflictHeading.current?.focus();
  }, [conflictShown]);
  // A card opened for the person (a refused save, undo) or a refused field is shown on the Edit tab.
  useEffect(() => {
    if (openKey !== null || Object.values(errors).some(Boolean)) setTab("edit");
  }, [openKey, errors]);

  // "Reload the saved version": once the loader has read it again, it replaces the draft.
  useEffect(() => {
    if (!reloadRequested.current) return;
    reloadRequested.current = false;
    const fresh = draftFrom(article);
    // Taking their version removes the conflict panel that had focus: Save gets it.
    if (saver.conflict) pendingFocus.current = { kind: "control", id: "editor-save" };
    history.reset(fresh);
    setSaved({ snapshot: snapshotOf(fresh), name: article.unformatted_name, slug: article.name });
    setLastDeleted(null);
    saver.reset(article.version);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the loader's article changes, nothing else
  }, [article]);

  const updateItems = (items: Item[]) => {
    setDraft((current) => ({ ...current, items }));
    if (errors.server) setErrors({ ...errors, server: undefined });
  };

  function onName(name: string) {
    setDraft({ ...draft, name });
    if (errors.name) setErrors({ ...errors, name: nameProblem(name) ? errors.name : undefined });
  }

  function onMetadatas(metadatas: MetadatasElement) {
    setDraft({ ...draft, metadatas });
    setErrors({
      ...errors,
      slug: saver.slugMessage(slugProblem(metadatas.url)),
      colour: colourProblem(metadatas.backgroundColor) ? t("editor.colourInvalid") : undefined,
    });
  }

  function onChangeElement(index: number, element: BodyElement) {
    if (errors.server?.path[0] === index + 1) setErrors({ ...errors, server: undefined });
    setDraft((current) => ({ ...current, items: current.items.map((item, i) => (i === index ? { ...item, element } : item)) }));
  }

  function onMove(index: number, by: -1 | 1) {
    const item = draft.items[index];
    if (!item) return;
    const next = moveItem(draft.items, index, by);
    // The pressed button keeps focus, even when the move makes it inert at either end of the list.
    pendingFocus.current = { kind: "control", id: `${elementDomId(item.key)}-${by === -1 ? "up" : "down"}` };
    updateItems(next);
  }

  function onMoveTo(from: number, to: number, focusId?: string) {
    const item = draft.items[from];
    if (!item) return;
    // A keyboard drop keeps focus on the handle that moved (decision 078); a pointer drop shows the card.
    pendingFocus.current = focusId ? { kind: "control", id: focusId } : { kind: "element", key: item.key };
    updateItems(moveItemTo(draft.items, from, to));
  }

  function onDuplicate(index: number) {
    const key = newKey();
    pendingFocus.current = { kind: "fields", key };
    setOpenKey(key);
    updateItems(duplicateItem(draft.items, index, key));
  }

  function onDelete(index: number) {
    const item = draft.items[index];
    if (!item) return;
    const next = draft.items.filter((_, i) => i !== index);
    const after = next[index];
    pendingFocus.current = after ? { kind: "element", key: after.key } : { kind: "add" };
    setLastDeleted({ item, index, revision: history.revision + 1 });
    updateItems(next);
  }

  // The message's "undo" is the history's undo of that delete; focus goes to the element it brings back.
  function undoDelete() {
    if (!lastDeleted || lastDeleted.revision !== history.revision) return;
    pendingFocus.current = { kind: "element", key: lastDeleted.item.key };
    setLastDeleted(null);
    history.undo();
  }

  function onAdd(type: AddableType) {
    const item = { key: newKey(), element: newElement(type) as BodyElement };
    pendingFocus.current = { kind: "fields", key: item.key };
    setOpenKey(item.key);
    updateItems([...draft.items, item]);
  }

  /** The new version once saved, or null when the save was refused (its message shows). */
  async function save(overwrite?: number): Promise<number | null> {
    // A link typed as "www.louvre.fr/…" is completed as on leaving its field, also when saved from inside
    // it (Ctrl+S) or before it was left (decision 124).
    const submitted = withCompletedLinks(draft);
    if (submitted !== draft) setDraft(submitted);
    let version: number | null = null;
    const target = await saver.save(
      submitted,
      (result) => {
        setSaved({ snapshot: snapshotOf(submitted), name: result.unformatted_name, slug: submitted.metadatas.url });
        setLastDeleted(null);
        version = result.version;
      },
      { overwrite },
    );
    if (target) {
      // Open the faulty element's card, then (after it renders) focus the field below the sticky bars.
      const focus = refusedFocus(target, submitted);
      if (focus.kind === "refused" && focus.key) setOpenKey(focus.key);
      pendingFocus.current = focus;
      setErrors((current) => ({ ...current }));
    }
    return version;
  }

  /** "Keep mine", confirmed: save again over the version the conflict named. */
  function keepMine() {
    setDialog(null);
    const current = saver.conflict?.current;
    if (!current) return;
    // The panel goes once saved: focus goes to Save rather than nowhere.
    void save(current.version).then((version) => {
      if (version !== null) document.getElementById("editor-save")?.focus();
    });
  }

  async function resetTranslations() {
    setDialog(null);
    toast.loading(t("editor.resetting"), { id: RESET_TOAST });
    const result = await callApi("/api/manage/reset_traductions", { articleId: article.id });
    if (result.ok) toast.success(t("editor.resetDone"), { id: RESET_TOAST, duration: 5000 });
    else toast.error(t("editor.saveError"), { id: RESET_TOAST, duration: 5000 });
  }

  function reloadSaved() {
    setDialog(null);
    reloadRequested.current = true;
    revalidator.revalidate();
  }

  useSaveKey(() => void save());

  const publicHref = `/v/${encodeURIComponent(museumSlug)}/${encodeURIComponent(saved.slug)}?ignoreStats=true`;

  const secondaryActions = (
    <>
      <button type="button" className="button button--ghost" onClick={() => setDialog("reset")}>
        {t("editor.resetTranslations")}
      </button>
      <Link className="button button--ghost" to={`/translations?id=${article.id}`}>
        {t("translations.editorLink")}
      </Link>
      <a className="button button--ghost" href={publicHref} target="_blank" rel="noopener">
        {t("editor.openPublic")}
        <span className="visually-hidden"> {t("editor.newTab")}</span>
      </a>
    </>
  );

  return (
    <section className="page editor">
      <Link to={folderHref(pathArray)} className="button button--ghost editor__back">
        <span aria-hidden="true">←</span> {pathArray.length > 0 ? t("editor.backToFolder") : t("editor.backToArticles")}
      </Link>
      <h1 className="editor__title">{t("editor.title", { id: article.id, name: saved.name })}</h1>

      {/* On a phone only Save stays pinned; the other two actions sit above it, outside the sticky bar. */}
      <div className="editor-more" role="group" aria-label={t("editor.actions")}>
        {secondaryActions}
      </div>
      <div ref={barRef} className="editor-bar" role="group" aria-label={t("editor.actions")}>
        <button type="button" id="editor-save" className="button" aria-disabled={saver.busy} onClick={() => void save()}>
          {t("editor.save")}
        </button>
        <HistoryButtons canUndo={history.canUndo} canRedo={history.canRedo} onUndo={() => step("undo")} onRedo={() => step("redo")} announce={announce} />
        <div className="editor-bar__more">{secondaryActions}</div>
        <span className={dirty ? "editor-bar__state editor-bar__state--dirty" : "editor-bar__state"}>{dirty ? t("editor.unsaved") : t("editor.allSaved")}</span>
        {narrow ? <EditorTabs current={tab} onChange={setTab} /> : null}
        {saver.conflict ? (
          <ConflictPanel
            ref={conflictHeading}
            current={saver.conflict.current}
            busy={saver.busy}
            onCompare={() => setDialog("compare")}
            onKeepMine={() => setDialog("keep")}
            onTakeTheirs={() => (dirty ? setDialog("reload") : reloadSaved())}
          />
        ) : null}
        {errors.general ? (
          <div className="editor-alert editor-bar__alert" role="alert">
            <p>{errors.general}</p>
          </div>
        ) : null}
      </div>

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
          publicPath={`/v/${encodeURIComponent(museumSlug)}/${encodeURIComponent(saved.slug)}`}
          save={save}
          onDiscarded={reloadSaved}
          onStale={saver.markStale}
        />
      ) : null}

      <FieldErrorsProvider value={fieldErrors}>
        <MediaFilesProvider initial={mediaFiles}>
          <div className="editor-layout">
            <div className="editor-main" {...panelProps("edit", tab, narrow)}>
              <SettingsFields name={draft.name} metadatas={draft.metadatas} errors={errors} onName={onName} onMetadatas={onMetadatas}>
                <StopNumberField articleId={article.id} />
              </SettingsFields>
              <section className="editor-content" aria-labelledby="editor-content-heading">
                <h2 id="editor-content-heading">{t("editor.contentHeading")}</h2>
                <div role="status" className="editor-undo">
                  {lastDeleted && lastDeleted.revision === history.revision ? (
                    <>
                      <span>{t("editor.deleted", { type: t(`editor.types.${lastDeleted.item.element.type}`) })}</span>{" "}
                      <button type="button" className="button button--ghost button--small" onClick={undoDelete}>
                        {t("editor.undo")}
                      </button>
                    </>
                  ) : null}
                </div>
                <ElementList
                  items={draft.items}
                  articleId={article.id}
                  error={cardError}
                  openKey={openKey}
                  onOpen={setOpenKey}
                  onChange={onChangeElement}
                  onMove={onMove}
                  onMoveTo={onMoveTo}
                  onDuplicate={onDuplicate}
                  onDelete={onDelete}
                />
              </section>
              <AddPanel ref={addRef} onAdd={onAdd} />
            </div>
            <div className="editor-preview-pane" {...panelProps("preview", tab, narrow)}>
              <ArticlePreview content={content} />
            </div>
          </div>
        </MediaFilesProvider>
      </FieldErrorsProvider>

      <UnsavedGuard dirty={dirty} />
      {keeper.offer ? <RestoreOffer kept={keeper.offer} savedVersion={saver.version} onRestore={restoreKept} onDiscard={discardKept} /> : null}
      {session ? <SessionDialog email={user.email} returnTo={`/article?id=${article.id}`} onLoggedIn={loggedIn} onCancel={() => setSession(null)} /> : null}
      {dialog === "reset" ? (
        <ConfirmDialog
          title={t("editor.resetConfirmTitle")}
          confirmLabel={t("editor.resetConfirm")}
          onConfirm={() => void resetTranslations()}
          onCancel={() => setDialog(null)}
        >
          <p>{t("editor.resetConfirmBody")}</p>
        </ConfirmDialog>
      ) : null}
      {dialog === "reload" ? (
        saver.conflict ? (
          <ConfirmDialog
            title={t("editorErrors.conflict.takeConfirmTitle")}
            confirmLabel={t("editorErrors.conflict.takeConfirm")}
            onConfirm={reloadSaved}
            onCancel={() => setDialog(null)}
          >
            <p>{t("editorErrors.conflict.takeConfirmBody")}</p>
          </ConfirmDialog>
        ) : (
          <ConfirmDialog
            title={t("editor.reloadConfirmTitle")}
            confirmLabel={t("editor.reloadConfirm")}
            onConfirm={reloadSaved}
            onCancel={() => setDialog(null)}
          >
            <p>{t("editor.reloadConfirmBody")}</p>
          </ConfirmDialog>
        )
      ) : null}
      {dialog === "keep" ? (
        <ConfirmDialog
          title={t("editorErrors.conflict.keepConfirmTitle")}
          confirmLabel={t("editorErrors.conflict.keepConfirm")}
          onConfirm={keepMine}
          onCancel={() => setDialog(null)}
        >
          <p>
            {saver.conflict?.current?.savedBy
              ? t("editorErrors.conflict.keepConfirmBody", { who: saver.conflict.current.savedBy.email })
              : t("editorErrors.conflict.keepConfirmBodyUnknown")}
          </p>
        </ConfirmDialog>
      ) : null}
      {dialog === "compare" ? (
        <Suspense fallback={null}>
          <ConflictCompare
            articleId={article.id}
            mine={{ name: draft.name, content }}
            onCurrent={saver.updateConflict}
            onKeepMine={() => setDialog("keep")}
            onTakeTheirs={() => setDialog("reload")}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
