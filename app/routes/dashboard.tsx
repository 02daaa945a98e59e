import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticlesIcon, QrIcon, SettingsIcon, StatsIcon } from "~/components/icons";
import { DashboardFailingTranslations } from "~/components/dashboard-failing-translations";
import { DashboardActivity } from "~/components/stats/activity";
import { loadDashboard } from "~/models/dashboard.server";
import { getMuseum } from "~/models/museums.server";
import statsStyles from "~/styles/stats.css?url";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { AuditIcon } from "~/components/audit/audit-icon";
import { can } from "~/teams/roles";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "dashboard", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: statsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "session");
  const [activity, museum] = await Promise.all([loadDashboard(context.db, user.museumId), getMuseum(context.db, user.museumId)]);
  return { museumName: user.museumName, activity, timeZone: museum?.timezone ?? "UTC", showAudit: can(user, "audit.read") };
}

const TILES = [
  { to: "/articles", key: "dashboard.articles", Icon: ArticlesIcon },
  { to: "/qrcodes", key: "dashboard.qrcodes", Icon: QrIcon },
  { to: "/stats", key: "dashboard.stats", Icon: StatsIcon },
  { to: "/settings", key: "dashboard.settings", Icon: SettingsIcon },
] as const;

export default function Dashboard() {
  const { museumName, activity, timeZone, showAudit } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{museumName}</p>
      <ul className="tiles">
        {TILES.map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="tile">
              <tile.Icon />
              <span>{t(tile.key)}</span>
            </Link>
          </li>
        ))}
        {showAudit ? (
          <li>
            <Link to="/audit" className="tile">
              <AuditIcon />
              <span>{t("audit.tile")}</span>
            </Link>
          </li>
        ) : null}
      </ul>
      {/* Only when something fails: a failing translation is news, a working one is not. */}
      {activity.failingTranslations.count > 0 ? <DashboardFailingTranslations failing={activity.failingTranslations} timeZone={timeZone} /> : null}
      <DashboardActivity activity={activity} />
    </section>
  );
}
