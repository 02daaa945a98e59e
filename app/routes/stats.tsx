import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticleFetchForm } from "~/components/stats/article-fetch-form";
import { EasyReadStats } from "~/components/easy-read/easy-read-stats";
import { CountingHelp } from "~/components/stats/counting-help";
import { PeriodNav } from "~/components/stats/period-nav";
import { StatsChart } from "~/components/stats/stats-chart";
import { TourStatsSection } from "~/components/tour-stats/tour-stats";
import type { Locale } from "~/i18n/config";
import { STATS_DEFAULT_DAYS, STATS_PERIODS } from "~/models/stats-input";
import { dayRange, loadStatsPage, museumToday } from "~/models/stats.server";
import { tourStats } from "~/tours/stats.server";
import { easyReadOpens } from "~/easy-read/stats.server";
import statsStyles from "~/styles/stats.css?url";
import { languageLabel } from "~/translation/languages";
import { pageMeta } from "~/utils/meta";
import { orPageError } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "stats", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: statsStyles }];

/** `?days=` one of the offered periods (anything else: the spec's 10), `?articleId=` the third chart's article. */
function readQuery(search: URLSearchParams) {
  const days = Number(search.get("days"));
  const id = search.get("articleId") ?? "";
  return {
    days: (STATS_PERIODS as readonly number[]).includes(days) ? days : STATS_DEFAULT_DAYS,
    articleId: /^[1-9]\d{0,14}$/.test(id) ? Number(id) : null,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "stats.read");
  const query = readQuery(new URL(request.url).searchParams);
  const today = await museumToday(context.db, user.museumId);
  const from = dayRange(today, query.days)[0]!;
  const [page, tours, easyRead] = await orPageError(
    Promise.all([
      loadStatsPage(context.db, user.museumId, query),
      // The tours over the same days as the charts (issue 21).
      tourStats(context.db, user.museumId, { from, to: today }),
      easyReadOpens(context.db, user.museumId, from, today),
    ]),
  );
  return { ...query, ...page, tours: tours.tours, easyRead };
}

export default function Stats() {
  const { days, articleId, articles, perArticle, perLanguage, ofArticle, tours, easyRead } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const locale = (i18n.language === "en" ? "en" : "fr") satisfies Locale;
  const navigation = useNavigation();
  // Which charts wait for new data: a new period reloads all three, a new article only the third.
  const next = navigation.state === "loading" && navigation.location.pathname === "/stats" ? readQuery(new URLSearchParams(navigation.location.search)) : null;
  const periodLoading = next !== null && next.days !== days;
  const articleLoading = next !== null && (periodLoading || next.articleId !== articleId);

  const names = new Map(articles.map((a) => [a.name, a.unformatted_name]));
  const articleLabel = (slug: string) => names.get(slug) ?? slug;
  const language = (code: string) => languageLabel(code, locale);
  const csv = (path: string) => `/api/stats/${path}${path.includes("?") ? "&" : "?"}days=${days}&format=csv`;

  return (
    <section className="page stats">
      <header className="articles__header">
        <h1>{t("stats.title")}</h1>
        <Link to="/dashboard" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("stats.backToDashboard")}
        </Link>
      </header>
      <PeriodNav days={days} articleId={articleId} />
      <CountingHelp />
      <StatsChart
        id="per-article"
        caption={t("stats.perArticle.caption")}
        yLabel={t("stats.perArticle.yLabel")}
        keyHeader={t("stats.articleColumn")}
        totalKey="stats.totalScans"
        data={perArticle}
        labelFor={articleLabel}
        loading={periodLoading}
        csvHref={csv("scans-per-article")}
      />
      <StatsChart
        id="per-language"
        caption={t("stats.perLanguage.caption")}
        yLabel={t("stats.perLanguage.yLabel")}
        keyHeader={t("stats.languageColumn")}
        totalKey="stats.totalScans"
        data={perLanguage}
        labelFor={language}
        loading={periodLoading}
        csvHref={csv("scans-per-language")}
      />
      <ArticleFetchForm articles={articles} days={days} articleId={articleId} />
      {ofArticle ? (
        <StatsChart
          id="article-languages"
          caption={t("stats.ofArticle.caption", { name: ofArticle.article.name })}
          yLabel={t("stats.ofArticle.yLabel")}
          keyHeader={t("stats.languageColumn")}
          totalKey="stats.totalRequests"
          data={ofArticle}
          labelFor={language}
          loading={articleLoading}
          csvHref={csv(`languages-per-article?articleId=${ofArticle.article.id}`)}
        />
      ) : articleLoading ? (
        <p className="stats-chart__status" role="status">
          {t("stats.loading")}
        </p>
      ) : (
        <p className="muted">{t("stats.pickArticle")}</p>
      )}
      <TourStatsSection tours={tours} loading={periodLoading} />
      <EasyReadStats rows={easyRead} days={days} />
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
