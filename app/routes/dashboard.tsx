import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticlesIcon, QrIcon, SettingsIcon, StatsIcon, TeamIcon } from "~/components/icons";
import { can, canReviewLanguage, type Member, type Permission } from "~/teams/roles";
import { DashboardFailingTranslations } from "~/components/dashboard-failing-translations";
import { DashboardActivity } from "~/components/stats/activity";
import { loadDashboard } from "~/models/dashboard.server";
import { getMuseum } from "~/models/museums.server";
import statsStyles from "~/styles/stats.css?url";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { AuditIcon } from "~/components/audit/audit-icon";
import { XliffIcon } from "~/components/xliff/xliff-icon";
import { ArchiveIcon } from "~/components/archive/archive-icon";
import { TourIcon } from "~/components/tours/tour-icon";
import { QuestionIcon } from "~/components/questions/question-icon";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";
import { BoundNotice } from "~/components/usage/bound-notice";
import { monthlyCharsFrom, nextMonthStart } from "~/narration/budget.server";
import { readBounds, translationMonthlyCharsFrom } from "~/usage/usage.server";
import { weekUnanswered } from "~/questions/staff.server";
import { questionsMonthlyFrom } from "~/questions/store.server";
import { WeekQuestions } from "~/components/questions/week-questions";
import questionsStyles from "~/styles/questions.css?url";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "dashboard", { noindex: true });
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: statsStyles },
  { rel: "stylesheet", href: questionsStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "session");
  const env = context.cloudflare.env as unknown as Record<string, unknown>;
  const member: Member = { role: user.role, languages: user.languages };
  const [activity, museum, bounds, questions] = await Promise.all([
    loadDashboard(context.db, user.museumId),
    getMuseum(context.db, user.museumId),
    readBounds(context.db.$client, user.museumId, {
      translation: translationMonthlyCharsFrom(env),
      narration: monthlyCharsFrom(env),
      questions: questionsMonthlyFrom(env),
    }),
    can(member, "content.read") ? weekUnanswered(context.db.$client, user.museumId) : null,
  ]);
  return { museumName: user.museumName, activity, timeZone: museum?.timezone ?? "UTC", member, bounds, resetsAt: nextMonthStart(Date.now()), questions };
}

/** Each tile shows only to a role that may open its page (decision 040); settings is one's own account. */
const TILES: readonly { to: string; key: string; Icon: typeof ArticlesIcon; permission: Permission }[] = [
  { to: "/articles", key: "dashboard.articles", Icon: ArticlesIcon, permission: "content.read" },
  { to: "/import", key: "import.tile", Icon: ArticlesIcon, permission: "content.edit" },
  { to: "/qrcodes", key: "dashboard.qrcodes", Icon: QrIcon, permission: "content.edit" },
  { to: "/tours", key: "tours.tile", Icon: TourIcon, permission: "content.edit" },
  { to: "/questions", key: "questions.tile", Icon: QuestionIcon, permission: "content.read" },
  { to: "/stats", key: "dashboard.stats", Icon: StatsIcon, permission: "stats.read" },
  { to: "/team", key: "dashboard.team", Icon: TeamIcon, permission: "museum.manage" },
  { to: "/audit", key: "audit.tile", Icon: AuditIcon, permission: "audit.read" },
  { to: "/translations/files", key: "xliff.tile", Icon: XliffIcon, permission: "translations.review" },
  { to: "/museum-data", key: "archive.tile", Icon: ArchiveIcon, permission: "museum.manage" },
  { to: "/settings", key: "dashboard.settings", Icon: SettingsIcon, permission: "session" },
];

export default function Dashboard() {
  const { museumName, activity, timeZone, member, bounds, resetsAt, questions } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const review = (lang: string) => canReviewLanguage(member, lang);
  const access = { edit: can(member, "content.edit"), read: can(member, "content.read"), review };
  return (
    <section className="page">
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{museumName}</p>
      <ul className="tiles">
        {TILES.filter((tile) => can(member, tile.permission)).map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="tile">
              <tile.Icon />
              <span>{t(tile.key)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {/* Only near or at a monthly bound an operator set (decision 148). */}
      <BoundNotice bounds={bounds} resetsAt={resetsAt} />
      {/* Only when visitors asked what the text does not say this week (decision 151). */}
      {questions && questions.questions > 0 ? <WeekQuestions week={questions} /> : null}
      {/* Only when something fails: a failing translation is news, a working one is not. */}
      {activity.failingTranslations.count > 0 ? (
        <DashboardFailingTranslations failing={activity.failingTranslations} timeZone={timeZone} canReview={review} />
      ) : null}
      <DashboardActivity activity={activity} access={access} />
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
