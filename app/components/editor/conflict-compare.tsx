// "Compare with their version" (decision 068): the saved draft a colleague made, compared with what is on
// this page, in the history page's words (added, removed, changed). Loaded only when asked for, so the
// comparison code does not weigh on the editor.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DiffList } from "~/components/publishing/history-compare";
import type { ArticleContent } from "~/content/schema";
import type { StaleDetails } from "~/errors";
import { diffContents } from "~/publishing/diff";
import { callApi } from "~/utils/api-client";
import { useWhen } from "./conflict-panel";

type Theirs = { unformatted_name: string; content: ArticleContent; draft: { version: number; updatedAt: number; updatedBy: StaleDetails["savedBy"] } };

interface ConflictCompareProps {
  articleId: number;
  mine: { name: string; content: ArticleContent };
  /** Their version changed again since the panel said it: the panel says the newer one. */
  onCurrent: (current: StaleDetails) => void;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onClose: () => void;
}

export default function ConflictCompare({ articleId, mine, onCurrent, onKeepMine, onTakeTheirs, onClose }: ConflictCompareProps) {
  const { t } = useTranslation();
  const when = useWhen();
  const ref = useRef<HTMLDialogElement>(null);
  const [theirs, setTheirs] = useState<Theirs | "loading" | "failed">("loading");

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    let alive = true;
    void callApi<Theirs>(`/api/read/article?articleId=${articleId}`).then((result) => {
      if (!alive) return;
      if (!result.ok) return setTheirs("failed");
      setTheirs(result.data);
      const { draft } = result.data;
      onCurrent({ version: draft.version, savedAt: draft.updatedAt, savedBy: draft.updatedBy });
    });
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once, when the dialog opens
  }, [articleId]);

  const diff = typeof theirs === "object" ? diffContents(theirs.content, mine.content) : null;
  const changes = diff ? diff.counts.added + diff.counts.removed + diff.counts.changed : 0;
  return (
    <dialog
      ref={ref}
      className="confirm-dialog editor-compare"
      aria-labelledby="editor-compare-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="editor-compare-title">{t("editorErrors.conflict.compareTitle")}</h2>
      {theirs === "loading" ? (
        <p role="status">{t("editorErrors.conflict.compareLoading")}</p>
      ) : theirs === "failed" ? (
        <p role="alert">{t("editorErrors.conflict.compareFailed")}</p>
      ) : (
        <>
          <p>
            {t("editorErrors.conflict.compareIntro", {
              version: theirs.draft.version,
              who: theirs.draft.updatedBy?.email ?? t("editorErrors.conflict.someone"),
            })}{" "}
            <span className="history-muted">{when(theirs.draft.updatedAt)}</span>
          </p>
          {theirs.unformatted_name !== mine.name ? <p>{t("editorErrors.conflict.nameChange", { theirs: theirs.unformatted_name, mine: mine.name })}</p> : null}
          {changes === 0 ? (
            <p>{t("editorErrors.conflict.identical")}</p>
          ) : (
            <>
              <p className="history-legend">{t("editorErrors.conflict.compareLegend")}</p>
              <div className="editor-compare__diff">{diff ? <DiffList entries={diff.elements} /> : null}</div>
            </>
          )}
        </>
      )}
      <div className="confirm-dialog__actions editor-compare__actions">
        <button type="button" className="button button--ghost" onClick={onClose} autoFocus>
          {t("editorErrors.conflict.close")}
        </button>
        <button type="button" className="button button--ghost" onClick={onTakeTheirs}>
          {t("editorErrors.conflict.takeTheirs")}
        </button>
        <button type="button" className="button" onClick={onKeepMine}>
          {t("editorErrors.conflict.keepMine")}
        </button>
      </div>
    </dialog>
  );
}
