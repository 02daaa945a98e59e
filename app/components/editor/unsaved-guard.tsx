import { useBlocker } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";

/**
 * While there is unsaved work: the browser's own warning on closing or reloading the tab, and a dialog
 * before any in-app navigation to another page (query changes included, since ?id= is the article).
 */
export function UnsavedGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show their prompt.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // Saved meanwhile (or the work was dropped): let the pending navigation go.
  useEffect(() => {
    if (blocker.state === "blocked" && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  if (blocker.state !== "blocked") return null;
  return (
    <ConfirmDialog title={t("editor.leaveTitle")} confirmLabel={t("editor.leaveConfirm")} onConfirm={() => blocker.proceed()} onCancel={() => blocker.reset()}>
      <p>{t("editor.leaveBody")}</p>
    </ConfirmDialog>
  );
}
