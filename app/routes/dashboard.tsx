import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticlesIcon, QrIcon, SettingsIcon, StatsIcon } from "~/components/icons";
import { DashboardActivity } from "~/components/stats/activity";
import { loadDashboard } from "~/models/dashboard.server";
import statsStyles from "~/styles/stats.css?url";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "dashboard", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: statsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { museumName: user.museumName, activity: await loadDashboard(context.db, user.museumId) };
}

const TILES = [
  { to: "/articles", key: "dashboard.articles", Icon: ArticlesIcon },
  { to: "/qrcodes", key: "dashboard.qrcodes", Icon: QrIcon },
  { to: "/stats", key: "dashboard.stats", Icon: StatsIcon },
  { to: "/settings", key: "dashboard.settings", Icon: SettingsIcon },
] as const;

export default function Dashboard() {
  const { museumName, activity } = useLoaderData<typeof loader>();
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
      </ul>
      <DashboardActivity activity={activity} />
    </section>
  );
}
