import { lazy, Suspense } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import type { ContentElement } from "~/content/schema";
import type { StaleDetails } from "~/errors";
import { callApi } from "~/utils/api-client";
import type { EditorDialog } from "./editor-reducer";

// Each dialog has a key of its own, so one never takes over another's open <dialog> (they used to be siblings).
// The side-by-side comparison is loaded only when a conflict asks for it (decision 068).
const ConflictCompare = lazy(() => import("./conflict-compare"));

const RESET_TOAST = "article-reset";

interface EditorDialogsProps {
  dialog: EditorDialog | null;
  articleId: number;
  /** The version conflict shown next to Save, if any (decision 068). */
  conflict: { current: StaleDetails | null } | null;
  /** The draft, for the comparison. */
  mine: { name: string; content: ContentElement[] };
  onDialog: (dialog: EditorDialog | null) => void;
  onReloadSaved: () => void;
  onKeepMine: () => void;
  onCurrent: (current: StaleDetails) => void;
}

/** The editor's confirmations (reset the translations, reload the saved version, keep mine) and the comparison. */
export function EditorDialogs({ dialog, articleId, conflict, mine, onDialog, onReloadSaved, onKeepMine, onCurrent }: EditorDialogsProps) {
  const { t } = useTranslation();
  const close = () => onDialog(null);

  async function resetTranslations() {
    close();
    toast.loading(t("editor.resetting"), { id: RESET_TOAST });
    const result = await callApi("/api/manage/reset_traductions", { articleId });
    if (result.ok) toast.success(t("editor.resetDone"), { id: RESET_TOAST, duration: 5000 });
    else toast.error(t("editor.saveError"), { id: RESET_TOAST, duration: 5000 });
  }

  switch (dialog) {
    case "reset":
      return (
        <ConfirmDialog
          key="reset"
          title={t("editor.resetConfirmTitle")}
          confirmLabel={t("editor.resetConfirm")}
          onConfirm={() => void resetTranslations()}
          onCancel={close}
        >
          <p>{t("editor.resetConfirmBody")}</p>
        </ConfirmDialog>
      );
    case "reload":
      return conflict ? (
        <ConfirmDialog
          key="reload"
          title={t("editorErrors.conflict.takeConfirmTitle")}
          confirmLabel={t("editorErrors.conflict.takeConfirm")}
          onConfirm={onReloadSaved}
          onCancel={close}
        >
          <p>{t("editorErrors.conflict.takeConfirmBody")}</p>
        </ConfirmDialog>
      ) : (
        <ConfirmDialog key="reload" title={t("editor.reloadConfirmTitle")} confirmLabel={t("editor.reloadConfirm")} onConfirm={onReloadSaved} onCancel={close}>
          <p>{t("editor.reloadConfirmBody")}</p>
        </ConfirmDialog>
      );
    case "keep":
      return (
        <ConfirmDialog
          key="keep"
          title={t("editorErrors.conflict.keepConfirmTitle")}
          confirmLabel={t("editorErrors.conflict.keepConfirm")}
          onConfirm={onKeepMine}
          onCancel={close}
        >
          <p>
            {conflict?.current?.savedBy
              ? t("editorErrors.conflict.keepConfirmBody", { who: conflict.current.savedBy.email })
              : t("editorErrors.conflict.keepConfirmBodyUnknown")}
          </p>
        </ConfirmDialog>
      );
    case "compare":
      return (
        <Suspense fallback={null}>
          <ConflictCompare
            articleId={articleId}
            mine={mine}
            onCurrent={onCurrent}
            onKeepMine={() => onDialog("keep")}
            onTakeTheirs={() => onDialog("reload")}
            onClose={close}
          />
        </Suspense>
      );
    default:
      return null;
  }
}
