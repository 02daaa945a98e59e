import { Link } from "@remix-run/react";
import { useRef, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { StaleDetails } from "~/errors";
import { ConflictPanel } from "./conflict-panel";
import type { EditorDialog } from "./editor-reducer";
import { EditorTabs, type EditorTab } from "./editor-tabs";
import { SAVE_ID } from "./focus-machine";
import { HistoryButtons } from "./history-buttons";
import { useToastsBelow } from "./toast-place";

interface ActionBarProps {
  articleId: number;
  /** The public page of the saved article, for staff (not counted in the statistics). */
  publicHref: string;
  busy: boolean;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  announce: string;
  /** On a narrow screen: the Edit and Preview tabs, and the one shown. */
  tabs: { current: EditorTab; onChange: (tab: EditorTab) => void } | null;
  conflict: { current: StaleDetails | null } | null;
  conflictHeading: RefObject<HTMLHeadingElement>;
  /** A failure that belongs to no field (413, network…), shown next to Save. */
  general?: string;
  onSave: () => void;
  onStep: (command: "undo" | "redo") => void;
  onDialog: (dialog: EditorDialog) => void;
  onReloadSaved: () => void;
}

/** The editor's actions: Save, undo and redo, whether all is saved, the tabs and, next to Save, a conflict. */
export function ActionBar(props: ActionBarProps) {
  const { articleId, publicHref, busy, dirty, conflict, general, onDialog } = props;
  const { t } = useTranslation();
  const barRef = useRef<HTMLDivElement>(null);
  useToastsBelow(barRef);

  const secondaryActions = (
    <>
      <button type="button" className="button button--ghost" onClick={() => onDialog("reset")}>
        {t("editor.resetTranslations")}
      </button>
      <Link className="button button--ghost" to={`/translations?id=${articleId}`}>
        {t("translations.editorLink")}
      </Link>
      <a className="button button--ghost" href={publicHref} target="_blank" rel="noopener">
        {t("editor.openPublic")}
        <span className="visually-hidden"> {t("editor.newTab")}</span>
      </a>
    </>
  );

  return (
    <>
      {/* On a phone only Save stays pinned; the other two actions sit above it, outside the sticky bar. */}
      <div className="editor-more" role="group" aria-label={t("editor.actions")}>
        {secondaryActions}
      </div>
      <div ref={barRef} className="editor-bar" role="group" aria-label={t("editor.actions")}>
        <button type="button" id={SAVE_ID} className="button" aria-disabled={busy} onClick={props.onSave}>
          {t("editor.save")}
        </button>
        <HistoryButtons
          canUndo={props.canUndo}
          canRedo={props.canRedo}
          onUndo={() => props.onStep("undo")}
          onRedo={() => props.onStep("redo")}
          announce={props.announce}
        />
        <div className="editor-bar__more">{secondaryActions}</div>
        <span className={dirty ? "editor-bar__state editor-bar__state--dirty" : "editor-bar__state"}>{dirty ? t("editor.unsaved") : t("editor.allSaved")}</span>
        {props.tabs ? <EditorTabs current={props.tabs.current} onChange={props.tabs.onChange} /> : null}
        {conflict ? (
          <ConflictPanel
            ref={props.conflictHeading}
            current={conflict.current}
            busy={busy}
            onCompare={() => onDialog("compare")}
            onKeepMine={() => onDialog("keep")}
            onTakeTheirs={() => (dirty ? onDialog("reload") : props.onReloadSaved())}
          />
        ) : null}
        {general ? (
          <div className="editor-alert editor-bar__alert" role="alert">
            <p>{general}</p>
          </div>
        ) : null}
      </div>
    </>
  );
}
