import { Link } from "@remix-run/react";
import { useCallback, useRef, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { FileIcon, FolderIcon } from "~/components/icons";
import { useOutsidePress } from "~/hooks/use-outside-press";
import type { TreeNode } from "~/models/tree-input";
import { folderHref, type Destination } from "./tree-helpers";
import { ItemMenu, type MenuPosition } from "./item-menu";

interface ItemRowProps {
  node: TreeNode;
  path: readonly string[];
  menuAt: MenuPosition | null;
  renaming: boolean;
  destinations: Destination[];
  onOpenMenu: (position: MenuPosition) => void;
  onCloseMenu: () => void;
  onStartRename: () => void;
  onRename: (newName: string) => void;
  onCancelRename: () => void;
  onMove: (destination: Destination) => void;
  onDelete: () => void;
}

export function ItemRow(props: ItemRowProps) {
  const { node, path, menuAt, renaming } = props;
  const { t } = useTranslation();
  const moreButton = useRef<HTMLButtonElement>(null);
  const href = node.type === "folder" ? folderHref([...path, node.id]) : `/article?id=${node.id}`;

  function openFromContextMenu(event: MouseEvent) {
    event.preventDefault();
    props.onOpenMenu({ x: event.clientX, y: event.clientY });
  }

  function openFromButton() {
    const rect = moreButton.current?.getBoundingClientRect();
    props.onOpenMenu({ x: rect ? rect.right - 240 : 0, y: rect ? rect.bottom + 4 : 0 });
  }

  const closeMenu = () => {
    props.onCloseMenu();
    moreButton.current?.focus();
  };

  return (
    <li className={`tree-row tree-row--${node.type}`} onContextMenu={openFromContextMenu}>
      <span className="tree-row__icon" aria-hidden="true">
        {node.type === "folder" ? <FolderIcon /> : <FileIcon />}
      </span>
      {renaming ? (
        <RenameForm name={node.name} onConfirm={props.onRename} onCancel={props.onCancelRename} />
      ) : (
        <Link to={href} className="tree-row__link">
          <span className="visually-hidden">{t(node.type === "folder" ? "articles.folder" : "articles.article")} </span>
          {node.name || String(node.id)}
        </Link>
      )}
      <button
        ref={moreButton}
        type="button"
        className="tree-row__more"
        aria-haspopup="menu"
        aria-expanded={menuAt !== null}
        aria-label={t("articles.actionsFor", { name: node.name })}
        onClick={openFromButton}
      >
        ⋯
      </button>
      {menuAt ? (
        <ItemMenu
          label={t("articles.actionsFor", { name: node.name })}
          position={menuAt}
          destinations={props.destinations}
          onRename={props.onStartRename}
          onMove={props.onMove}
          onDelete={props.onDelete}
          onClose={closeMenu}
        />
      ) : null}
    </li>
  );
}

function RenameForm({ name, onConfirm, onCancel }: { name: string; onConfirm: (name: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  const cancel = useCallback(() => onCancel(), [onCancel]);
  // Clicking away (or Escape) cancels, as the spec asks.
  useOutsidePress(ref, true, cancel);
  return (
    <form
      ref={ref}
      className="tree-row__rename"
      onSubmit={(event) => {
        event.preventDefault();
        const value = new FormData(event.currentTarget).get("name");
        if (typeof value === "string" && value.trim()) onConfirm(value.trim());
      }}
    >
      <input name="name" defaultValue={name} aria-label={t("articles.renameLabel", { name })} autoFocus required maxLength={200} onFocus={(e) => e.currentTarget.select()} />
      <button type="submit" className="button button--small">
        {t("articles.confirmRename")}
      </button>
    </form>
  );
}
