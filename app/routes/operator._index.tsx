import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { readFiguresQuery } from "~/operator/figures-query";
import { museumFigures, sortAndFilter } from "~/operator/figures.server";
import { NUMERIC_COLUMNS, type FigureColumn } from "~/operator/columns";
import { requireOperator } from "~/operator/session.server";
import { formatCosts } from "~/operator/format";
import operatorStyles from "~/styles/operator.css?url";
import { pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.console", { noindex: true });
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** The deployment's museums with their figures (issue 33 §2), filtered and sorted as the address asks. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context);
  const query = readFiguresQuery(new URL(request.url).searchParams);
  const all = await museumFigures(context.shards.shards.directory, context.shards.shards.byIndex);
  // The list needs each museum's totals, not its engine-by-engine rows (its page shows those): half the page's weight.
  const museums = sortAndFilter(all, query).map(({ usage: _usage, ...shown }) => shown);
  return { email: operator.email, total: all.length, museums, query };
}

const NUMERIC = NUMERIC_COLUMNS;

export default function OperatorConsole() {
  const { t, i18n } = useTranslation();
  const { email, total, museums, query } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const locale = i18n.language === "en" ? "en-GB" : "fr-FR";
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale);
  const megabytes = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const costs = (m: { costUsd: number; costEur: number; unpriced: string[] }) => formatCosts(locale, m, t("operator.console.unpriced"));
  const sortLink = (column: FigureColumn) => {
    const next = new URLSearchParams(params);
    next.set("sort", column);
    // A name reads A→Z first; a figure, largest first.
    const first = column === "name" ? "asc" : "desc";
    next.set("dir", query.sort === column ? (query.dir === "desc" ? "asc" : "desc") : first);
    return `?${next.toString()}`;
  };
  const header = (column: FigureColumn) => (
    <th
      scope="col"
      aria-sort={query.sort === column ? (query.dir === "asc" ? "ascending" : "descending") : undefined}
      className={NUMERIC.includes(column) ? "num" : undefined}
    >
      <Link to={sortLink(column)} preventScrollReset>
        {t(`operator.console.columns.${column}`)}
        {query.sort === column ? (query.dir === "asc" ? " ▲" : " ▼") : null}
      </Link>
    </th>
  );
  const csv = `/operator/museums.csv?${params.toString()}`;
  return (
    <section className="page operator-console">
      <header className="articles__header">
        <h1>{t("operator.console.title")}</h1>
        <Form method="post" action="/operator/logout">
          <button type="submit" className="button button--ghost">
            {t("operator.console.logout")}
          </button>
        </Form>
      </header>
      <p>{t("operator.console.signedInAs", { email })}</p>
      <Form method="get" className="operator-filter" role="search">
        <label className="field">
          <span>{t("operator.console.filter")}</span>
          <input type="search" name="q" defaultValue={query.q} maxLength={100} />
        </label>
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className="button button--ghost">
          {t("operator.console.filterSubmit")}
        </button>
      </Form>
      <p className="operator-links">
        <Link to="/operator/museums/new">{t("operator.console.newMuseum")}</Link>
        <a href={csv} download>
          {t("operator.console.museumsCsv")}
        </a>
        <a href="/operator/audit.csv" download>
          {t("operator.console.auditCsv")}
        </a>
      </p>
      <h2 id="operator-museums">{t("operator.console.museumsShown", { count: museums.length, total })}</h2>
      <div className="operator-table" role="region" aria-labelledby="operator-museums" tabIndex={0}>
        <table>
          <thead>
            <tr>
              {header("name")}
              {header("state")}
              {header("shard")}
              {header("members")}
              {header("articles")}
              {header("languages")}
              {header("scans30")}
              {header("views30")}
              {header("translationChars")}
              {header("narrationChars")}
              {header("cost")}
              {header("mediaBytes")}
              {header("d1Bytes")}
              {header("lastStaffActivity")}
              {header("createdAt")}
            </tr>
          </thead>
          <tbody>
            {museums.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  <Link to={`/operator/museums/${m.id}`}>
                    <bdi>{m.name}</bdi>
                  </Link>{" "}
                  <span className="muted">{m.slug}</span>
                </th>
                <td>{t(`operator.console.states.${m.state}`)}</td>
                <td className="num">
                  {m.shard}
                  {m.jurisdiction === "eu" ? ` (${t("operator.console.eu")})` : ""}
                </td>
                <td className="num">{number.format(m.members)}</td>
                <td className="num">{number.format(m.articles)}</td>
                <td className="num">{number.format(m.languages)}</td>
                <td className="num">{number.format(m.scans30)}</td>
                <td className="num">{number.format(m.views30)}</td>
                <td className="num">{number.format(m.translationChars)}</td>
                <td className="num">{number.format(m.narrationChars)}</td>
                <td className="num">{costs(m)}</td>
                <td className="num">{megabytes.format(m.mediaBytes / 1e6)}</td>
                <td className="num">{m.d1Bytes === null ? "—" : megabytes.format(m.d1Bytes / 1e6)}</td>
                <td>{m.lastStaffActivity === null ? t("operator.console.never") : date.format(m.lastStaffActivity)}</td>
                <td>{date.format(m.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t("operator.console.notYet")}</p>
    </section>
  );
}
