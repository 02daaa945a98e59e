import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="page page--centered not-found">
      <h1>{t("notFound.title")}</h1>
      <Link to="/" className="button">
        {t("notFound.backHome")}
      </Link>
    </section>
  );
}
