import { useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useReducer, useRef } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { newElement, newVideoId } from "~/content/model";
import type { AddableType, MetadatasElement } from "~/content/schema";
import { onUnauthorized } from "~/utils/api-client";
import { editorReducer, initialEditorState, type EditorAction, type EditorDialog, type EditorView, type LoadedArticle } from "./editor-reducer";
import type { EditorTab } from "./editor-tabs";
import { colourProblem, contentOf, nameProblem, newKey, slugProblem, snapshotOf, type BodyElement } from "./editor-state";
import { withCompletedLinks } from "./field-values";
import { useEditorFocus } from "./use-editor-focus";
import { useFieldErrors } from "./use-field-errors";
import { useHistoryKeys } from "./use-history-keys";
import { useKeptDraft } from "./use-kept-draft";
import { useSaveArticle } from "./use-save-article";
import { useSaveKey } from "./use-save-key";

export interface EditorArticle extends LoadedArticle {
  id: number;
  version: number;
}

/** Who edits (decision 071): their unsaved changes are kept in this browser under their id. */
export interface EditorUser {
  id: number;
  email: string;
}

/**
 * The article editor's behaviour without its markup (decision 137): the state (editor-reducer.ts) joined to
 * what is not pure — the clock and new keys, saving (use-save-article.ts) and its field messages, the kept
 * draft (use-kept-draft.ts), the keys, the loader's reload and the login dialog — and the focus it asks for.
 */
export function useArticleEditor(article: EditorArticle, user: EditorUser) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [state, dispatch] = useReducer(editorReducer, article, initialEditorState);
  const draft = state.history.present;
  const saver = useSaveArticle(article.id, article.version);
  const { errors, setErrors } = saver;
  const content = useMemo(() => contentOf(draft), [draft]);
  const dirty = useMemo(() => snapshotOf(draft) !== state.saved.snapshot, [draft, state.saved.snapshot]);
  const { fieldErrors, cardError } = useFieldErrors(content, draft, saver);
  // Nothing lost (decisions 071 and 072): unsaved changes kept in the browser, undo and redo, and a login
  // dialog when the session ends mid-edit.
  const keeper = useKeptDraft({ userId: user.id, articleId: article.id, loadedSnapshot: state.saved.snapshot, draft, dirty, baseVersion: saver.version });
  const reloadRequested = useRef(false);

  useHistoryKeys((command) => dispatch({ type: "step", command }));
  // Any call answered 401 opens the login dialog; a refused save is made again once logged in.
  useEffect(() => onUnauthorized((path) => dispatch({ type: "unauthorized", path })), []);
  useEditorFocus(state.focus, dispatch);
  // A card opened for the person (a refused save, undo) or a refused field is shown on the Edit tab.
  useEffect(() => {
    if (state.openKey !== null || Object.values(errors).some(Boolean)) dispatch({ type: "view", change: { tab: "edit" } });
  }, [state.openKey, errors]);
  // "Reload the saved version": once the loader has read it again, it replaces the draft.
  useEffect(() => {
    if (!reloadRequested.current) return;
    reloadRequested.current = false;
    dispatch({ type: "reload", article, conflict: saver.conflict !== null });
    saver.reset(article.version);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the loader's article changes, nothing else
  }, [article]);

  const view = (change: EditorView) => dispatch({ type: "view", change });
  /** A change of the element list: a message the server gave for the content goes with it. */
  function changeItems(action: EditorAction) {
    dispatch(action);
    if (errors.server) setErrors({ ...errors, server: undefined });
  }

  const edits = {
    onName(name: string) {
      dispatch({ type: "draft", change: { name }, at: Date.now() });
      if (errors.name) setErrors({ ...errors, name: nameProblem(name) ? errors.name : undefined });
    },
    onMetadatas(metadatas: MetadatasElement) {
      dispatch({ type: "draft", change: { metadatas }, at: Date.now() });
      setErrors({
        ...errors,
        slug: saver.slugMessage(slugProblem(metadatas.url)),
        colour: colourProblem(metadatas.backgroundColor) ? t("editor.colourInvalid") : undefined,
      });
    },
    onChange(index: number, element: BodyElement) {
      if (errors.server?.path[0] === index + 1) setErrors({ ...errors, server: undefined });
      // The index is this render's, and so is `draft`: its key is the element the form was showing.
      const item = draft.items[index];
      if (item) dispatch({ type: "element", key: item.key, element, at: Date.now() });
    },
    onMove(index: number, by: -1 | 1) {
      changeItems({ type: "move", index, by, at: Date.now() });
    },
    onMoveTo(from: number, to: number, handleId?: string) {
      changeItems({ type: "moveTo", from, to, handleId, at: Date.now() });
    },
    onDuplicate(index: number) {
      changeItems({ type: "duplicate", index, key: newKey(), videoId: newVideoId(), at: Date.now() });
    },
    onDelete(index: number) {
      changeItems({ type: "delete", index, at: Date.now() });
    },
    onAdd(type: AddableType) {
      changeItems({ type: "add", item: { key: newKey(), element: newElement(type) as BodyElement }, at: Date.now() });
    },
    onOpen: (openKey: string | null) => view({ openKey }),
    onUndoDelete: () => dispatch({ type: "undoDelete" }),
  };

  /** The new version once saved, or null when the save was refused (its message shows). */
  async function save(overwrite?: number): Promise<number | null> {
    // A link typed as "www.louvre.fr/…" is completed as on leaving its field, also when saved from inside
    // it (Ctrl+S) or before it was left (decision 124).
    const submitted = withCompletedLinks(draft);
    if (submitted !== draft) dispatch({ type: "draft", change: submitted, at: Date.now() });
    let version: number | null = null;
    const target = await saver.save(
      submitted,
      (result) => {
        dispatch({ type: "saved", saved: { snapshot: snapshotOf(submitted), name: result.unformatted_name, slug: submitted.metadatas.url } });
        version = result.version;
      },
      { overwrite },
    );
    if (target) dispatch({ type: "refused", target, submitted });
    return version;
  }
  useSaveKey(() => void save());

  const actions = {
    save,
    step: (command: "undo" | "redo") => dispatch({ type: "step", command }),
    setDialog: (dialog: EditorDialog | null) => view({ dialog }),
    setTab: (tab: EditorTab) => view({ tab }),
    /** "Keep mine", confirmed: save again over the version the conflict named. */
    keepMine() {
      view({ dialog: null });
      const current = saver.conflict?.current;
      if (!current) return;
      void save(current.version).then((version) => {
        if (version !== null) dispatch({ type: "overwritten" });
      });
    },
    reloadSaved() {
      view({ dialog: null });
      reloadRequested.current = true;
      revalidator.revalidate();
    },
    restoreKept() {
      const kept = keeper.offer;
      if (!kept) return;
      keeper.accept();
      dispatch({ type: "restore", draft: kept.draft, at: Date.now() });
      // Kept from an older version than the saved one: saving it meets the usual stale-version refusal.
      if (kept.baseVersion < saver.version) saver.reset(kept.baseVersion);
    },
    discardKept() {
      keeper.discard();
      dispatch({ type: "discard" });
    },
    loggedIn() {
      const retry = state.session?.retrySave ?? false;
      view({ session: null });
      if (retry) void save();
      else toast.success(t("keep.sessionBack"));
    },
    closeSession: () => view({ session: null }),
  };

  return { state, draft, content, dirty, saver, keeper, fieldErrors, cardError, edits, actions };
}

/** What the editor's components read and call (the action bar, the panels, the dialogs). */
export type ArticleEditorModel = ReturnType<typeof useArticleEditor>;
