import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireOperator } from "~/operator/session.server";
import { pageMeta } from "~/utils/meta";
import operatorStyles from "~/styles/operator.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.console", { noindex: true });
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

interface MuseumRow {
  id: number;
  slug: string;
  shard: number;
  state: string;
  jurisdiction: string;
  createdAt: number;
}

/** The deployment's museums as the directory knows them (decision 142), newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context);
  const { results } = await context.directory.$client
    .prepare("SELECT id, slug, shard, state, jurisdiction, created_at AS createdAt FROM museums ORDER BY id DESC LIMIT 2000")
    .all<MuseumRow>();
  return { email: operator.email, museums: results };
}

export default function OperatorConsole() {
  const { t, i18n } = useTranslation();
  const { email, museums } = useLoaderData<typeof loader>();
  const date = new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "fr-FR", { dateStyle: "medium", timeZone: "UTC" });
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
      <p>
        <a href="/operator/audit.csv" download>
          {t("operator.console.auditCsv")}
        </a>
      </p>
      <h2 id="operator-museums">{t("operator.console.museums", { count: museums.length })}</h2>
      <div className="operator-table" role="region" aria-labelledby="operator-museums" tabIndex={0}>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("operator.console.museum")}</th>
              <th scope="col">{t("operator.console.state")}</th>
              <th scope="col">{t("operator.console.shard")}</th>
              <th scope="col">{t("operator.console.location")}</th>
              <th scope="col">{t("operator.console.created")}</th>
            </tr>
          </thead>
          <tbody>
            {museums.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  {m.slug} <span className="muted">#{m.id}</span>
                </th>
                <td>{t(`operator.console.states.${m.state === "active" ? "active" : "moving"}`)}</td>
                <td>{m.shard}</td>
                <td>{m.jurisdiction === "eu" ? t("operator.console.eu") : t("operator.console.defaultLocation")}</td>
                <td>{date.format(m.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
