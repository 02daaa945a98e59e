import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { chunk, parsePrintIds, qrImageUrl, shortAddress } from "~/components/qrcodes/qrcode-helpers";
import { listQrCodes, publicAddress } from "~/models/qrcodes.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "qrcodes.print", { noindex: true });

// 3 columns × 4 rows of 5 cm codes fill an A4 page inside its margins (see the print section of app.css).
const PER_PAGE = 12;

/** `/qrcodes/print?ids=1,2,3`: the museum's own codes among those ids (unknown ones ignored); none → all. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const ids = parsePrintIds(new URL(request.url).searchParams);
  const codes = await listQrCodes(context.db, user.museumId);
  const chosen = ids.length ? codes.filter((code) => ids.includes(code.id)) : codes;
  return {
    codes: chosen.map((code) => ({
      ...code,
      address: shortAddress(publicAddress(context.config.PUBLIC_BASE_URL, request, code.link)),
    })),
  };
}

export default function PrintSheet() {
  const { codes } = useLoaderData<typeof loader>();
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
            <li key={code.id} className="print-cell">
              <img src={qrImageUrl(code.id, "svg")} width={189} height={189} alt={t("qrcodes.print.imageAlt", { link: code.link })} />
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
