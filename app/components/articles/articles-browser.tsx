import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { TrashIcon } from "~/components/icons";
import type { TreeNode } from "~/models/tree-input";
import { callApi, treeErrorMessage, type ApiResult } from "~/utils/api-client";
import { nextNumberedName } from "~/utils/names";
import type { MenuPosition } from "./item-menu";
import { ItemRow } from "./item-row";
import { countDescendants, folderHref, itemKey, moveDestinations, type Destination } from "./tree-helpers";

const TRASH_DAYS = 30;

export function ArticlesBrowser({ path, items }: { path: string[]; items: TreeNode[] }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<{ key: string; at: MenuPosition } | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TreeNode | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs one call, then reloads the list whatever happened (the tree may have changed elsewhere). */
  async function run(call: Promise<ApiResult<unknown>>, successKey: string) {
    setBusy(true);
    const result = await call;
    setBusy(false);
    if (result.ok) toast.success(t(successKey));
    else toast.error(treeErrorMessage(t, result));
    revalidator.revalidate();
    return result.ok;
  }

  const closeMenu = () => setMenu(null);

  function rename(node: TreeNode, newName: string) {
    setRenaming(null);
    if (newName === node.name) return;
    void run(
      node.type === "folder"
        ? callApi("/api/manage/rename_folder", { pathArray: path, itemName: node.id, newName })
        : callApi("/api/manage/rename_article", { articleId: node.id, newName }),
      "articles.renamed",
    );
  }

  function move(node: TreeNode, destination: Destination) {
    closeMenu();
    void run(
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

  async function confirmDelete() {
    const node = deleting;
    setDeleting(null);
    if (!node) return;
    await run(callApi("/api/manage/delete_item", { id: node.id, type: node.type, pathArray: path }), "articles.deleted");
  }

  const addFolder = () => {
    const name = nextNumberedName(
      t("articles.newFolderBase"),
      items.filter((n) => n.type === "folder").map((n) => n.name),
    );
    void run(callApi("/api/manage/add_folder", { pathArray: path, id: name }), "articles.folderCreated");
  };

  return (
    <section className="page articles">
      <header className="articles__header">
        <h1>
          {t("articles.heading")}
          {path.length > 0 ? <span className="articles__path"> {path.join(" / ")}</span> : null}
        </h1>
        {path.length === 0 ? (
          <Link to="/dashboard" className="button button--ghost">
            ← {t("articles.backToDashboard")}
          </Link>
        ) : (
          <button type="button" className="button button--ghost" onClick={() => navigate(folderHref(path.slice(0, -1)))}>
            ← {t("articles.back")}
          </button>
        )}
      </header>
      <div className="articles__actions">
        <button type="button" className="button" disabled={busy} onClick={() => void run(callApi("/api/manage/add_article", { pathArray: path }), "articles.created")}>
          {t("articles.newArticle")}
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={addFolder}>
          {t("articles.addFolder")}
        </button>
        <Link to="/trash" className="articles__trash">
          <TrashIcon /> {t("articles.trash")}
        </Link>
      </div>
      {items.length === 0 ? <p className="muted">{t("articles.empty")}</p> : null}
      <ul className="tree" aria-busy={busy}>
        {items.map((node) => {
          const key = itemKey(node);
          return (
            <ItemRow
              key={key}
              node={node}
              path={path}
              menuAt={menu?.key === key ? menu.at : null}
              renaming={renaming === key}
              destinations={moveDestinations(path, items, node)}
              onOpenMenu={(at) => {
                setRenaming(null);
                setMenu({ key, at });
              }}
              onCloseMenu={closeMenu}
              onStartRename={() => {
                closeMenu();
                setRenaming(key);
              }}
              onRename={(name) => rename(node, name)}
              onCancelRename={() => setRenaming(null)}
              onMove={(d) => move(node, d)}
              onDelete={() => {
                closeMenu();
                setDeleting(node);
              }}
            />
          );
        })}
      </ul>
      {deleting ? (
        <ConfirmDialog
          title={
            deleting.type === "article"
              ? t("articles.confirmDeleteArticle")
              : t("articles.confirmDeleteFolder", { name: deleting.name })
          }
          confirmLabel={t("articles.confirm")}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          {deleting.type === "folder" && countDescendants(deleting) > 0 ? (
            <p>{t("articles.confirmDeleteFolderItems", { count: countDescendants(deleting) })}</p>
          ) : null}
          <p className="muted">{t("articles.confirmDeleteTrashNote", { days: TRASH_DAYS })}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
