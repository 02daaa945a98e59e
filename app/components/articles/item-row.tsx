import { Link } from "@remix-run/react";
import { useId, useRef, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { FileIcon, FolderIcon } from "~/components/icons";
import { useOutsidePress, type OutsideReason } from "~/hooks/use-outside-press";
import { NAME_MAX_LENGTH } from "~/lib/names";
import type { TreeNode } from "~/models/tree-input";
import { folderHref, itemKey, type Destination } from "./tree-helpers";
import { ItemMenu, type MenuExit, type MenuPosition } from "./item-menu";
import { PublicationBadgeView, type PublicationBadge } from "~/components/publishing/publication-badge";

interface ItemRowProps {
  node: TreeNode;
  /** An article's publication badge (draft, never published, scheduled); none when published as saved. */
  badge?: PublicationBadge;
  path: readonly string[];
  /** A role that only reads: the article opens its translations, and there is no actions menu. */
  readOnly?: boolean;
  menuAt: MenuPosition | null;
  renaming: boolean;
  /** What the user typed in a rename the server refused, and why. */
  renameDraft?: { text: string; error: string } | null;
  destinations: Destination[];
  onOpenMenu: (position: MenuPosition) => void;
  onCloseMenu: () => void;
  onStartRename: () => void;
  onRename: (newName: string) => void;
  onCancelRename: (reason: OutsideReason) => void;
  onMove: (destination: Destination) => void;
  onDelete: () => void;
}

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The tab stop after `element` in document order, skipping the open menu and anything hidden. */
function nextTabStop(element: HTMLElement): HTMLElement | null {
  const stops = [...document.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el === element || (!el.closest(".item-menu") && el.getClientRects().length > 0),
  );
  return stops[stops.indexOf(element) + 1] ?? null;
}

export function ItemRow(props: ItemRowProps) {
  const { node, path, menuAt, renaming } = props;
  const { t } = useTranslation();
  const moreButton = useRef<HTMLButtonElement>(null);
  const readOnly = props.readOnly === true;
  const href = node.type === "folder" ? folderHref([...path, node.id]) : readOnly ? `/translations?id=${node.id}` : `/article?id=${node.id}`;
  const label = node.name || String(node.id);

  function openFromContextMenu(event: MouseEvent) {
    if (readOnly) return;
    event.preventDefault();
    props.onOpenMenu({ x: event.clientX, y: event.clientY });
  }

  function openFromButton() {
    const rect = moreButton.current?.getBoundingClientRect();
    props.onOpenMenu({ x: rect ? rect.right - 240 : 0, y: rect ? rect.bottom + 4 : 0 });
  }

  function closeMenu(exit: MenuExit) {
    const button = moreButton.current;
    const target = exit === "next" && button ? nextTabStop(button) : exit === "none" ? null : button;
    props.onCloseMenu();
    target?.focus();
  }

  return (
    <li className={`tree-row tree-row--${node.type}`} data-key={itemKey(node)} onContextMenu={openFromContextMenu}>
      <span className="tree-row__icon" aria-hidden="true">
        {node.type === "folder" ? <FolderIcon /> : <FileIcon />}
      </span>
      {renaming ? (
        <RenameForm name={node.name} draft={props.renameDraft} onConfirm={props.onRename} onCancel={props.onCancelRename} />
      ) : (
        <Link to={href} className="tree-row__link">
          <span className="visually-hidden">{t(node.type === "folder" ? "articles.folder" : "articles.article")} </span>
          {label}
        </Link>
      )}
      {props.badge && !renaming ? <PublicationBadgeView badge={props.badge} /> : null}
      {readOnly ? null : (
        <button
          ref={moreButton}
          type="button"
          className="tree-row__more"
          aria-haspopup="menu"
          aria-expanded={menuAt !== null}
          aria-label={t("articles.actionsFor", { name: label })}
          onClick={openFromButton}
        >
          ⋯
        </button>
      )}
      {menuAt ? (
        <ItemMenu
          label={t("articles.actionsFor", { name: label })}
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

interface RenameFormProps {
  name: string;
  draft?: { text: string; error: string } | null;
  onConfirm: (name: string) => void;
  onCancel: (reason: OutsideReason) => void;
}

function RenameForm({ name, draft, onConfirm, onCancel }: RenameFormProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  const errorId = useId();
  // Clicking away (or Escape) cancels, as the spec asks.
  useOutsidePress(ref, true, onCancel);
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
      <input
        name="name"
        defaultValue={draft?.text ?? name}
        aria-label={t("articles.renameLabel", { name })}
        aria-invalid={draft ? true : undefined}
        aria-describedby={draft ? errorId : undefined}
        autoFocus
        required
        maxLength={NAME_MAX_LENGTH}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="submit" className="button button--small">
        {t("articles.confirmRename")}
      </button>
      {draft ? (
        <p id={errorId} className="field__error tree-row__rename-error" role="alert">
          {draft.error}
        </p>
      ) : null}
    </form>
  );
}
