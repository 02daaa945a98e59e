import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BookDemoButton } from "~/components/book-demo";
import { Carousel } from "~/components/landing/carousel";
import { PhonePicture } from "~/components/landing/phone-picture";
import { TestArea } from "~/components/landing/test-area";
import { useFlagBurst } from "~/hooks/use-flag-burst";
import { getLocale } from "~/i18n/i18n.server";
import { qrSvg } from "~/qrcode/render";
import type { loader as rootLoader } from "~/root";
import { siteConfig } from "~/site-config";
import siteStyles from "~/styles/site.css?url";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "landing");

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
  const qr = qrSvg(`${origin}/r/${siteConfig.demoVisitorLink}`);
  return { locale: await getLocale(request), qrDataUri: `data:image/svg+xml;base64,${btoa(qr)}` };
}

const QUALITIES = ["easy", "fast", "complete"] as const;
const MORE = ["media", "legend", "update"] as const;

export default function Landing() {
  const { t } = useTranslation();
  const { locale, qrDataUri } = useLoaderData<typeof loader>();
  const loggedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  useFlagBurst();
  return (
    <div className="landing">
      <section className="landing-hero" aria-labelledby="hero-title">
        <div className="landing-hero__text">
          <p className="landing-hero__eyebrow">{t("landing.eyebrow")}</p>
          <h1 id="hero-title">{t("landing.title")}</h1>
          <p className="landing-hero__subtitle">{t("landing.subtitle")}</p>
          <div className="hero__actions">
            <Link to="/contact" className="button">
              {t("landing.contactUs")}
            </Link>
            {loggedIn ? (
              <Link to="/dashboard" className="button button--ghost">
                {t("landing.dashboard")}
              </Link>
            ) : (
              <BookDemoButton />
            )}
          </div>
          <ul className="hero__claims">
            <li>{t("landing.claims.languages")}</li>
            <li>{t("landing.claims.qrcodes")}</li>
            <li>{t("landing.claims.preparation")}</li>
          </ul>
        </div>
        <PhonePicture base="article" alt={t("landing.phoneAlt")} eager />
      </section>

      <section className="landing-section" aria-labelledby="how-title">
        <h2 id="how-title">{t("landing.howTitle")}</h2>
        <p>{t("landing.howText")}</p>
        <img className="landing-figure" src={`/site/how-${locale}.svg`} alt={t("landing.howAlt")} width={1200} height={420} loading="lazy" />
      </section>

      <section className="landing-section" aria-labelledby="more-title">
        <h2 id="more-title">{t("landing.moreTitle")}</h2>
        <p>{t("landing.moreText")}</p>
        <ul className="landing-list">
          {MORE.map((key) => (
            <li key={key}>{t(`landing.moreItems.${key}`)}</li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="qualities-title">
        <h2 id="qualities-title">{t("landing.qualitiesTitle")}</h2>
        <ul className="qualities">
          {QUALITIES.map((key) => (
            <li key={key} className="quality">
              <h3>{t(`landing.qualities.${key}Title`)}</h3>
              <p>{t(`landing.qualities.${key}Text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="test-title">
        <h2 id="test-title">{t("landing.testTitle")}</h2>
        <p>{t("landing.testText")}</p>
        <TestArea locale={locale} qrDataUri={qrDataUri} />
      </section>

      <section className="landing-section" aria-labelledby="schema-title">
        <h2 id="schema-title">{t("landing.schemaTitle")}</h2>
        <p>{t("landing.schemaText")}</p>
        <img className="landing-figure" src={`/site/schema-${locale}.svg`} alt={t("landing.schemaAlt")} width={1200} height={520} loading="lazy" />
      </section>

      <section className="landing-section" aria-labelledby="case-title">
        <h2 id="case-title">{t("landing.caseTitle")}</h2>
        <p>{t("landing.caseText", { count: siteConfig.partnerMuseum.panels })}</p>
        <p>{t("landing.caseDates")}</p>
        <p className="muted">{t("landing.caseIllustrations")}</p>
        <Carousel />
        <p>
          <a href={siteConfig.partnerMuseum.articleUrl} target="_blank" rel="noreferrer">
            {t("landing.caseLink")}
          </a>
        </p>
      </section>

      <section className="landing-cta" aria-labelledby="cta-title">
        <h2 id="cta-title">{t("landing.ctaTitle")}</h2>
        <p>{t("landing.ctaText")}</p>
        <div className="hero__actions">
          <Link to="/contact" className="button">
            {t("landing.contactUs")}
          </Link>
          {loggedIn ? null : <BookDemoButton />}
        </div>
      </section>
    </div>
  );
}
