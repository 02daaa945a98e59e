import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { asDomainError, type ErrorBody } from "~/errors";
import { loginErrorKey as errorKey } from "~/utils/login-messages";
import { methodNotAllowed, readFormBody } from "~/utils/http.server";
import { attemptLogin, jsonLogin } from "~/utils/login.server";
import { answerItself, isApiCall } from "~/utils/own-answer.server";
import { pageMeta } from "~/utils/meta";
import { actionRefusal } from "~/utils/page.server";
import { getUser, safeRedirect } from "~/utils/session.server";
import { flashToast } from "~/utils/toast.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "login");

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getUser(request, context)) throw redirect("/dashboard");
  return null;
}

/**
 * The page's own form: redirects on success, so the page works without JavaScript. A JSON body is the spec's
 * `POST /login` (docs/api.md), answered as JSON (decisions 004, 136).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  if (isApiCall(request)) answerItself(context, await jsonLogin(request, context));
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const { form } = body;
  const input = { email: form.get("email") ?? undefined, password: form.get("password") ?? undefined };
  let outcome;
  try {
    outcome = await attemptLogin(request, context, input);
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return actionRefusal(domain);
    throw error;
  }
  const headers = new Headers({ "Set-Cookie": outcome.setCookie, "Cache-Control": "private, no-store" });
  headers.append("Set-Cookie", await flashToast("success", "login.success"));
  return redirect(safeRedirect(form.get("redirectTo")), { headers });
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<ErrorBody>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const message = actionData?.error ? t(errorKey(actionData), { count: Math.ceil((actionData.error.retryAfter ?? 60) / 60) }) : null;

  useEffect(() => {
    // One message at a time: each failure replaces the previous toast instead of stacking up.
    if (message) toast.error(message, { id: "login-error" });
  }, [actionData, message]);

  return (
    <section className="page page--narrow">
      <h1>{t("login.title")}</h1>
      <Form method="post" className="form" replace>
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/dashboard"} />
        <label className="field">
          <span>{t("login.email")}</span>
          <input type="email" name="email" autoComplete="username" required maxLength={254} autoFocus />
        </label>
        <label className="field">
          <span>{t("login.password")}</span>
          <input type="password" name="password" autoComplete="current-password" required maxLength={1024} />
        </label>
        {message ? (
          <p className="form__error" role="alert">
            {message}
          </p>
        ) : null}
        {actionData?.error.archive ? (
          // A closed museum's admin (decision 148): its archive, until the purge.
          <p className="login__archive">
            {t("login.closedArchive", {
              date: new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "fr-FR", { dateStyle: "long", timeZone: "UTC" }).format(
                actionData.error.archive.until,
              ),
            })}{" "}
            <a href={actionData.error.archive.url} download>
              {t("login.closedArchiveLink")}
            </a>
          </p>
        ) : null}
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? t("login.submitting") : t("login.submit")}
        </button>
      </Form>
      <p className="login__contact">
        <Link to="/contact">{t("login.noAccount")}</Link>
      </p>
    </section>
  );
}
