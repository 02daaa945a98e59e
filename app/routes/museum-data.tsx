import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { museumContentCounts } from "~/archive/restore.server";
import { ImportForm } from "~/components/archive/import-form";
import archiveStyles from "~/styles/archive.css?url";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "archive", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: archiveStyles }];

/** `/museum-data` (admins): export the whole museum as one archive, or import one into an empty museum (decisions 062-064). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "museum.manage");
  const counts = await museumContentCounts(context.db.$client, user.museumId);
  return { museumName: user.museumName, counts, empty: counts.articles + counts.folders + counts.qrcodes + counts.tours === 0 };
}

export default function MuseumData() {
  const { museumName, counts, empty } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  // After an import the museum is no longer empty: the counts update, and the report stays where the form was.
  const [imported, setImported] = useState(false);
  const onImported = () => {
    setImported(true);
    revalidator.revalidate();
  };
  return (
    <section className="page archive">
      <p>
        <Link to="/dashboard">{t("archive.backToDashboard")}</Link>
      </p>
      <h1>{t("archive.title")}</h1>
      <p className="muted">{museumName}</p>

      <section className="archive__card" aria-labelledby="archive-export">
        <h2 id="archive-export">{t("archive.exportHeading")}</h2>
        <p>{t("archive.exportIntro")}</p>
        <ul className="archive__list">
          <li>{t("archive.exportHolds.content")}</li>
          <li>{t("archive.exportHolds.translations")}</li>
          <li>{t("archive.exportHolds.codes")}</li>
          <li>{t("archive.exportHolds.media")}</li>
          <li>{t("archive.exportHolds.easyReadNarrations")}</li>
          <li>{t("archive.exportHolds.stats")}</li>
        </ul>
        <p className="muted">{t("archive.exportLeaves")}</p>
        <p className="muted">{t("archive.exportCounts", { articles: counts.articles, media: counts.media })}</p>
        <a className="button" href="/api/read/export" download>
          {t("archive.exportButton")}
        </a>
      </section>

      <section className="archive__card" aria-labelledby="archive-import">
        <h2 id="archive-import">{t("archive.importHeading")}</h2>
        <p>{t("archive.importIntro")}</p>
        {empty || imported ? (
          <ImportForm onImported={onImported} />
        ) : (
          <p className="archive__notice">
            {t("archive.notEmpty", { articles: counts.articles, folders: counts.folders, qrcodes: counts.qrcodes, tours: counts.tours })}
          </p>
        )}
      </section>
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
