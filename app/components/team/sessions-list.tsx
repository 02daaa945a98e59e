import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Device } from "~/teams/user-agent";

export interface SessionView {
  handle: string;
  device: Device;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

/** "Chrome on Android", in the interface language; what the header does not say is said plainly. */
export function useDeviceName() {
  const { t } = useTranslation();
  return (device: Device) => {
    if (!device.browser && !device.os) return t("team.sessions.unknownDevice");
    return t("team.sessions.device", {
      browser: device.browser ?? t("team.sessions.unknownBrowser"),
      os: device.os ?? t("team.sessions.unknownOs"),
    });
  };
}

/** /settings: the user's own sessions, this device first; end one, or all the others. */
export function SessionsList({ sessions, timeZone, busy }: { sessions: readonly SessionView[]; timeZone: string; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const deviceName = useDeviceName();
  const date = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  });
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <p>{t("team.sessions.intro")}</p>
      <ul className="session-list" aria-labelledby="sessions-heading">
        {sessions.map((session) => {
          const name = deviceName(session.device);
          const seen = date.format(new Date(session.lastSeenAt));
          return (
            <li key={session.handle} className="session-row" data-current={session.current || undefined}>
              <div className="session-row__text">
                <span className="session-row__device">{name}</span>
                {session.current ? <span className="session-row__current">{t("team.sessions.thisDevice")}</span> : null}
                <span className="muted">{t("team.sessions.lastSeen", { date: seen })}</span>
                <span className="muted">
                  {t("team.sessions.since", {
                    date: date.format(new Date(session.createdAt)),
                  })}
                </span>
              </div>
              {session.current ? null : (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="end_session" />
                  <input type="hidden" name="session" value={session.handle} />
                  <button
                    type="submit"
                    className="button button--ghost button--small"
                    aria-disabled={busy}
                    aria-label={t("team.sessions.endOf", {
                      device: name,
                      date: seen,
                    })}
                  >
                    {t("team.sessions.end")}
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <Form method="post" preventScrollReset className="sessions__end-all">
          <input type="hidden" name="intent" value="end_other_sessions" />
          <button type="submit" className="button button--ghost" aria-disabled={busy}>
            {t("team.sessions.endOthers")}
          </button>
        </Form>
      ) : (
        <p className="muted">{t("team.sessions.noOthers")}</p>
      )}
    </>
  );
}
