import { Link, useRouteLoaderData, type ErrorResponse } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { loader as rootLoader } from "~/root";
import { can, isRole } from "~/teams/roles";
import { ErrorPage, GeneralErrorBoundary } from "./error-boundary";

/** What a staff page shows when it is not found: the item its address names, and where the list of them is. */
export type StaffSubject = "page" | "article" | "folder" | "tour" | "qrcode";

const LIST: Record<StaffSubject, { to: string; key: string }> = {
  page: { to: "/dashboard", key: "staffError.backToDashboard" },
  article: { to: "/articles", key: "staffError.backToArticles" },
  folder: { to: "/articles", key: "staffError.backToArticles" },
  tour: { to: "/tours", key: "staffError.backToTours" },
  qrcode: { to: "/qrcodes", key: "staffError.backToQrcodes" },
};

function useMember() {
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user;
  return user && isRole(user.role) ? { role: user.role, languages: user.languages } : null;
}

function BackTo({ subject }: { subject: StaffSubject }) {
  const { t } = useTranslation();
  const { to, key } = LIST[subject];
  return (
    <Link to={to} className="button">
      {t(key)}
    </Link>
  );
}

/** 403: the member's role does not open this page; an admin of the museum can change that. */
function Forbidden() {
  const { t } = useTranslation();
  const member = useMember();
  return (
    <ErrorPage title={t("staffError.forbidden.title")} actions={<BackTo subject="page" />}>
      {member ? <p>{t("staffError.forbidden.role", { role: t(`team.roles.${member.role}`) })}</p> : null}
      <p>{t("staffError.forbidden.askAdmin")}</p>
    </ErrorPage>
  );
}

/** 404: nothing of the museum at this address; an article or folder in the trash is named as such, with the way to it. */
function NotFound({ subject, error }: { subject: StaffSubject; error: ErrorResponse }) {
  const { t } = useTranslation();
  const member = useMember();
  const trashed = (subject === "article" || subject === "folder") && (error.data as { trashed?: unknown } | null)?.trashed === true;
  if (!trashed) {
    return (
      <ErrorPage title={t("notFound.title")} actions={<BackTo subject={subject} />}>
        <p>{t(`staffError.notFound.${subject}`)}</p>
      </ErrorPage>
    );
  }
  const mayRestore = member !== null && can(member, "content.edit");
  return (
    <ErrorPage
      title={t("notFound.title")}
      actions={
        <>
          {mayRestore ? (
            <Link to="/trash" className="button">
              {t("staffError.trashed.openTrash")}
            </Link>
          ) : null}
          <BackTo subject={subject} />
        </>
      }
    >
      <p>{t(`staffError.trashed.${subject}`)}</p>
      <p>{t(mayRestore ? "staffError.trashed.restore" : "staffError.trashed.askEditor")}</p>
    </ErrorPage>
  );
}

/** Any other refusal (400, 429, 503…) or a bug: the page could not be shown; its status, and the way back. */
function OtherError({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <ErrorPage title={t("error.title")} actions={<BackTo subject="page" />}>
      <p>{t("error.body")}</p>
      <p className="muted">{t("error.status", { status })}</p>
    </ErrorPage>
  );
}

/**
 * The error boundary of every staff page (decision 136): says what happened and what to do, in the interface
 * language, instead of the root's bare status. `subject` is what the page's address names, for its 404.
 */
export function StaffErrorBoundary({ subject = "page" }: { subject?: StaffSubject }) {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: () => <Forbidden />,
        404: (error) => <NotFound subject={subject} error={error} />,
      }}
      defaultStatusHandler={(error) => <OtherError status={error.status} />}
      unexpectedErrorHandler={() => <OtherError status={500} />}
    />
  );
}
