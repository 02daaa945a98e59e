import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { KeptOffer } from "./kept-draft";

/** "14:32" today, "23 nov. 2026, 14:32" another day: in the person's own clock. */
export function keptTime(keptAt: number, locale: string, now = Date.now()): { today: boolean; text: string } {
  const today = new Date(keptAt).toDateString() === new Date(now).toDateString();
  const format = new Intl.DateTimeFormat(locale, today ? { hour: "2-digit", minute: "2-digit" } : { dateStyle: "medium", timeStyle: "short" });
  return { today, text: format.format(keptAt) };
}

/**
 * The offer of unsaved changes an earlier visit kept (decision 071), as a modal dialog opened on arrival:
 * focus on "Restore", the question read out as the dialog's name and description. Escape restores, the
 * choice that loses nothing (undo brings the saved version back); only "Discard" drops the kept draft.
 */
export function RestoreOffer({
  kept,
  savedVersion,
  onRestore,
  onDiscard,
}: {
  kept: KeptOffer;
  savedVersion: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const restoreRef = useRef<HTMLButtonElement>(null);

  // showModal focuses the dialog's first control; the safe choice takes focus instead.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    restoreRef.current?.focus();
  }, []);

  const time = keptTime(kept.keptAt, i18n.language);
  const older = kept.baseVersion < savedVersion;
  return (
    <dialog
      ref={ref}
      className="confirm-dialog keep-dialog"
      aria-labelledby="keep-offer-title"
      aria-describedby="keep-offer-body"
      onCancel={(event) => {
        event.preventDefault();
        onRestore();
      }}
    >
      <h2 id="keep-offer-title">{t(time.today ? "keep.offerTitle" : "keep.offerTitleDay", { time: time.text })}</h2>
      <div id="keep-offer-body">
        <p>{t("keep.offerBody")}</p>
        {older ? <p className="keep-dialog__warning">{t("keep.offerOlder")}</p> : null}
        {kept.others > 0 ? <p>{t("keep.offerOthers", { count: kept.others })}</p> : null}
      </div>
      <div className="confirm-dialog__actions">
        <button type="button" className="button button--ghost" onClick={onDiscard}>
          {t("keep.discard")}
        </button>
        <button ref={restoreRef} type="button" className="button" onClick={onRestore}>
          {t("keep.restore")}
        </button>
      </div>
    </dialog>
  );
}
