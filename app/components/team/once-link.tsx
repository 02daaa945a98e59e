import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";

/**
 * A link shown this once (an invitation, a password reset): selectable text, a copy button and its expiry.
 * Focus moves to its heading when it appears, so a keyboard or screen-reader user lands on it.
 */
export function OnceLink({ title, text, url, onDismiss }: { title: string; text: string; url: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [url]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t("team.copied"), { id: "team-copy" });
    } catch {
      toast.error(t("team.copyFailed"), { id: "team-copy" });
    }
  }

  return (
    <section className="once-link" aria-labelledby="once-link-title">
      <h3 id="once-link-title" ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <p>{text}</p>
      <label className="field">
        <span>{t("team.link")}</span>
        <input className="once-link__url" readOnly value={url} onFocus={(event) => event.currentTarget.select()} data-testid="once-link-url" />
      </label>
      <div className="once-link__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {t("team.copy")}
        </button>
        <button type="button" className="button button--ghost" onClick={onDismiss}>
          {t("team.dismiss")}
        </button>
      </div>
    </section>
  );
}
