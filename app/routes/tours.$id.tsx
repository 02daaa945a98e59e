import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { and, desc, eq } from "drizzle-orm";
import { useTranslation } from "react-i18next";
import { flattenTree } from "~/components/tours/tour-helpers";
import { TourEditor } from "~/components/tours/tour-editor";
import { media } from "~/db/schema";
import { notFound } from "~/errors";
import { listTree } from "~/models/tree.server";
import stopNumberStyles from "~/styles/stop-number.css?url";
import toursStyles from "~/styles/tours.css?url";
import { tourQuerySchema } from "~/tours/tour-input";
import { getTour, tourAddress } from "~/tours/tours.server";
import { pageMeta } from "~/utils/meta";
import { orPageError, refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "tours.edit", { noindex: true });
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: toursStyles },
  { rel: "stylesheet", href: stopNumberStyles },
];

/** Images offered as covers: the museum's most recent uploads. */
const COVER_CHOICES = 24;

/** `/tours/{id}`: a malformed, unknown or another museum's id is the not-found page. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const parsed = tourQuerySchema.safeParse({ id: params.id });
  if (!parsed.success) refusePage(notFound("Tour", "id"));
  const [tour, tree, images] = await Promise.all([
    orPageError(getTour(context.db, user.museumId, parsed.data.id)),
    listTree(context.db, user.museumId),
    context.db
      .select({ key: media.r2Key })
      .from(media)
      .where(and(eq(media.museumId, user.museumId), eq(media.kind, "image")))
      .orderBy(desc(media.id))
      .limit(COVER_CHOICES)
      .all(),
  ]);
  return {
    tour,
    address: tourAddress(context.config.PUBLIC_BASE_URL, request, tour.link),
    articles: flattenTree(tree),
    images: images.map((row) => `/media/${row.key}`),
  };
}

export default function TourPage() {
  const { tour, address, articles, images } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="page tour-page">
      <Link to="/tours" className="button button--ghost">
        <span aria-hidden="true">←</span> {t("tours.edit.back")}
      </Link>
      <h1>{t("tours.edit.title", { name: tour.name })}</h1>
      <TourEditor key={tour.id} tour={tour} articles={articles} images={images} address={address} />
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="tour" />;
}
