import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { asDomainError, type ErrorBody } from "~/errors";
import { completeSetup, setupInfo } from "~/operator/accounts.server";
import { operatorCookie } from "~/operator/session.server";
import { totpUri } from "~/operator/totp";
import { qrSvg } from "~/qrcode/render";
import { methodNotAllowed, readFormBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import operatorStyles from "~/styles/operator.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];
import { actionRefusal } from "~/utils/page.server";
import { zodToDomainError } from "~/utils/zod-error";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.setup", { noindex: true });

// The page shows a secret: never stored by a cache, never sent to another site as a referrer.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

const PASSWORD_MIN = 10;
const setupSchema = z.object({
  password: z.string().min(PASSWORD_MIN, "too_short").max(200, "too_long"),
  code: z.string().trim().min(1).max(32),
});

const validToken = (token: string | undefined) => (token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null);

export async function loader({ params, context }: LoaderFunctionArgs) {
  const token = validToken(params.token);
  const info = token ? await setupInfo(context.directory, token) : null;
  // A link that is not (or no longer) valid shows a page saying so, with 200: a loader's error status would also
  // become the status of the answer to the form that has just spent the link, whose body is the recovery codes.
  if (!info) return { valid: false as const };
  const uri = totpUri(info.secret, info.email);
  return { valid: true as const, email: info.email, secret: info.secret.replace(/(.{4})/g, "$1 ").trim(), qr: qrSvg(uri) };
}

/** The code proves the authenticator holds the secret; the recovery codes come back once, in this answer only. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const token = validToken(params.token);
  try {
    const parsed = setupSchema.safeParse({ password: body.form.get("password") ?? undefined, code: body.form.get("code") ?? undefined });
    if (!parsed.success) throw zodToDomainError(parsed.error);
    if (!token) return data({ error: { code: "not_found", message: "This link was already used or is not valid", reason: "link_invalid" } }, { status: 404 });
    const done = await completeSetup(context.directory, token, parsed.data);
    return data({ recoveryCodes: done.recoveryCodes }, { headers: { "Set-Cookie": operatorCookie(request, done.sessionToken) } });
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return actionRefusal(domain);
    throw error;
  }
}

export default function OperatorSetup() {
  const { t } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const result = useActionData<ErrorBody | { recoveryCodes: string[] }>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";

  if (result && "recoveryCodes" in result) {
    return (
      <section className="page page--narrow operator-setup">
        <h1 tabIndex={-1} ref={(h) => h?.focus()}>
          {t("operator.setup.doneTitle")}
        </h1>
        <p>{t("operator.setup.recoveryIntro")}</p>
        <ol className="operator-setup__codes">
          {result.recoveryCodes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
        <p>
          <Link to="/operator" className="button">
            {t("operator.setup.toConsole")}
          </Link>
        </p>
      </section>
    );
  }
  if (!page.valid) {
    return (
      <section className="page page--narrow">
        <h1>{t("operator.setup.invalidTitle")}</h1>
        <p>{t("operator.setup.invalid")}</p>
      </section>
    );
  }
  const error = result && "error" in result ? result.error : undefined;
  const field = error?.field;
  const message = error
    ? field === "code"
      ? t("operator.setup.wrongCode")
      : field === "password"
        ? t("operator.setup.passwordRule", { min: PASSWORD_MIN })
        : error.reason === "link_invalid"
          ? t("operator.setup.invalid")
          : t("errors.codes.unknown")
    : null;
  return (
    <section className="page page--narrow operator-setup">
      <h1>{t("operator.setup.title")}</h1>
      <p>{t("operator.setup.intro", { email: page.email })}</p>
      <h2>{t("operator.setup.scanHeading")}</h2>
      <div className="operator-setup__qr" role="img" aria-label={t("operator.setup.qrLabel")} dangerouslySetInnerHTML={{ __html: page.qr }} />
      <p>
        {t("operator.setup.secretLabel")} <code className="operator-setup__secret">{page.secret}</code>
      </p>
      <h2>{t("operator.setup.formHeading")}</h2>
      <Form method="post" className="form" replace>
        <input type="text" name="username" autoComplete="username" value={page.email} readOnly hidden />
        <label className="field">
          <span>{t("operator.setup.password")}</span>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            maxLength={200}
            aria-describedby="operator-password-rule"
            aria-invalid={field === "password"}
          />
          <small id="operator-password-rule">{t("operator.setup.passwordRule", { min: PASSWORD_MIN })}</small>
        </label>
        <label className="field">
          <span>{t("operator.setup.code")}</span>
          <input type="text" name="code" autoComplete="one-time-code" inputMode="numeric" required maxLength={32} aria-invalid={field === "code"} />
        </label>
        {message ? (
          <p className="form__error" role="alert">
            {message}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={submitting}>
          {t("operator.setup.submit")}
        </button>
      </Form>
    </section>
  );
}
