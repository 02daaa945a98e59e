import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { auditQuerySchema } from "~/audit/audit-input";
import { auditPeople, listAuditEntries, museumTimeZone, resolveTargets, type AuditPage } from "~/audit/query.server";
import { AuditFilters, type AuditFilterValues } from "~/components/audit/audit-filters";
import { AuditTable } from "~/components/audit/audit-table";
import auditStyles from "~/styles/audit.css?url";
import { pageMeta } from "~/utils/meta";
import { orPageError } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { zodToDomainError } from "~/utils/zod-error";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "audit", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: auditStyles }];

const FILTERS = ["actor", "action", "from", "to"] as const;

/** `/audit?actor=&action=&from=&to=&cursor=`: the museum's audit log for admins (decision 043). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "audit.read");
  const search = new URL(request.url).searchParams;
  const values = Object.fromEntries(FILTERS.map((f) => [f, (search.get(f) ?? "").slice(0, 320)])) as unknown as AuditFilterValues;
  const cursor = search.get("cursor") ?? "";
  // `limit` is not offered in the form, but a link may carry it (kept across pages).
  const limit = (search.get("limit") ?? "").slice(0, 8);
  const parsed = auditQuerySchema.safeParse({ ...values, cursor, limit });
  const people = await auditPeople(context.db, user.museumId);
  if (!parsed.success) {
    const error = zodToDomainError(parsed.error);
    const timeZone = await museumTimeZone(context.db, user.museumId);
    const empty: AuditPage = { timeZone, entries: [], nextCursor: null };
    return { ...empty, targets: {}, people, values, cursor: "", limit: "", error: { field: error.field ?? "", reason: error.reason ?? "invalid" } };
  }
  const page = await orPageError(listAuditEntries(context.db, user.museumId, parsed.data));
  const targets = await resolveTargets(
    context.db,
    user.museumId,
    page.entries.map((e) => e.target),
  );
  return { ...page, targets, people, values, cursor, limit, error: null };
}

function query(values: AuditFilterValues, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v) params.set(k, v);
  return params.toString();
}

export default function Audit() {
  const { entries, nextCursor, targets, timeZone, people, values, cursor, limit, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  // After a page or filter change, the link followed may be gone (the last page has no "older"): focus
  // the heading rather than leave it on the body.
  useEffect(() => {
    if (document.activeElement === document.body) heading.current?.focus();
  }, [location.key]);
  const filtered = FILTERS.some((f) => values[f]);
  const errorMessage = error ? t(`audit.invalid.${error.field}`, { defaultValue: t("audit.invalid.any") }) : "";
  return (
    <section className="page audit">
      <header className="audit__header">
        <h1 ref={heading} tabIndex={-1}>
          {t("audit.title")}
        </h1>
        <a className="button button--ghost" href={`/api/read/audit_log?${query(values, { format: "csv" })}`} download>
          {t("audit.exportCsv")}
        </a>
      </header>
      <p className="muted">{t("audit.intro", { timeZone })}</p>
      <AuditFilters values={values} people={people} error={error ? { field: error.field, message: errorMessage } : null} />
      {entries.length === 0 ? (
        <p className="audit__empty" role="status">
          {error ? null : filtered || cursor ? t("audit.emptyFiltered") : t("audit.empty")}
        </p>
      ) : (
        <AuditTable entries={entries} targets={targets} timeZone={timeZone} />
      )}
      {cursor || nextCursor ? (
        <nav className="audit__pages" aria-label={t("audit.pages")}>
          {cursor ? (
            <Link to={`/audit?${query(values, { limit })}`} className="button button--ghost">
              <span aria-hidden="true">←</span> {t("audit.newest")}
            </Link>
          ) : null}
          {nextCursor ? (
            <Link to={`/audit?${query(values, { cursor: nextCursor, limit })}`} className="button button--ghost">
              {t("audit.older")} <span aria-hidden="true">→</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
