import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { folderHref } from "~/components/articles/tree-helpers";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PublishBar, type PublicationState } from "~/components/publishing/publish-bar";
import { newElement, type AddableType, type ArticleContent, type MetadatasElement } from "~/content/schema";
import { callApi } from "~/utils/api-client";
import { AddPanel } from "./add-panel";
import { ArticlePreview } from "./article-preview";
import { colourProblem, contentOf, draftFrom, duplicateItem, moveItem, moveItemTo, nameProblem, newKey, slugProblem, snapshotOf, type BodyElement, type Draft, type Item } from "./editor-state";
import { EditorTabs, panelProps, useNarrowScreen, type EditorTab } from "./editor-tabs";
import { elementDomId, ElementList } from "./element-list";
import { SettingsFields } from "./settings-fields";
import { UnsavedGuard } from "./unsaved-guard";
import { useSaveArticle, type FocusTarget } from "./use-save-article";

export interface EditorArticle {
  id: number;
  name: string;
  unformatted_name: string;
  content: ArticleContent;
  version: number;
}

type PendingFocus = { kind: "control"; id: string } | { kind: "element"; key: string } | { kind: "fields"; key: string } | { kind: "add" };

const RESET_TOAST = "article-reset";

/** Where focus goes when a save is refused: the field, or the element's group (always in the page). */
function focusId(target: Exclude<FocusTarget, null>, submitted: Draft): string {
  if (typeof target === "object") return elementDomId(submitted.items[target.element]?.key ?? "");
  return { name: "editor-name", slug: "editor-slug", colour: "editor-colour-hex" }[target];
}

/** Publishing (decision 041): the article's publication and the museum's time zone; absent, no publish bar. */
export interface EditorPublishing {
  state: PublicationState;
  timeZone: string;
}

export function ArticleEditor({ article, museumSlug, pathArray, publishing }: { article: EditorArticle; museumSlug: string; pathArray: string[]; publishing?: EditorPublishing }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftFrom(article));
  const [saved, setSaved] = useState(() => ({ snapshot: snapshotOf(draft), name: article.unformatted_name, slug: article.name }));
  const [lastDeleted, setLastDeleted] = useState<{ item: Item; index: number } | null>(null);
  const [dialog, setDialog] = useState<"reset" | "reload" | null>(null);
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

  // Moves re-order DOM nodes, which drops focus: put it back where the person was.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    if (target.kind === "add") return addRef.current?.focus();
    if (target.kind === "control") return document.getElementById(target.id)?.focus();
    const group = document.getElementById(elementDomId(target.key));
    const field = target.kind === "fields" ? group?.querySelector<HTMLElement>("[data-fields] :is(input, textarea, select, button, [tabindex='0'])") : null;
    (field ?? group)?.focus();
  });

  // A card opened for the person (a refused save, undo) or a refused field is shown on the Edit tab.
  useEffect(() => {
    if (openKey !== null || Object.values(errors).some(Boolean)) setTab("edit");
  }, [openKey, errors]);

  // "Reload the saved version": once the loader has read it again, it replaces the draft.
  useEffect(() => {
    if (!reloadRequested.current) return;
    reloadRequested.current = false;
    const fresh = draftFrom(article);
    setDraft(fresh);
    setSaved({ snapshot: snapshotOf(fresh), name: article.unformatted_name, slug: article.name });
    setLastDeleted(null);
    saver.reset(article.version);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the loader's article changes, nothing else
  }, [article]);

  const updateItems = (items: Item[]) => {
    setDraft((current) => ({ ...current, items }));
    if (errors.element) setErrors({ ...errors, element: undefined });
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

  function onMoveTo(from: number, to: number) {
    const item = draft.items[from];
    if (!item) return;
    pendingFocus.current = { kind: "element", key: item.key };
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
    setLastDeleted({ item, index });
    updateItems(next);
  }

  function undoDelete() {
    if (!lastDeleted) return;
    const next = [...draft.items];
    next.splice(Math.min(lastDeleted.index, next.length), 0, lastDeleted.item);
    pendingFocus.current = { kind: "element", key: lastDeleted.item.key };
    setLastDeleted(null);
    updateItems(next);
  }

  function onAdd(type: AddableType) {
    const item = { key: newKey(), element: newElement(type) as BodyElement };
    pendingFocus.current = { kind: "fields", key: item.key };
    setOpenKey(item.key);
    updateItems([...draft.items, item]);
  }

  /** The new version once saved, or null when the save was refused (its message shows). */
  async function save(): Promise<number | null> {
    const submitted = draft;
    let version: number | null = null;
    const target = await saver.save(submitted, (result) => {
      setSaved({ snapshot: snapshotOf(submitted), name: result.unformatted_name, slug: submitted.metadatas.url });
      setLastDeleted(null);
      version = result.version;
    });
    if (target) document.getElementById(focusId(target, submitted))?.focus();
    return version;
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
      <div className="editor-bar" role="group" aria-label={t("editor.actions")}>
        <button type="button" className="button" aria-disabled={saver.busy} onClick={() => void save()}>
          {t("editor.save")}
        </button>
        <div className="editor-bar__more">{secondaryActions}</div>
        <span className={dirty ? "editor-bar__state editor-bar__state--dirty" : "editor-bar__state"}>
          {dirty ? t("editor.unsaved") : t("editor.allSaved")}
        </span>
        {narrow ? <EditorTabs current={tab} onChange={setTab} /> : null}
      </div>

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

      {saver.stale ? (
        <div className="editor-alert" role="alert">
          <p>{t("editor.stale")}</p>
          <button type="button" className="button button--small" onClick={() => (dirty ? setDialog("reload") : reloadSaved())}>
            {t("editor.reloadSaved")}
          </button>
        </div>
      ) : null}
      {errors.general ? (
        <div className="editor-alert" role="alert">
          <p>{errors.general}</p>
        </div>
      ) : null}

      <div className="editor-layout">
        <div className="editor-main" {...panelProps("edit", tab, narrow)}>
          <SettingsFields name={draft.name} metadatas={draft.metadatas} errors={errors} onName={onName} onMetadatas={onMetadatas} />
          <section className="editor-content" aria-labelledby="editor-content-heading">
            <h2 id="editor-content-heading">{t("editor.contentHeading")}</h2>
            <div role="status" className="editor-undo">
              {lastDeleted ? (
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
              error={errors.element}
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

      <UnsavedGuard dirty={dirty} />
      {dialog === "reset" ? (
        <ConfirmDialog title={t("editor.resetConfirmTitle")} confirmLabel={t("editor.resetConfirm")} onConfirm={() => void resetTranslations()} onCancel={() => setDialog(null)}>
          <p>{t("editor.resetConfirmBody")}</p>
        </ConfirmDialog>
      ) : null}
      {dialog === "reload" ? (
        <ConfirmDialog title={t("editor.reloadConfirmTitle")} confirmLabel={t("editor.reloadConfirm")} onConfirm={reloadSaved} onCancel={() => setDialog(null)}>
          <p>{t("editor.reloadConfirmBody")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
