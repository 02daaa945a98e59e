import type { MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { BookDemoButton } from "~/components/book-demo";
import { siteConfig } from "~/site-config";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "contact");

export default function Contact() {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow">
      <h1>{t("contact.title")}</h1>
      <p>{t("contact.intro")}</p>
      <div className="hero__actions">
        <BookDemoButton />
        <a className="button button--ghost" href={`mailto:${siteConfig.contactEmail}`}>
          {t("contact.writeUs")} · {siteConfig.contactEmail}
        </a>
      </div>
    </section>
  );
}
