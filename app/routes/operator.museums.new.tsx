import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { asDomainError, type ErrorReason } from "~/errors";
import { listTimeZones } from "~/models/museums.server";
import { createMuseumAsOperator, newMuseumSchema } from "~/operator/museums.server";
import { euShardsFrom } from "~/shards/console-move.server";
import { requireOperator } from "~/operator/session.server";
import operatorStyles from "~/styles/operator.css?url";
import { languageOptionLabel, languagesByLabel } from "~/translation/languages";
import { fieldErrors } from "~/utils/form";
import { methodNotAllowed, readFormBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.create", { noindex: true });
// The answer holds an invitation link: never cached.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  const eu = euShardsFrom(context.cloudflare.env as unknown as Record<string, unknown>);
  return { timeZones: listTimeZones(), shards: [...context.shards.shards.byIndex.keys()].map((k) => ({ shard: k, eu: eu.has(k) })) };
}

type Result = { ok: true; slug: string; shard: number; invitationUrl: string; expiresAt: number } | { ok: false; errors: Record<string, ErrorReason> };

/** Creates the museum and its first admin's invitation; a refusal names its field (400, or 409 for a taken slug or address). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const operator = await requireOperator(request, context);
  const body = await readFormBody(request);
  // Not the form (JSON, too large…): its status, said on the page like any refusal, never a 500.
  if (!body.ok) return data<Result>({ ok: false, errors: { _form: "invalid" } }, { status: body.response.status });
  const form = body.form;
  const parsed = newMuseumSchema.safeParse({
    name: form.get("name") ?? "",
    slug: form.get("slug") ?? "",
    sourceLang: form.get("sourceLang") ?? "",
    timezone: form.get("timezone") ?? "",
    shard: form.get("shard") ?? "auto",
    eu: form.get("eu") === "on",
    adminEmail: form.get("adminEmail") ?? "",
  });
  if (!parsed.success) return data<Result>({ ok: false, errors: fieldErrors(parsed.error) }, { status: 400 });
  try {
    const made = await createMuseumAsOperator(
      {
        directory: context.directory,
        shards: context.shards.shards.byIndex,
        euShards: euShardsFrom(context.cloudflare.env as unknown as Record<string, unknown>),
      },
      operator,
      parsed.data,
      new URL(request.url).origin,
    );
    return data<Result>({ ok: true, slug: parsed.data.slug, shard: made.shard, invitationUrl: made.invitationUrl, expiresAt: made.expiresAt });
  } catch (error) {
    const domain = asDomainError(error);
    if (!domain) throw error;
    return data<Result>({ ok: false, errors: { [domain.field ?? "_form"]: domain.reason ?? "invalid" } }, { status: domain.status });
  }
}

const FIELDS = ["name", "slug", "sourceLang", "timezone", "shard", "eu", "adminEmail"] as const;

export default function NewMuseum() {
  const { t, i18n } = useTranslation();
  const { timeZones, shards } = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const navigation = useNavigation();
  const uiLocale = i18n.language === "en" ? "en" : "fr";
  if (result?.ok) {
    return (
      <section className="page page--narrow">
        <h1 tabIndex={-1} ref={(h) => h?.focus()}>
          {t("operator.create.doneTitle", { slug: result.slug })}
        </h1>
        <p>{t("operator.create.doneIntro", { shard: result.shard })}</p>
        <p>
          <code className="operator-setup__secret">{result.invitationUrl}</code>
        </p>
        <p className="muted">{t("operator.create.linkOnce")}</p>
        <p>
          <Link to="/operator" className="button">
            {t("operator.create.back")}
          </Link>
        </p>
      </section>
    );
  }
  const errors = result && !result.ok ? result.errors : {};
  const error = (field: string) =>
    errors[field] ? (
      <p className="form__error" role="alert" id={`new-${field}-error`}>
        {t([`operator.create.errors.${field}.${errors[field]}`, `operator.create.errors.${field}.invalid`, `errors.reasons.${errors[field]}`])}
      </p>
    ) : null;
  const described = (field: string) => (errors[field] ? `new-${field}-error` : undefined);
  return (
    <section className="page page--narrow">
      <h1>{t("operator.create.title")}</h1>
      <p>
        <Link to="/operator">{t("operator.create.back")}</Link>
      </p>
      <Form method="post" className="form" noValidate>
        <label className="field">
          <span>{t("operator.create.name")}</span>
          <input name="name" required maxLength={120} aria-invalid={Boolean(errors.name)} aria-describedby={described("name")} dir="auto" />
        </label>
        {error("name")}
        <label className="field">
          <span>{t("operator.create.slug")}</span>
          <input
            name="slug"
            required
            maxLength={60}
            pattern="[a-z0-9-]+"
            aria-invalid={Boolean(errors.slug)}
            aria-describedby={described("slug") ?? "new-slug-help"}
          />
          <small id="new-slug-help">{t("operator.create.slugHelp")}</small>
        </label>
        {error("slug")}
        <label className="field">
          <span>{t("settings.sourceLang")}</span>
          <select name="sourceLang" defaultValue="fr">
            {languagesByLabel(uiLocale).map((lang) => (
              <option key={lang.code} value={lang.code}>
                {languageOptionLabel(lang.code, uiLocale)}
              </option>
            ))}
          </select>
        </label>
        {error("sourceLang")}
        <label className="field">
          <span>{t("settings.timezone")}</span>
          <select name="timezone" defaultValue="Europe/Paris">
            {timeZones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        {error("timezone")}
        <label className="field">
          <span>{t("operator.create.shard")}</span>
          <select name="shard" defaultValue="auto">
            <option value="auto">{t("operator.create.mostRoom")}</option>
            {shards.map(({ shard, eu }) => (
              <option key={shard} value={shard}>
                {t("operator.create.shardNumber", { shard })}
                {eu ? ` (${t("operator.console.eu")})` : ""}
              </option>
            ))}
          </select>
        </label>
        {error("shard")}
        <label className="operator-choice">
          <input type="checkbox" name="eu" aria-invalid={Boolean(errors.eu)} aria-describedby={described("eu")} />
          <span>{t("operator.create.eu")}</span>
        </label>
        {error("eu")}
        <label className="field">
          <span>{t("operator.create.adminEmail")}</span>
          <input type="email" name="adminEmail" required maxLength={254} aria-invalid={Boolean(errors.adminEmail)} aria-describedby={described("adminEmail")} />
        </label>
        {error("adminEmail")}
        {FIELDS.some((f) => errors[f]) || !errors._form ? null : error("_form")}
        <button type="submit" className="button" disabled={navigation.state !== "idle"}>
          {t("operator.create.submit")}
        </button>
      </Form>
    </section>
  );
}
