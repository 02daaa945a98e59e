import { type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { changePassword } from "~/models/auth.server";
import { getMuseum, listTimeZones, museumSettingsSchema, updateMuseumSettings } from "~/models/museums.server";
import { changePasswordSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/models/password-input";
import { isLocale } from "~/i18n/config";
import { languageOptionLabel, languagesByLabel } from "~/translation/languages";
import { notFound, type ErrorReason } from "~/errors";
import { refusePage } from "~/utils/page.server";
import { FieldError } from "~/components/field-error";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal, type FormResult } from "~/utils/form-action.server";
import { intentAction, type IntentArgs } from "~/utils/intent-action.server";
import { clientAddress } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { SessionsList } from "~/components/team/sessions-list";
import { endOtherSessions, endSession, listSessions } from "~/teams/member-sessions.server";
import { can } from "~/teams/roles";
import teamStyles from "~/styles/team.css?url";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";
import { useFormRefusal } from "~/hooks/use-form-refusal";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "settings", { noindex: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: teamStyles }];

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "session");
  const [museum, sessions] = await Promise.all([getMuseum(context.db, user.museumId), listSessions(context.db, user)]);
  if (!museum) refusePage(notFound("Museum"));
  return {
    email: user.email,
    sessions,
    // The museum's settings are an admin's; the glossary a reader's (decision 040).
    manages: can(user, "museum.manage"),
    readsContent: can(user, "content.read"),
    museum: { name: museum.name, sourceLang: museum.sourceLang, timezone: museum.timezone },
    timeZones: listTimeZones(),
  };
}

type ActionResult = FormResult<"museum" | "password" | "end_session" | "end_other_sessions"> & { ended?: number };

/** `intent=museum` (admins): the museum's name, source language and time zone. */
async function museumAction({ user, form, context }: IntentArgs) {
  const parsed = museumSettingsSchema.safeParse({
    name: formString(form, "name"),
    sourceLang: formString(form, "sourceLang"),
    timezone: formString(form, "timezone"),
  });
  if (!parsed.success) return formRefusal("museum", fieldErrors(parsed.error));
  await updateMuseumSettings(context.db, user.museumId, parsed.data, user);
  return { intent: "museum", ok: true } satisfies ActionResult;
}

/** `intent=password`: the member's own password, the current one checked (rate-limited). */
async function passwordAction({ request, user, form, context }: IntentArgs) {
  const parsed = changePasswordSchema.safeParse({
    currentPassword: formString(form, "currentPassword"),
    newPassword: formString(form, "newPassword"),
    confirmPassword: formString(form, "confirmPassword"),
  });
  if (!parsed.success) return formRefusal("password", fieldErrors(parsed.error));
  const result = await changePassword(context.db, context.directory, user, {
    ...parsed.data,
    clientAddress: clientAddress(request),
    secret: context.config.SESSION_SECRET,
  });
  if (result.kind === "rate_limited") {
    return formRefusal("password", { currentPassword: "too_many_attempts" }, { status: 429, headers: { "Retry-After": String(result.retryAfter) } });
  }
  if (result.kind === "wrong_current") {
    return formRefusal("password", { currentPassword: "wrong_password" });
  }
  return { intent: "password", ok: true } satisfies ActionResult;
}

/** `intent=end_session`: one of the member's other sessions ends (404 naming `session` when it is not theirs). */
async function endSessionAction({ user, form, context }: IntentArgs) {
  await endSession(context.db, user, formString(form, "session"));
  return { intent: "end_session", ok: true, ended: 1 } satisfies ActionResult;
}

/** `intent=end_other_sessions`: every session of the member but this one ends. */
async function endOtherSessionsAction({ user, context }: IntentArgs) {
  const ended = await endOtherSessions(context.db, user);
  return { intent: "end_other_sessions", ok: true, ended } satisfies ActionResult;
}

export const action = intentAction((intent) => (intent === "museum" ? "museum.manage" : "session"), {
  museum: museumAction,
  password: passwordAction,
  end_session: endSessionAction,
  end_other_sessions: endOtherSessionsAction,
});

/** A settings field's refusal (passwords say their length rule). */
function SettingsFieldError({ field, reason }: { field: string; reason?: ErrorReason }) {
  return <FieldError scope="settings" field={field} reason={reason} id={`${field}-error`} values={{ min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }} />;
}

