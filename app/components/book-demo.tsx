import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { siteConfig } from "~/site-config";

/** Opens the external scheduling service in a dialog; without JavaScript the link opens it directly. */
export function BookDemoButton({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const onClick = (event: MouseEvent) => {
      if (event.target === el) el.close();
    };
    el.addEventListener("click", onClick);
    return () => el.removeEventListener("click", onClick);
  }, []);

  return (
    <>
      <a
        href={siteConfig.booking.url}
        className={`button button--demo ${className}`}
        target="_blank"
        rel="noreferrer"
        onClick={(event) => {
          if (!dialog.current?.showModal) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {t("nav.bookDemo")}
      </a>
      <dialog ref={dialog} className="booking-dialog" aria-label={t("booking.title")}>
        <form method="dialog" className="booking-dialog__bar">
          <span>{t("booking.title")}</span>
          <button type="submit" className="button button--ghost">
            {t("booking.close")}
          </button>
        </form>
        <BookingFrame />
      </dialog>
    </>
  );
}

function BookingFrame() {
  const { t } = useTranslation();
  return (
    <iframe title={t("booking.frameTitle")} src={siteConfig.booking.url} height={siteConfig.booking.height} loading="lazy" className="booking-dialog__frame" />
  );
}
