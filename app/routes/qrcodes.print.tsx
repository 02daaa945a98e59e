import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { chunk, parsePrintIds, qrImageUrl, shortAddress, tourQrImageUrl } from "~/components/qrcodes/qrcode-helpers";
import { articleIdSchema } from "~/models/tree-input";
import { createCodeForArticle, printSheetCells } from "~/models/print-sheet.server";
import { publicAddress } from "~/models/qrcodes.server";
import { DEFAULT_QR_LOOK, isQrLook, type QrLook } from "~/qrcode/looks";
import toursStyles from "~/styles/tours.css?url";
import { tourAddress } from "~/tours/tours.server";
import { formString } from "~/utils/form";
import { formRefusal } from "~/utils/form-action.server";
import { intentAction, type IntentArgs } from "~/utils/intent-action.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "qrcodes.print", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: toursStyles }];

// 3 columns × 4 rows of 5 cm codes fill an A4 page inside its margins (see the print section of app.css).
const PER_PAGE = 12;

/**
 * `/qrcodes/print?ids=1,2,3&tours=4,5`, `?tour=4` (a tour's sheet: its code, then its stops in order) or
 * nothing (everything): what each holds is app/models/print-sheet.server.ts (decision 116). Unknown or
 * another museum's ids are ignored. `&look=light-on-dark` prints the spec's white on black; the default is
 * black on white, which every reader decodes (decision 115). Each article's code shows its stop number.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const params = new URL(request.url).searchParams;
  const ids = parsePrintIds(params);
  const tourIds = parsePrintIds(new URLSearchParams(params.getAll("tours").map((v) => ["ids", v])));
  const tour = parsePrintIds(new URLSearchParams(params.getAll("tour").map((v) => ["ids", v])))[0] ?? null;
  const requestedLook = params.get("look");
  const look: QrLook = isQrLook(requestedLook) ? requestedLook : DEFAULT_QR_LOOK;
  const everything = !params.has("ids") && !params.has("tours") && !params.has("tour");
  const sheet = await printSheetCells(context.db, user.museumId, everything ? "everything" : { ids, tours: tourIds, tour });
  const base = context.config.PUBLIC_BASE_URL;
  return {
    look,
    cells: sheet.map((cell) => {
      switch (cell.kind) {
        case "code":
          return {
            kind: "code" as const,
            key: `code-${cell.code.id}`,
            link: cell.code.link,
            name: cell.code.name,
            stopNumber: cell.stopNumber,
            image: qrImageUrl(cell.code.id, "svg", look),
            address: shortAddress(publicAddress(base, request, cell.code.link)),
          };
        case "tour":
          return {
            kind: "tour" as const,
            key: `tour-${cell.tour.id}`,
            link: cell.tour.link,
            name: cell.tour.name as string | null,
            stopNumber: null,
            image: tourQrImageUrl(cell.tour.id, "svg", look),
            address: shortAddress(tourAddress(base, request, cell.tour.link)),
          };
        case "missing":
          return {
            kind: "missing" as const,
            key: `missing-${cell.articleId}`,
            articleId: cell.articleId,
            name: cell.name as string | null,
            stopNumber: cell.stopNumber,
          };
      }
    }),
  };
}

/**
 * `intent=create-code&articleId=`: a code for a stop's article that has none (a second one is never made). An
 * article gone to the trash (or never this museum's) is a 404 naming articleId; the sheet reloads.
 */
async function createCodeAction({ user, form, context }: IntentArgs) {
  const parsed = articleIdSchema.safeParse(formString(form, "articleId"));
  if (!parsed.success) return formRefusal("create-code", { articleId: "invalid" });
  return { intent: "create-code", ok: true as const, ...(await createCodeForArticle(context.db, context.directory, user, parsed.data)) };
}

export const action = intentAction("content.edit", { "create-code": createCodeAction });

export default function PrintSheet() {
  const { cells, look } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const missing = cells.filter((cell) => cell.kind === "missing").length;
  const withLook = (next: QrLook) => {
    const params = new URLSearchParams(location.search);
    if (next === DEFAULT_QR_LOOK) params.delete("look");
    else params.set("look", next);
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  return (
    <section className="page print-sheet">
      <header className="articles__header print-sheet__bar">
        <h1>{t("qrcodes.print.title")}</h1>
        <div className="print-sheet__actions">
          <Link to="/qrcodes" className="button button--ghost">
            <span aria-hidden="true">←</span> {t("qrcodes.print.back")}
          </Link>
          {cells.length ? (
            <button type="button" className="button" onClick={() => window.print()}>
              {t("qrcodes.print.print")}
            </button>
          ) : null}
        </div>
      </header>
      {cells.length ? (
        <>
          <p className="muted print-sheet__hint">{t("qrcodes.print.hint", { count: cells.length })}</p>
          <nav className="print-sheet__looks" aria-label={t("qrcodes.look.label")}>
            {(["dark-on-light", "light-on-dark"] as const).map((option) => (
              <Link
                key={option}
                to={withLook(option)}
                replace
                preventScrollReset
                className={`button button--small${option === look ? "" : " button--ghost"}`}
                aria-current={option === look ? "true" : undefined}
              >
                {t(`qrcodes.look.${option}`)}
              </Link>
            ))}
          </nav>
          {look === "light-on-dark" ? <p className="print-sheet__warning">{t("qrcodes.look.warning")}</p> : null}
          {missing ? <p className="print-sheet__warning">{t("qrcodes.print.missingHint", { count: missing })}</p> : null}
        </>
      ) : (
        <p>{t("qrcodes.print.empty")}</p>
      )}
      {chunk(cells, PER_PAGE).map((page, index) => (
        <ul key={index} className="print-page" aria-label={t("qrcodes.print.page", { number: index + 1 })}>
          {page.map((cell) => (
            <li key={cell.key} className={`print-cell print-cell--${cell.kind}`}>
              {cell.kind === "missing" ? (
                <div className="print-cell__none">
                  <span>{t("qrcodes.print.noCode")}</span>
                  <Form method="post" replace preventScrollReset>
                    <input type="hidden" name="intent" value="create-code" />
                    <input type="hidden" name="articleId" value={cell.articleId} />
                    <button type="submit" className="button button--small" disabled={navigation.state !== "idle"}>
                      {t("qrcodes.print.createCode")}
                      <span className="visually-hidden"> {cell.name}</span>
                    </button>
                  </Form>
                </div>
              ) : (
                <img
                  src={cell.image}
                  width={189}
                  height={189}
                  alt={cell.kind === "tour" ? t("tours.print.imageAlt", { name: cell.name }) : t("qrcodes.print.imageAlt", { link: cell.link })}
                />
              )}
              {cell.stopNumber !== null ? <span className="print-cell__stop">{t("tours.print.stop", { number: cell.stopNumber })}</span> : null}
              {cell.kind === "tour" ? <span className="print-cell__kind">{t("tours.print.tour")}</span> : null}
              <span className={`print-cell__name${cell.name === null ? " print-cell__name--inactive" : ""}`}>{cell.name ?? t("qrcodes.inactive")}</span>
              {cell.kind === "missing" ? null : <span className="print-cell__address">{cell.address}</span>}
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
