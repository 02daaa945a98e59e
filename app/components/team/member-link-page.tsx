import type { MetaDescriptor } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "~/components/field-error";
import type { ErrorReason } from "~/errors";
import { fixedT } from "~/i18n/config";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/models/password-input";
type LinkKind = "invitation" | "password_reset";
import { languageLabel } from "~/translation/languages";
import type { LinkActionResult, LinkPageData } from "~/utils/member-link-page.server";
import { linkExpiryFormat } from "./link-expiry";
import { localeFromMatches } from "~/utils/meta";

/** The pages' titles (never indexed: each address is a secret). */
export function memberLinkMeta(matches: readonly { id: string; data?: unknown }[], page: "invite" | "reset"): MetaDescriptor[] {
  const t = fixedT(localeFromMatches(matches));
  return [
    { title: t(`team.link_page.${page}MetaTitle`) },
    {
      name: "description",
      content: t(`team.link_page.${page}MetaDescription`),
    },
    { name: "robots", content: "noindex, nofollow" },
  ];
}

function LinkFieldError({ field, reason }: { field: string; reason?: ErrorReason }) {
  return (
    <FieldError
      scope="team.link_page"
      field={field}
      reason={reason}
      id={`link-${field}-error`}
      values={{ min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }}
    />
  );
}

/** Why a link cannot be used, in words, with the way on (decision 044: unknown and used read the same). */
function UnusableLink({ state }: { state: "invalid" | "expired" | "revoked" }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [state]);
  return (
    <section className="page page--narrow member-link">
      <h1 ref={heading} tabIndex={-1}>
        {t(`team.link_page.${state}Title`)}
      </h1>
      <p>{t(`team.link_page.${state}Text`)}</p>
      <p>
        <Link to="/login" className="button">
          {t("team.link_page.toLogin")}
        </Link>
      </p>
    </section>
  );
}

/** `/invite/{token}` and `/reset/{token}`: choose a password; the same look as /login. */
export function MemberLinkPage({ kind }: { kind: LinkKind }) {
  const page = useLoaderData<LinkPageData>();
  const result = useActionData<LinkActionResult>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result && "errors" in result ? result.errors : {};
  const formRef = useRef<HTMLFormElement>(null);

  // A refused form puts focus on the first field in error, not on <body>.
  useEffect(() => {
    if (result && "errors" in result) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [result]);

  if (result && "state" in result) return <UnusableLink state={result.state} />;
  if (page.state !== "valid") return <UnusableLink state={page.state} />;

  const invitation = kind === "invitation";
  const expires = linkExpiryFormat(i18n.language, page.timeZone)(page.expiresAt);
  const retryMinutes = result && "retryAfter" in result && result.retryAfter ? Math.ceil(result.retryAfter / 60) : 0;

  return (
    <section className="page page--narrow member-link">
      <h1>{invitation ? t("team.link_page.inviteTitle", { museum: page.museumName }) : t("team.link_page.resetTitle")}</h1>
      <p>
        {invitation
          ? t("team.link_page.inviteIntro", {
              role: t(`team.roles.${page.role}`),
              email: page.email,
            })
          : t("team.link_page.resetIntro", { email: page.email })}
      </p>
      {invitation && page.role === "translator" && page.languages.length > 0 ? (
        <p>
          {t("team.link_page.inviteLanguages", {
            list: page.languages.map((code) => languageLabel(code, locale)).join(", "),
          })}
        </p>
      ) : null}
      <p className="muted">{t("team.expires", { date: expires })}</p>
      <Form method="post" className="form" replace ref={formRef}>
        <input type="hidden" name="username" autoComplete="username" value={page.email} readOnly />
        <label className="field">
          <span>{t("team.link_page.password")}</span>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-invalid={Boolean(errors.password)}
            aria-describedby="link-password-help link-password-error"
            autoFocus
          />
          <small id="link-password-help">{t("team.link_page.passwordHelp", { min: PASSWORD_MIN_LENGTH })}</small>
        </label>
        {errors.password === "too_many_attempts" ? (
          <p id="link-password-error" className="field__error" role="alert">
            {t("team.link_page.rateLimited", { count: retryMinutes || 15 })}
          </p>
        ) : (
          <LinkFieldError field="password" reason={errors.password} />
        )}
        <label className="field">
          <span>{t("team.link_page.confirmPassword")}</span>
          <input
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            maxLength={PASSWORD_MAX_LENGTH}
            aria-invalid={Boolean(errors.confirmPassword)}
            aria-describedby="link-confirmPassword-error"
          />
        </label>
        <LinkFieldError field="confirmPassword" reason={errors.confirmPassword} />
        <LinkFieldError field="email" reason={errors.email} />
        <button type="submit" className="button" disabled={submitting}>
          {invitation ? t("team.link_page.join") : t("team.link_page.saveReset")}
        </button>
      </Form>
    </section>
  );
}
