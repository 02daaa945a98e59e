import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BookDemoButton } from "~/components/book-demo";
import { useFlagBurst } from "~/hooks/use-flag-burst";
import type { loader as rootLoader } from "~/root";
import { siteConfig } from "~/site-config";
import siteStyles from "~/styles/site.css?url";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "contact");

export default function Contact() {
  const { t } = useTranslation();
  const loggedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  const { founder } = siteConfig;
  useFlagBurst();
  return (
    <section className="page contact">
      <div>
        <h1>{t("contact.title")}</h1>
        <p>{t("contact.intro")}</p>
        <div className="hero__actions hero__actions--start">
          {loggedIn ? null : <BookDemoButton />}
          <a className="button button--ghost contact__mail" href={`mailto:${siteConfig.contactEmail}`}>
            {t("contact.writeUs")} · {siteConfig.contactEmail}
          </a>
        </div>
      </div>
      <section className="founder" aria-labelledby="founder-title">
        <img src={founder.picture} alt={t("contact.founderAlt")} width={160} height={160} loading="lazy" />
        <div>
          <h2 id="founder-title">{founder.name || t("contact.founderTitle")}</h2>
          <p>{t("contact.founderBio")}</p>
          <a href={`mailto:${founder.email}`}>{t("contact.founderMail")}</a>
        </div>
      </section>
    </section>
  );
}
