import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorMessage, callApi } from "~/utils/api-client";

/**
 * The session ended while editing (a call answered 401): log in again here, without leaving the page and
 * its unsaved draft (decision 071). The same JSON `POST /login` as the API, so the same rules and rate
 * limits; the account is the one the page was opened with, so the draft never changes hands.
 */
export function SessionDialog({ email, returnTo, onLoggedIn, onCancel }: { email: string; returnTo: string; onLoggedIn: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  // Focus goes back where it was (the Save button) when the dialog closes, whichever way.
  useEffect(() => {
    const before = document.activeElement;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal focuses the first control, the read-only address; the password is what is asked.
    passwordRef.current?.focus();
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (password === "") {
      setMessage(t("login.invalidInput"));
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await callApi<{ email: string }>("/login", { email, password });
    setBusy(false);
    if (result.ok && result.data.email.toLowerCase() === email.toLowerCase()) return onLoggedIn();
    if (result.ok) {
      // Cannot happen with the address sent; if it ever did, the page must not carry on as someone else.
      window.location.reload();
      return;
    }
    const { code } = result.error;
    const retryAfter = (result.error as { retryAfter?: number }).retryAfter ?? 60;
    setMessage(
      code === "rate_limited"
        ? t("login.rateLimited", { count: Math.ceil(retryAfter / 60) })
        : code === "invalid_input"
          ? t("login.invalidInput")
          : code === "unauthorized"
            ? t("login.invalid")
            : apiErrorMessage(t, result),
    );
    passwordRef.current?.select();
    passwordRef.current?.focus();
  }

  return (
    <dialog
      ref={ref}
      className="confirm-dialog keep-dialog"
      aria-labelledby="keep-session-title"
      aria-describedby="keep-session-body"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="keep-session-title">{t("keep.sessionTitle")}</h2>
      <p id="keep-session-body">{t("keep.sessionBody")}</p>
      <form className="form keep-dialog__form" onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span>{t("login.email")}</span>
          <input type="email" name="email" value={email} readOnly autoComplete="username" />
        </label>
        <label className="field">
          <span>{t("login.password")}</span>
          <input
            ref={passwordRef}
            type="password"
            name="password"
            autoComplete="current-password"
            maxLength={1024}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? "keep-session-error" : undefined}
          />
        </label>
        {message ? (
          <p id="keep-session-error" className="form__error" role="alert">
            {message}
          </p>
        ) : null}
        <div className="confirm-dialog__actions">
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("articles.cancel")}
          </button>
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? t("login.submitting") : t("keep.sessionSubmit")}
          </button>
        </div>
      </form>
      <p className="keep-dialog__other">
        <Link to={`/login?redirectTo=${encodeURIComponent(returnTo)}`}>{t("keep.sessionOther")}</Link>
      </p>
    </dialog>
  );
}
