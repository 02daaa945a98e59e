import { lazy, Suspense } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { callApi } from "~/utils/api-client";
import type { ArticleEditorModel } from "./use-article-editor";

// The side-by-side comparison is loaded only when a conflict asks for it (decision 068).
const ConflictCompare = lazy(() => import("./conflict-compare"));

const RESET_TOAST = "article-reset";

/** The editor's confirmations (reset the translations, reload the saved version, keep mine) and the comparison. */
export function EditorDialogs({ editor, articleId }: { editor: ArticleEditorModel; articleId: number }) {
  const { t } = useTranslation();
  const { saver, actions } = editor;
  const conflict = saver.conflict;
  const close = () => actions.setDialog(null);

  // Each confirmation has a key of its own, so one never takes over another's open <dialog>.
  async function resetTranslations() {
    close();
    toast.loading(t("editor.resetting"), { id: RESET_TOAST });
    const result = await callApi("/api/manage/reset_traductions", { articleId });
    if (result.ok) toast.success(t("editor.resetDone"), { id: RESET_TOAST, duration: 5000 });
    else toast.error(t("editor.saveError"), { id: RESET_TOAST, duration: 5000 });
  }

  const dialog = editor.state.dialog;
  if (dialog === "compare")
    return (
      <Suspense fallback={null}>
        <ConflictCompare
          articleId={articleId}
          mine={{ name: editor.draft.name, content: editor.content }}
          onCurrent={saver.updateConflict}
          onKeepMine={() => actions.setDialog("keep")}
          onTakeTheirs={() => actions.setDialog("reload")}
          onClose={close}
        />
      </Suspense>
    );
  // The three confirmations differ only in their words and what the confirm button does.
  const confirm: [title: string, label: string, body: string, onConfirm: () => void] | null =
    dialog === "reset"
      ? [t("editor.resetConfirmTitle"), t("editor.resetConfirm"), t("editor.resetConfirmBody"), () => void resetTranslations()]
      : dialog === "reload" && conflict
        ? [t("editorErrors.conflict.takeConfirmTitle"), t("editorErrors.conflict.takeConfirm"), t("editorErrors.conflict.takeConfirmBody"), actions.reloadSaved]
        : dialog === "reload"
          ? [t("editor.reloadConfirmTitle"), t("editor.reloadConfirm"), t("editor.reloadConfirmBody"), actions.reloadSaved]
          : dialog === "keep"
            ? [
                t("editorErrors.conflict.keepConfirmTitle"),
                t("editorErrors.conflict.keepConfirm"),
                conflict?.current?.savedBy
                  ? t("editorErrors.conflict.keepConfirmBody", { who: conflict.current.savedBy.email })
                  : t("editorErrors.conflict.keepConfirmBodyUnknown"),
                actions.keepMine,
              ]
            : null;
  if (!confirm) return null;
  const [title, label, body, onConfirm] = confirm;
  return (
    <ConfirmDialog key={dialog} title={title} confirmLabel={label} onConfirm={onConfirm} onCancel={close}>
      <p>{body}</p>
    </ConfirmDialog>
  );
}
