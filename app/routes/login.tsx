import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { login } from "~/models/auth.server";
import { loginSchema } from "~/models/login-input";
import { apiError, clientAddress, invalidInput, readJsonBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { getUser, safeRedirect, sessionCookie } from "~/utils/session.server";
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
 * `POST /login` takes the spec's JSON `{email, password}` (200 + cookie, 400, 401, 429) and also the
 * page's own form, which redirects on success so the page works without JavaScript.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const isJson = (request.headers.get("Content-Type") ?? "").toLowerCase().includes("application/json");
  let input: unknown;
  let redirectTo: string | undefined;
  if (isJson) {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    input = body.value;
  } else {
    const form = await request.formData();
    input = { email: form.get("email") ?? undefined, password: form.get("password") ?? undefined };
    redirectTo = safeRedirect(form.get("redirectTo"));
  }
  const parsed = loginSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);

  const result = await login(context.db, {
    ...parsed.data,
    clientAddress: clientAddress(request),
    secret: context.config.SESSION_SECRET,
  });
  if (result.kind === "rate_limited") {
    return apiError(429, "rate_limited", "Too many failed logins, try again later", {
      headers: { "Retry-After": String(result.retryAfter) },
      retryAfter: result.retryAfter,
    });
  }
  if (result.kind === "invalid") return apiError(401, "unauthorized", "Wrong email or password");

  const headers = new Headers({ "Set-Cookie": sessionCookie(request, result.token), "Cache-Control": "no-store" });
  if (isJson) return json({ email: result.user.email }, { headers });
  headers.append("Set-Cookie", await flashToast("success", "login.success"));
  return redirect(redirectTo ?? "/dashboard", { headers });
}

type ActionError = { error: { code: string; message: string; retryAfter?: number } };

function errorKey(data: ActionError): string {
  switch (data.error.code) {
    case "rate_limited":
      return "login.rateLimited";
    case "invalid_input":
      return "login.invalidInput";
    default:
      return "login.invalid";
  }
}

export default function LoginPage() {
  const { t } = useTranslation();
  const actionData = useActionData<ActionError>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const message = actionData?.error ? t(errorKey(actionData), { minutes: Math.ceil((actionData.error.retryAfter ?? 60) / 60) }) : null;

  useEffect(() => {
    if (message) toast.error(message);
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