export default function Settings() {
  const { email, museum, timeZones, sessions, manages, readsContent } = useLoaderData<typeof loader>();
  // A refused body (415, 413) answers an `{ error }` instead: no form result to show.
  const actionData = useActionData<ActionResult | { error: unknown }>();
  const result = actionData && "intent" in actionData ? actionData : undefined;
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const uiLocale = isLocale(i18n.language) ? i18n.language : "fr";
  const busy = navigation.state === "submitting";
  const errors = result && "errors" in result ? (result.errors ?? {}) : {};
  useFormRefusal(result);
  const museumErrors = result?.intent === "museum" ? errors : {};
  const passwordErrors = result?.intent === "password" ? errors : {};

  const museumFormKey = `museum-${museum.name}-${museum.sourceLang}-${museum.timezone}`;
  const passwordFormKey = result?.intent === "password" && result.ok ? "pw-done" : "pw";

  useEffect(() => {
    if (!result) return;
    if (result.intent === "end_session" || result.intent === "end_other_sessions") {
      if (result.ok) {
        const message = result.intent === "end_session" ? t("team.sessions.ended") : t("team.sessions.endedOthers", { count: result.ended ?? 0 });
        toast.success(message, { id: "sessions" });
      } else {
        toast.error(t("team.sessions.gone"), { id: "sessions" });
      }
      // The ended row is gone: focus goes to the section's heading rather than to <body>.
      document.getElementById("sessions-heading")?.focus();
      return;
    }
    if (result.ok) toast.success(t(result.intent === "museum" ? "settings.museumSaved" : "settings.passwordChanged"));
  }, [result, t]);

  // The saved form is drawn anew (its key changes, possibly a render after the result arrives): put focus
  // back on its button, or on the first field in error, instead of letting it fall to <body>.
  useEffect(() => {
    if (!result || result.intent === "end_session" || result.intent === "end_other_sessions") return;
    const form = document.querySelector(`form[data-intent="${result.intent}"]`);
    const target = form?.querySelector<HTMLElement>(result.ok ? 'button[type="submit"]' : '[aria-invalid="true"]');
    target?.focus();
  }, [result, museumFormKey, passwordFormKey]);

  const languages = languagesByLabel(uiLocale);

  return (
    <section className="page page--narrow">
      <h1>{t("settings.title")}</h1>
      <p className="muted">{t("settings.account", { email })}</p>

      {manages ? (
        <>
          <h2>{t("settings.museumSection")}</h2>
          <Form method="post" className="form" data-intent="museum" key={museumFormKey}>
            <input type="hidden" name="intent" value="museum" />
            <label className="field">
              <span>{t("settings.museumName")}</span>
              <input name="name" defaultValue={museum.name} required maxLength={120} aria-invalid={Boolean(museumErrors.name)} aria-describedby="name-error" />
            </label>
            <SettingsFieldError field="name" reason={museumErrors.name} />
            <label className="field">
              <span>{t("settings.sourceLang")}</span>
              <select name="sourceLang" defaultValue={museum.sourceLang} aria-describedby="source-help">
                {languages.map((lang) => (
                  <option key={lang.code} value={lang.code}>
                    {languageOptionLabel(lang.code, uiLocale)}
                  </option>
                ))}
              </select>
              <small id="source-help">{t("settings.sourceLangHelp")}</small>
            </label>
            <SettingsFieldError field="sourceLang" reason={museumErrors.sourceLang} />
            <label className="field">
              <span>{t("settings.timezone")}</span>
              <select name="timezone" defaultValue={museum.timezone} aria-describedby="tz-help">
                {timeZones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
              <small id="tz-help">{t("settings.timezoneHelp")}</small>
            </label>
            <SettingsFieldError field="timezone" reason={museumErrors.timezone} />
            <button type="submit" className="button" disabled={busy}>
              {t("settings.saveMuseum")}
            </button>
          </Form>
        </>
      ) : null}

      <h2>{t("settings.passwordSection")}</h2>
      <Form method="post" className="form" data-intent="password" key={passwordFormKey}>
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
        <label className="field">
          <span>{t("settings.currentPassword")}</span>
          <input type="password" name="currentPassword" autoComplete="current-password" required aria-invalid={Boolean(passwordErrors.currentPassword)} />
        </label>
        <SettingsFieldError field="currentPassword" reason={passwordErrors.currentPassword} />
        <label className="field">
          <span>{t("settings.newPassword")}</span>
          <input
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-describedby="pw-help"
            aria-invalid={Boolean(passwordErrors.newPassword)}
          />
          <small id="pw-help">{t("settings.passwordHelp", { min: PASSWORD_MIN_LENGTH })}</small>
        </label>
        <SettingsFieldError field="newPassword" reason={passwordErrors.newPassword} />
        <label className="field">
          <span>{t("settings.confirmPassword")}</span>
          <input type="password" name="confirmPassword" autoComplete="new-password" required aria-invalid={Boolean(passwordErrors.confirmPassword)} />
        </label>
        <SettingsFieldError field="confirmPassword" reason={passwordErrors.confirmPassword} />
        <button type="submit" className="button" disabled={busy}>
          {t("settings.changePassword")}
        </button>
      </Form>

      <h2 id="sessions-heading" tabIndex={-1}>
        {t("team.sessions.section")}
      </h2>
      <SessionsList sessions={sessions} timeZone={museum.timezone} busy={busy} />

      {readsContent ? (
        <>
          <h2>{t("settings.glossarySection")}</h2>
          <p>{t("settings.glossaryText")}</p>
          <p>
            <Link to="/glossary" className="button button--ghost">
              {t("settings.glossaryLink")}
            </Link>
          </p>
        </>
      ) : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
