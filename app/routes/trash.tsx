import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { FileIcon, FolderIcon } from "~/components/icons";
import { listTrash, TRASH_RETENTION_DAYS } from "~/models/trash.server";
import { callApi, treeErrorMessage } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "trash", { noindex: true });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  return { items: await listTrash(context.db, user.museumId), now: Date.now(), days: TRASH_RETENTION_DAYS };
}

export default function Trash() {
  const { items, now, days } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const back = useRef<HTMLAnchorElement>(null);
  // After a restore the row is gone: focus the restore button now at its place, or the way back.
  const [focusAfter, setFocusAfter] = useState<{ index: number; before: typeof items } | null>(null);
  useEffect(() => {
    if (!focusAfter || focusAfter.before === items) return;
    setFocusAfter(null);
    const buttons = [...(list.current?.querySelectorAll<HTMLElement>(".trash-row button") ?? [])];
    (buttons[Math.min(focusAfter.index, buttons.length - 1)] ?? back.current)?.focus();
  }, [focusAfter, items]);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short" });

  async function restore(item: (typeof items)[number], index: number) {
    if (busy !== null) return;
    setBusy(`${item.type}:${item.id}`);
    const result = await callApi<{ pathArray: string[]; name: string }>("/api/manage/restore_item", { type: item.type, id: item.id });
    setBusy(null);
    if (result.ok) {
      const place = result.data.pathArray.length ? result.data.pathArray.join(" / ") : t("articles.root");
      // A folder whose name was taken meanwhile comes back renamed: say so.
      toast.success(result.data.name === item.name ? t("trash.restored", { place }) : t("trash.restoredRenamed", { place, name: result.data.name }));
    } else {
      toast.error(treeErrorMessage(t, result));
    }
    setFocusAfter({ index, before: items });
    revalidator.revalidate();
  }

  return (
    <section className="page">
      <header className="articles__header">
        <h1>{t("trash.title")}</h1>
        <Link ref={back} to="/articles" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("trash.backToArticles")}
        </Link>
      </header>
      <p className="muted">{t("trash.intro", { count: days })}</p>
      {items.length === 0 ? <p>{t("trash.empty")}</p> : null}
      <ul ref={list} className="tree">
        {items.map((item, index) => (
          <li key={`${item.type}:${item.id}`} className="tree-row trash-row">
            <span className="tree-row__icon" aria-hidden="true">
              {item.type === "folder" ? <FolderIcon /> : <FileIcon />}
            </span>
            <div className="trash-row__text">
              <strong>{item.name}</strong>
              <span className="muted">
                {t("trash.deletedOn", { date: date.format(item.deletedAt) })} ·{" "}
                {t("trash.daysLeft", { count: Math.max(1, Math.ceil((item.purgeAt - now) / 86_400_000)) })}
                {item.path.length ? ` · ${t("trash.from", { path: item.path.join(" / ") })}` : ""}
                {item.type === "folder" && item.itemCount > 0 ? ` · ${t("trash.items", { count: item.itemCount })}` : ""}
              </span>
            </div>
            <button type="button" className="button button--small" aria-disabled={busy !== null} onClick={() => void restore(item, index)}>
              {t("trash.restore")}
              <span className="visually-hidden"> {item.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
