// The version conflict, next to Save (issue 20 §2, decision 068): who saved which version when, and the
// three ways on: compare, keep mine (overwrite, confirmed), take theirs (reload, confirmed).
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { StaleDetails } from "~/errors";

interface ConflictPanelProps {
  current: StaleDetails | null;
  busy: boolean;
  onCompare: () => void;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}

/** "14 mars 2026 à 14:32" in the page's language and the person's own time zone. */
export function useWhen() {
  const { i18n } = useTranslation();
  return (at: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short" }).format(new Date(at));
}

/** Shown when a save meets a newer version: focus goes to its heading, next to Save, where the eyes are. */
export function ConflictPanel({ current, busy, onCompare, onKeepMine, onTakeTheirs }: ConflictPanelProps) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const when = useWhen();
  const said = current
    ? current.savedBy
      ? t("editorErrors.conflict.who", { who: current.savedBy.email, version: current.version, when: when(current.savedAt) })
      : t("editorErrors.conflict.whoUnknown", { version: current.version, when: when(current.savedAt) })
    : t("editorErrors.conflict.loading");
  return (
    <section className="editor-conflict" aria-labelledby="editor-conflict-title" data-testid="conflict-panel">
      <h2 id="editor-conflict-title" className="editor-conflict__title" tabIndex={-1} ref={headingRef}>
        {t("editorErrors.conflict.title")}
      </h2>
      <p className="editor-conflict__who">{said}</p>
      <p className="editor-conflict__yours">{t("editorErrors.conflict.yours")}</p>
      <div className="editor-conflict__actions">
        <button type="button" className="button button--small button--ghost" onClick={onCompare}>
          {t("editorErrors.conflict.compare")}
        </button>
        <button type="button" className="button button--small" aria-disabled={busy || !current} onClick={() => !busy && current && onKeepMine()}>
          {t("editorErrors.conflict.keepMine")}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={onTakeTheirs}>
          {t("editorErrors.conflict.takeTheirs")}
        </button>
      </div>
    </section>
  );
}
