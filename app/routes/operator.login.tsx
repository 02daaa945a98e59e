import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { asDomainError, DomainError, type ErrorBody } from "~/errors";
import { operatorLogin } from "~/operator/accounts.server";
import { getOperator, operatorCookie } from "~/operator/session.server";
import { clientAddress, methodNotAllowed, readFormBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { actionRefusal } from "~/utils/page.server";
import { zodToDomainError } from "~/utils/zod-error";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.login", { noindex: true });

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

const loginSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  code: z.string().trim().min(1).max(32),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getOperator(request, context)) throw redirect("/operator");
  return null;
}

/** Password and second factor (a TOTP code or a recovery code); one answer for any wrong part. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const { form } = body;
  try {
    const parsed = loginSchema.safeParse({
      email: form.get("email") ?? undefined,
      password: form.get("password") ?? undefined,
      code: form.get("code") ?? undefined,
    });
    if (!parsed.success) throw zodToDomainError(parsed.error);
    const outcome = await operatorLogin(context.directory, { ...parsed.data, clientAddress: clientAddress(request), secret: context.config.SESSION_SECRET });
    if (outcome.kind === "invalid") throw new DomainError("unauthorized", "Wrong e-mail address, password or code");
    return redirect("/operator", { headers: { "Set-Cookie": operatorCookie(request, outcome.token), "Cache-Control": "private, no-store" } });
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return actionRefusal(domain);
    throw error;
  }
}

function errorKey(data: ErrorBody): string {
  if (data.error.code === "rate_limited") return "login.rateLimited";
  if (data.error.code === "invalid_input") return "operator.login.invalidInput";
  return "operator.login.invalid";
}

export default function OperatorLogin() {
  const { t } = useTranslation();
  const actionData = useActionData<ErrorBody>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const message = actionData?.error ? t(errorKey(actionData), { count: Math.ceil((actionData.error.retryAfter ?? 60) / 60) }) : null;
  return (
    <section className="page page--narrow">
      <h1>{t("operator.login.title")}</h1>
      <p>{t("operator.login.intro")}</p>
      <Form method="post" className="form" replace>
        <label className="field">
          <span>{t("login.email")}</span>
          <input type="email" name="email" autoComplete="username" required maxLength={254} autoFocus />
        </label>
        <label className="field">
          <span>{t("login.password")}</span>
          <input type="password" name="password" autoComplete="current-password" required maxLength={1024} />
        </label>
        <label className="field">
          <span>{t("operator.login.code")}</span>
          <input type="text" name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} aria-describedby="operator-code-hint" />
          <small id="operator-code-hint">{t("operator.login.codeHint")}</small>
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
    </section>
  );
}
