import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { chunk, parsePrintIds, qrImageUrl, shortAddress, tourQrImageUrl } from "~/components/qrcodes/qrcode-helpers";
import { listQrCodes, publicAddress } from "~/models/qrcodes.server";
import toursStyles from "~/styles/tours.css?url";
import { numberedArticles } from "~/tours/stop-numbers.server";
import { listTours, tourAddress } from "~/tours/tours.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "qrcodes.print", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: toursStyles }];

// 3 columns × 4 rows of 5 cm codes fill an A4 page inside its margins (see the print section of app.css).
const PER_PAGE = 12;

/**
 * `/qrcodes/print?ids=1,2,3&tours=4,5`: the museum's own codes and tours among those ids (unknown ones
 * ignored); neither parameter → every code and every tour. Each article's code shows its stop number
 * (issue 21); a tour's code prints with the tour's name.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const params = new URL(request.url).searchParams;
  const ids = parsePrintIds(params);
  const tourIds = parsePrintIds(new URLSearchParams(params.getAll("tours").map((v) => ["ids", v])));
  const everything = !params.has("ids") && !params.has("tours");
  const [codes, numbered, tours] = await Promise.all([listQrCodes(context.db, user.museumId), numberedArticles(context.db, user.museumId), listTours(context.db, user.museumId)]);
  const numberOf = new Map(numbered.map((a) => [a.id, a.stopNumber]));
  const chosen = everything ? codes : codes.filter((code) => ids.includes(code.id));
  const chosenTours = everything ? tours : tours.filter((tour) => tourIds.includes(tour.id));
  return {
    cells: [
      ...chosen.map((code) => ({
        kind: "code" as const,
        id: code.id,
        link: code.link,
        name: code.name,
        stopNumber: code.id_article === null ? null : (numberOf.get(code.id_article) ?? null),
        image: qrImageUrl(code.id, "svg"),
        address: shortAddress(publicAddress(context.config.PUBLIC_BASE_URL, request, code.link)),
      })),
      ...chosenTours.map((tour) => ({
        kind: "tour" as const,
        id: tour.id,
        link: tour.link,
        name: tour.name as string | null,
        stopNumber: null,
        image: tourQrImageUrl(tour.id, "svg"),
        address: shortAddress(tourAddress(context.config.PUBLIC_BASE_URL, request, tour.link)),
      })),
    ],
  };
}

export default function PrintSheet() {
  const { cells: codes } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="page print-sheet">
      <header className="articles__header print-sheet__bar">
        <h1>{t("qrcodes.print.title")}</h1>
        <div className="print-sheet__actions">
          <Link to="/qrcodes" className="button button--ghost">
            <span aria-hidden="true">←</span> {t("qrcodes.print.back")}
          </Link>
          {codes.length ? (
            <button type="button" className="button" onClick={() => window.print()}>
              {t("qrcodes.print.print")}
            </button>
          ) : null}
        </div>
      </header>
      {codes.length ? (
        <p className="muted print-sheet__hint">{t("qrcodes.print.hint", { count: codes.length })}</p>
      ) : (
        <p>{t("qrcodes.print.empty")}</p>
      )}
      {chunk(codes, PER_PAGE).map((page, index) => (
        <ul key={index} className="print-page" aria-label={t("qrcodes.print.page", { number: index + 1 })}>
          {page.map((code) => (
            <li key={`${code.kind}-${code.id}`} className={`print-cell print-cell--${code.kind}`}>
              <img src={code.image} width={189} height={189} alt={code.kind === "tour" ? t("tours.print.imageAlt", { name: code.name }) : t("qrcodes.print.imageAlt", { link: code.link })} />
              {code.stopNumber !== null ? <span className="print-cell__stop">{t("tours.print.stop", { number: code.stopNumber })}</span> : null}
              {code.kind === "tour" ? <span className="print-cell__kind">{t("tours.print.tour")}</span> : null}
              <span className={`print-cell__name${code.name === null ? " print-cell__name--inactive" : ""}`}>
                {code.name ?? t("qrcodes.inactive")}
              </span>
              <span className="print-cell__address">{code.address}</span>
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}
