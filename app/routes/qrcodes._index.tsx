import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { printHref } from "~/components/qrcodes/qrcode-helpers";
import { listQrCodes, type QrCodeView } from "~/models/qrcodes.server";
import { TourPrintChoices } from "~/components/tours/tour-print-choices";
import { listTours } from "~/tours/tours.server";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "qrcodes", { noindex: true });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const [codes, tours] = await Promise.all([listQrCodes(context.db, user.museumId), listTours(context.db, user.museumId)]);
  return { codes, tours: tours.map((tour) => ({ id: tour.id, name: tour.name, link: tour.link })) };
}

export default function QrCodes() {
  const { codes, tours } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set());
  // Codes that disappeared since they were ticked do not count.
  const chosen = codes.filter((code) => picked.has(code.id)).map((code) => code.id);
  const [pickedTours, setPickedTours] = useState<ReadonlySet<number>>(new Set());
  const chosenTours = tours.filter((tour) => pickedTours.has(tour.id)).map((tour) => tour.id);

  async function add() {
    if (adding) return;
    setAdding(true);
    const result = await callApi<QrCodeView>("/api/manage/add_qrcode", {});
    setAdding(false);
    if (result.ok) navigate(`/qrcode?id=${result.data.id}`);
    else toast.error(apiErrorMessage(t, result), { id: "qrcode-add" });
  }

  function toggle(id: number, on: boolean) {
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  // Without JavaScript the form sends ids=1&ids=2, which the print sheet reads too.
  function print(event: FormEvent) {
    event.preventDefault();
    // Tours ticked too (issue 21): only what is ticked prints; nothing ticked prints every code and tour.
    if (chosenTours.length === 0) navigate(printHref(chosen));
    else navigate(`/qrcodes/print?${chosen.length ? `ids=${chosen.join(",")}&` : ""}tours=${chosenTours.join(",")}`);
  }

  return (
    <section className="page qrcodes">
      <header className="articles__header">
        <h1>{t("qrcodes.title")}</h1>
        <Link to="/dashboard" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("qrcodes.backToDashboard")}
        </Link>
      </header>
      <div className="articles__actions">
        <button type="button" className="button" aria-disabled={adding} onClick={() => void add()}>
          <span aria-hidden="true">+</span> {t("qrcodes.add")}
        </button>
      </div>
      {codes.length === 0 && tours.length === 0 ? (
        <p className="qrcodes__empty">{t("qrcodes.empty")}</p>
      ) : (
        <Form method="get" action="/qrcodes/print" onSubmit={print} aria-label={t("qrcodes.printForm")}>
          <ul className="tree qrcodes__list">
            {codes.map((code) => (
              <li key={code.id} className="tree-row qrcode-row">
                <input
                  type="checkbox"
                  name="ids"
                  value={code.id}
                  className="qrcode-row__check"
                  id={`pick-${code.id}`}
                  checked={picked.has(code.id)}
                  onChange={(event) => toggle(code.id, event.target.checked)}
                />
                <label htmlFor={`pick-${code.id}`} className="visually-hidden">
                  {t("qrcodes.pick", { link: code.link })}
                </label>
                <Link to={`/qrcode?id=${code.id}`} className="tree-row__link qrcode-row__link">
                  {t("qrcodes.line", { link: code.link })}
                </Link>
                {code.name === null ? (
                  <span className="qrcode-row__article qrcode-row__article--inactive">{t("qrcodes.inactive")}</span>
                ) : (
                  <span className="qrcode-row__article">{code.name}</span>
                )}
              </li>
            ))}
          </ul>
          <TourPrintChoices
            tours={tours}
            picked={pickedTours}
            onToggle={(id, on) =>
              setPickedTours((current) => {
                const next = new Set(current);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              })
            }
          />
          <div className="articles__actions">
            <button type="submit" className="button button--ghost">
              {chosen.length + chosenTours.length ? t("qrcodes.printChosen", { count: chosen.length + chosenTours.length }) : t("qrcodes.printAll")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
