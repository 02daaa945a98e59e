import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BookDemoButton } from "~/components/book-demo";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "landing");

const CLAIMS = ["landing.claims.languages", "landing.claims.qrcodes", "landing.claims.preparation"] as const;

export default function Landing() {
  const { t } = useTranslation();
  return (
    <section className="hero">
      <h1>{t("landing.title")}</h1>
      <p className="hero__subtitle">{t("landing.subtitle")}</p>
      <div className="hero__actions">
        <Link to="/contact" className="button">
          {t("landing.contactUs")}
        </Link>
        <BookDemoButton />
      </div>
      <ul className="hero__claims">
        {CLAIMS.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
    </section>
  );
}
