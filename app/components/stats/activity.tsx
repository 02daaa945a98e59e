import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "~/i18n/config";
import type { loadDashboard } from "~/models/dashboard.server";
import { languageLabel } from "~/translation/languages";

type Activity = Awaited<ReturnType<typeof loadDashboard>>;

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="activity__card">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** A link when the member's role may open the page (decision 040), else the same words as plain text. */
export function MaybeLink({ to, allowed, children }: { to: string; allowed: boolean; children: ReactNode }) {
  return allowed ? <Link to={to}>{children}</Link> : <>{children}</>;
}

/** "and 3 more" after a shortened list, leading to the page that lists them all. */
function More({ shown, count, to, allowed }: { shown: number; count: number; to: string; allowed: boolean }) {
  const { t } = useTranslation();
  if (count <= shown) return null;
  return (
    <p>
      <MaybeLink to={to} allowed={allowed}>
        {t("dashboard.more", { count: count - shown })}
      </MaybeLink>
    </p>
  );
}

/** What the member's role may open from the dashboard (decision 040); everything when not given. */
export interface ActivityAccess {
  edit: boolean;
  read: boolean;
  review: (lang: string) => boolean;
}

const FULL_ACCESS: ActivityAccess = { edit: true, read: true, review: () => true };

/** The dashboard's living part: each line links to where the curator acts on it (when their role may). */
export function DashboardActivity({ activity, access = FULL_ACCESS }: { activity: Activity; access?: ActivityAccess }) {
  const { t, i18n } = useTranslation();
  const locale: Locale = i18n.language === "en" ? "en" : "fr";
  const number = (n: number) => n.toLocaleString(locale);
  const scans = (count: number) => <span className="activity__count">{t("dashboard.scans", { count, total: number(count) })}</span>;
  return (
    <section className="activity" aria-labelledby="activity-title">
      <h2 id="activity-title">{t("dashboard.activity")}</h2>
      <ul className="activity__figures">
        <li className="activity__figure">
          <span className="activity__number">{number(activity.scansToday)}</span>
          <span>{t("dashboard.scansToday")}</span>
        </li>
        <li className="activity__figure">
          <span className="activity__number">{number(activity.scansWeek)}</span>
          <span>{t("dashboard.scansWeek")}</span>
          <Link to="/stats">{t("dashboard.seeStats")}</Link>
        </li>
      </ul>
      <div className="activity__cards">
        <Card title={t("dashboard.topArticles")}>
          {activity.topArticles.length === 0 ? (
            <p>{t("dashboard.noScansWeek")}</p>
          ) : (
            <ol>
              {activity.topArticles.map((a) => (
                <li key={a.id}>
                  <Link to={`/stats?articleId=${a.id}`}>{a.name}</Link> {scans(a.scans)}
                </li>
              ))}
            </ol>
          )}
        </Card>
        <Card title={t("dashboard.topLanguages")}>
          {activity.topLanguages.length === 0 ? (
            <p>{t("dashboard.noScansWeek")}</p>
          ) : (
            <ol>
              {activity.topLanguages.map((l) => (
                <li key={l.lang}>
                  <Link to="/stats">{languageLabel(l.lang, locale)}</Link> {scans(l.scans)}
                </li>
              ))}
            </ol>
          )}
        </Card>
        <Card title={`${t("dashboard.neverScanned")} (${activity.neverScanned.count})`}>
          {activity.neverScanned.count === 0 ? (
            <p>{t("dashboard.neverScannedNone")}</p>
          ) : (
            <>
              <ul>
                {activity.neverScanned.first.map((a) => (
                  <li key={a.id}>
                    <MaybeLink to={`/article?id=${a.id}`} allowed={access.edit}>
                      {a.name}
                    </MaybeLink>
                  </li>
                ))}
              </ul>
              <More shown={activity.neverScanned.first.length} count={activity.neverScanned.count} to="/articles" allowed={access.read} />
            </>
          )}
        </Card>
        <Card title={`${t("dashboard.inactiveQr")} (${activity.inactiveQrCodes.count})`}>
          {activity.inactiveQrCodes.count === 0 ? (
            <p>{t("dashboard.inactiveQrNone")}</p>
          ) : (
            <>
              <ul>
                {activity.inactiveQrCodes.first.map((c) => (
                  <li key={c.id}>
                    <MaybeLink to={`/qrcode?id=${c.id}`} allowed={access.edit}>
                      {t("dashboard.qrLine", { link: c.link })}
                    </MaybeLink>
                  </li>
                ))}
              </ul>
              <More shown={activity.inactiveQrCodes.first.length} count={activity.inactiveQrCodes.count} to="/qrcodes" allowed={access.edit} />
            </>
          )}
        </Card>
        <Card title={`${t("dashboard.openReports")} (${activity.openReports.count})`}>
          {activity.openReports.count === 0 ? (
            <p>{t("dashboard.openReportsNone")}</p>
          ) : (
            <ul>
              {activity.openReports.first.map((r) => (
                <li key={`${r.id}-${r.lang}`}>
                  <MaybeLink to={`/translations?id=${r.id}&lang=${encodeURIComponent(r.lang)}`} allowed={access.review(r.lang)}>
                    {t("dashboard.reportLine", { name: r.name, language: languageLabel(r.lang, locale), count: Number(r.reports) })}
                  </MaybeLink>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </section>
  );
}
