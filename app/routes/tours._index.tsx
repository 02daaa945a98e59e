import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { flattenFolders } from "~/components/tours/tour-helpers";
import { listTree } from "~/models/tree.server";
import toursStyles from "~/styles/tours.css?url";
import { listTours } from "~/tours/tours.server";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "tours", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: toursStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const [tours, tree] = await Promise.all([listTours(context.db, user.museumId), listTree(context.db, user.museumId)]);
  return { tours, folders: flattenFolders(tree) };
}

const folderValue = (f: { name: string; pathArray: string[] }) => JSON.stringify([...f.pathArray, f.name]);

export default function Tours() {
  const { tours, folders } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [name, setName] = useState("");
  const [folder, setFolder] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const [confirm, setConfirm] = useState<{ id: number; name: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const path = folder ? (JSON.parse(folder) as string[]) : null;
    const tourName = name.trim() || (path ? path[path.length - 1]! : "");
    if (!tourName) {
      setMessage(t("tours.list.nameNeeded"));
      document.getElementById("tour-new-name")?.focus();
      return;
    }
    setBusy(true);
    setMessage(t("tours.list.creating"));
    const body = path ? { name: tourName, folderId: path[path.length - 1], pathArray: path.slice(0, -1) } : { name: tourName };
    const result = await callApi<{ id: number }>("/api/manage/add_tour", body);
    setBusy(false);
    if (result.ok) navigate(`/tours/${result.data.id}`);
    else setMessage(apiErrorMessage(t, result));
  }

  async function remove() {
    if (!confirm) return;
    const target = confirm;
    setConfirm(null);
    const result = await callApi("/api/manage/delete_tour", { id: target.id });
    setMessage(result.ok ? t("tours.list.deleted", { name: target.name }) : apiErrorMessage(t, result));
    revalidator.revalidate();
    heading.current?.focus();
  }

  return (
    <section className="page tours">
      <header className="articles__header">
        <h1>{t("tours.list.title")}</h1>
        <Link to="/dashboard" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("tours.list.backToDashboard")}
        </Link>
      </header>
      <p className="muted">{t("tours.list.intro")}</p>

      <form className="tour-create" onSubmit={(e) => void create(e)} aria-labelledby="tour-create-heading" noValidate>
        <h2 id="tour-create-heading">{t("tours.list.createHeading")}</h2>
        <div className="tour-create__fields">
          <div className="field">
            <label htmlFor="tour-new-name">{t("tours.list.name")}</label>
            <input id="tour-new-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} aria-describedby="tour-new-name-help" />
            <small id="tour-new-name-help">{t("tours.list.nameHelp")}</small>
          </div>
          <div className="field">
            <label htmlFor="tour-new-folder">{t("tours.list.fromFolder")}</label>
            <select id="tour-new-folder" value={folder} onChange={(e) => setFolder(e.target.value)}>
              <option value="">{t("tours.list.noFolder")}</option>
              {folders.map((f) => (
                <option key={folderValue(f)} value={folderValue(f)}>
                  {[...f.pathArray, f.name].join(" / ")}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="button" aria-disabled={busy}>
          <span aria-hidden="true">+</span> {folder ? t("tours.list.createFromFolder") : t("tours.list.create")}
        </button>
      </form>
      <p role="status" className="tours__message">
        {message}
      </p>

      <h2 ref={heading} tabIndex={-1} id="tours-list-heading">
        {t("tours.list.listHeading", { count: tours.length })}
      </h2>
      {tours.length === 0 ? (
        <p className="muted">{t("tours.list.empty")}</p>
      ) : (
        <ul className="tree tours__list" aria-labelledby="tours-list-heading">
          {tours.map((tour) => (
            <li key={tour.id} className="tree-row tour-row">
              <Link to={`/tours/${tour.id}`} className="tree-row__link tour-row__link">
                {tour.name}
              </Link>
              <span className="muted tour-row__meta">
                {t("tours.list.stops", { count: tour.stops })}
                {tour.minutes ? ` · ${t("tours.list.minutes", { count: tour.minutes })}` : ""}
              </span>
              <button
                type="button"
                id={`tour-delete-${tour.id}`}
                className="button button--small button--ghost"
                onClick={() => setConfirm({ id: tour.id, name: tour.name })}
              >
                {t("tours.list.delete")}
                <span className="visually-hidden"> — {tour.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirm ? (
        <ConfirmDialog
          title={t("tours.list.confirmTitle", { name: confirm.name })}
          confirmLabel={t("tours.list.confirmDelete")}
          onConfirm={() => void remove()}
          onCancel={() => {
            const id = confirm.id;
            setConfirm(null);
            requestAnimationFrame(() => document.getElementById(`tour-delete-${id}`)?.focus());
          }}
        >
          <p>{t("tours.list.confirmText")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
