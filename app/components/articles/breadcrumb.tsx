import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { folderHref } from "./tree-helpers";

/** The folder's place as links: "Articles", then each folder down to the current one. */
export function Breadcrumb({ path }: { path: readonly string[] }) {
  const { t } = useTranslation();
  const crumbs = [{ label: t("articles.title"), href: folderHref([]) }, ...path.map((name, i) => ({ label: name, href: folderHref(path.slice(0, i + 1)) }))];
  return (
    <nav aria-label={t("articles.breadcrumb")} className="breadcrumb">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={crumb.href}>
            <Link to={crumb.href} aria-current={i === crumbs.length - 1 ? "page" : undefined}>
              {crumb.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
