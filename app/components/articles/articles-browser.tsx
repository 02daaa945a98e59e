import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { TrashIcon } from "~/components/icons";
import type { TreeNode } from "~/models/tree-input";
import { callApi, treeErrorMessage, type ApiResult } from "~/utils/api-client";
import { nextNumberedName } from "~/lib/names";
import { Breadcrumb } from "./breadcrumb";
import type { MenuPosition } from "./item-menu";
import { ItemRow } from "./item-row";
import type { PublicationBadge } from "~/components/publishing/publication-badge";
import { countDescendants, folderHref, itemKey, moveDestinations, type Destination } from "./tree-helpers";
import { useRowFocus } from "./use-row-focus";

const TRASH_DAYS = 30;
// One result toast at a time on this screen: a new result replaces the last one instead of stacking.
const RESULT_TOAST = "articles-result";

interface ArticlesBrowserProps {
  path: string[];
  items: TreeNode[];
  /** Publication badges of the articles that need one (decision 041), by article id. */
  badges?: Record<number, PublicationBadge>;
  /** Every folder of the museum by its full path, for "Move to". */
  folders: string[][];
  /** False for a role that only reads (a translator): no create, rename, move, delete; articles open their translations. */
  canEdit?: boolean;
}

export function ArticlesBrowser({ path, items, folders, badges, canEdit = true }: ArticlesBrowserProps) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<{ key: string; at: MenuPosition } | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  // A refused rename reopens the field with what was typed and why it was refused.
  const [renameDraft, setRenameDraft] = useState<{ key: string; text: string; error: string } | null>(null);
  // State updates land after a render; a second click in the same instant must see the first one.
  const inFlight = useRef(false);
  const [deleting, setDeleting] = useState<{ node: TreeNode; index: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const newArticle = useRef<HTMLButtonElement>(null);
  const { focusNow, focusAfterReload } = useRowFocus(list, newArticle, {
    items,
    reloading: revalidator.state === "loading",
    busy,
  });

  /** Sends one call with the screen marked busy; a second click in the same instant waits its turn. */
  async function guarded<T>(call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    inFlight.current = true;
    setBusy(true);
    const result = await call();
    inFlight.current = false;
    setBusy(false);
    return result;
  }

  /** Runs one call, then reloads the list whatever happened (the tree may have changed elsewhere). */
  async function run(call: () => Promise<ApiResult<unknown>>, successKey: string) {
    const result = await guarded(call);
    if (result.ok) toast.success(t(successKey), { id: RESULT_TOAST });
    else toast.error(treeErrorMessage(t, result), { id: RESULT_TOAST });
    revalidator.revalidate();
    return result.ok;
  }

  async function rename(node: TreeNode, index: number, newName: string) {
    setRenaming(null);
    setRenameDraft(null);
    const key = itemKey(node);
    if (newName === node.name) return focusNow({ keys: [key], index, part: "link" });
    // A renamed folder changes key (its name is its id); if the rename fails the old key is still there.
    const renamedKey = node.type === "folder" ? itemKey({ ...node, id: newName }) : key;
    const result = await guarded(() =>
      node.type === "folder"
        ? callApi("/api/manage/rename_folder", { pathArray: path, itemName: node.id, newName })
        : callApi("/api/manage/rename_article", { articleId: node.id, newName }),
    );
    if (result.ok) {
      toast.success(t("articles.renamed"), { id: RESULT_TOAST });
      focusAfterReload({ keys: [renamedKey, key], index, part: "link" });
    } else if (result.status === 400 || result.status === 409) {
      // The name was refused: the field comes back with the text and the reason, focus in it.
      setRenameDraft({ key, text: newName, error: treeErrorMessage(t, result) });
      setRenaming(key);
      return;
    } else {
      toast.error(treeErrorMessage(t, result), { id: RESULT_TOAST });
      focusAfterReload({ keys: [key], index, part: "link" });
    }
    revalidator.revalidate();
  }

  function move(node: TreeNode, index: number, destination: Destination) {
    setMenu(null);
    focusAfterReload({ keys: [itemKey(node)], index, part: "link" });
    void run(
      () =>
        callApi("/api/manage/move_item", {
          fromPathArray: path,
          itemId: node.id,
          type: node.type,
          toPathArray: destination.toPathArray,
          toFolderId: destination.toFolderId,
        }),
      "articles.moved",
    );
  }

  function confirmDelete() {
    if (!deleting) return;
    const { node, index } = deleting;
    setDeleting(null);
    focusAfterReload({ keys: [itemKey(node)], index, part: "link" });
    void run(() => callApi("/api/manage/delete_item", { id: node.id, type: node.type, pathArray: path }), "articles.deleted");
  }

  function cancelDelete() {
    if (!deleting) return;
    focusNow({ keys: [itemKey(deleting.node)], index: deleting.index, part: "more" });
    setDeleting(null);
  }

  // aria-disabled rather than disabled while busy: a disabled button drops the focus it holds to <body>.
  // The second click of a double click (`detail` 2 or more) is not a second request: on a fast server the first
  // call and the list's reload can be over before it lands, and it made "Nouveau dossier 2" (a flake in CI).
  // Keyboard activation has `detail` 0.
  const unlessBusy = (action: () => void) => (event: { detail: number }) => {
    if (event.detail > 1) return;
    if (!busy && !inFlight.current) action();
  };

  // A new article opens in the editor at once: naming and writing it is what comes next.
  const addArticle = async () => {
    const result = await guarded(() => callApi<{ id: number }>("/api/manage/add_article", { pathArray: path }));
    if (!result.ok) {
      toast.error(treeErrorMessage(t, result), { id: RESULT_TOAST });
      revalidator.revalidate();
      return;
    }
    toast.success(t("articles.created"), { id: RESULT_TOAST });
    navigate(`/article?id=${result.data.id}`);
  };
  const addFolder = () => {
    const name = nextNumberedName(
      t("articles.newFolderBase"),
      items.filter((n) => n.type === "folder").map((n) => n.name),
    );
    void run(() => callApi("/api/manage/add_folder", { pathArray: path, id: name }), "articles.folderCreated");
  };

  return (
    <section className="page articles">
      <header className="articles__header">
        <div className="articles__title">
          <Breadcrumb path={path} />
          <h1>{path.at(-1) ?? t("articles.title")}</h1>
        </div>
        {path.length === 0 ? (
          <Link to="/dashboard" className="button button--ghost">
            <span aria-hidden="true">←</span> {t("articles.backToDashboard")}
          </Link>
        ) : (
          <button type="button" className="button button--ghost" onClick={() => navigate(folderHref(path.slice(0, -1)))}>
            <span aria-hidden="true">←</span> {t("articles.back")}
          </button>
        )}
      </header>
      {canEdit ? (
        <div className="articles__actions">
          <button ref={newArticle} type="button" className="button" aria-disabled={busy} onClick={unlessBusy(() => void addArticle())}>
            {t("articles.newArticle")}
          </button>
          <button type="button" className="button button--ghost" aria-disabled={busy} onClick={unlessBusy(addFolder)}>
            {t("articles.addFolder")}
          </button>
          <Link to="/import" className="articles__trash">
            {t("import.tile")}
          </Link>
          <Link to="/trash" className="articles__trash">
            <TrashIcon /> {t("articles.trash")}
          </Link>
        </div>
      ) : null}
      {items.length === 0 ? <p className="muted">{t("articles.empty")}</p> : null}
      <ul ref={list} className="tree" aria-busy={busy}>
        {items.map((node, index) => {
          const key = itemKey(node);
          return (
            <ItemRow
              key={key}
              node={node}
              badge={node.type === "article" ? badges?.[node.id] : undefined}
              path={path}
              readOnly={!canEdit}
              menuAt={menu?.key === key ? menu.at : null}
              renaming={renaming === key}
              renameDraft={renameDraft?.key === key ? renameDraft : null}
              destinations={menu?.key === key ? moveDestinations(path, items, node, folders) : []}
              onOpenMenu={(at) => {
                setRenaming(null);
                setMenu({ key, at });
              }}
              onCloseMenu={() => setMenu(null)}
              onStartRename={() => {
                setMenu(null);
                setRenameDraft(null);
                setRenaming(key);
              }}
              onRename={(name) => void rename(node, index, name)}
              onCancelRename={(reason) => {
                setRenaming(null);
                setRenameDraft(null);
                if (reason === "escape") focusNow({ keys: [key], index, part: "link" });
              }}
              onMove={(d) => move(node, index, d)}
              onDelete={() => {
                setMenu(null);
                // One confirmation or toast stack at a time: the toasts go while the question is asked, and
                // a second request while one confirmation is open is ignored.
                toast.dismiss();
                setDeleting((current) => current ?? { node, index });
              }}
            />
          );
        })}
      </ul>
      {deleting ? (
        <ConfirmDialog
          title={t(deleting.node.type === "article" ? "articles.confirmDeleteArticle" : "articles.confirmDeleteFolder", {
            name: deleting.node.name || String(deleting.node.id),
          })}
          confirmLabel={t("articles.confirm")}
          onConfirm={confirmDelete}
          onCancel={cancelDelete}
        >
          {deleting.node.type === "folder" && countDescendants(deleting.node) > 0 ? (
            <p>{t("articles.confirmDeleteFolderItems", { count: countDescendants(deleting.node) })}</p>
          ) : null}
          <p className="muted">{t("articles.confirmDeleteTrashNote", { count: TRASH_DAYS })}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
