import { Link, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import type { ErrorBody } from "~/errors";
import type { loadHistoryPage } from "~/publishing/history-page.server";
import { CompareForm, HistoryDiff } from "./history-compare";
import { HistoryList } from "./history-list";
import { HistoryVersion } from "./history-version";

export type RestoreResult = {
  intent: string;
  ok: boolean;
  restoredFrom?: number;
  version?: number;
  missingMedia?: string[];
} & Partial<ErrorBody>;

type Props = Awaited<ReturnType<typeof loadHistoryPage>> & { canRestore: boolean; result?: RestoreResult };

export function HistoryPage({ history, timeZone, view, compare, canRestore, result }: Props) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [asking, setAsking] = useState<number | null>(null);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const message = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLHeadingElement>(null);
  const busy = navigation.state === "submitting";
  const editor = `/article?id=${history.id}`;
  const current = history.versions.find((v) => v.current);

  // A restore's answer takes focus, so it is read at once and the keyboard stays where the news is.
  useEffect(() => {
    if (result) message.current?.focus();
  }, [result]);
  // A version opened or a comparison made: its heading takes focus (the panel sits above the list).
  const panelKey = view ? `view-${view.version.number}` : compare ? `compare-${compare.from}-${compare.to}` : "";
  const previousPanel = useRef(panelKey);
  useEffect(() => {
    if (panelKey && panelKey !== previousPanel.current) panel.current?.focus();
    previousPanel.current = panelKey;
  }, [panelKey]);

  // The modal makes the rest of the page inert: focus goes back to the button once the dialog is gone.
  const refocus = useRef(false);
  useEffect(() => {
    if (asking !== null || !refocus.current) return;
    refocus.current = false;
    trigger.current?.focus();
  }, [asking]);
  const close = () => {
    refocus.current = true;
    setAsking(null);
  };

  return (
    <section className="page history">
      <header className="articles__header">
        <h1 dir="auto">{t("history.title", { name: history.name })}</h1>
        <Link to={editor} className="button button--ghost">
          <span aria-hidden="true">←</span> {t("history.backToEditor")}
        </Link>
      </header>
      <p className="history-status">
        {current ? t("history.visitorsSee", { number: current.number }) : t("history.neverPublished")}{" "}
        {history.published && history.draft.hasDraft ? t("history.draftDiffers") : null}
      </p>
      {history.published && history.draft.hasDraft ? (
        <p>
          <Link to={`/article/history?id=${history.id}&from=published&to=draft`}>{t("history.compareDraftPublished")}</Link>
        </p>
      ) : null}

      <div ref={message} tabIndex={-1} role="status" className="history-message-slot">
        {result?.ok ? (
          <div className="history-message history-message--ok">
            <p>{t("history.restored", { number: result.restoredFrom })}</p>
            {result.missingMedia && result.missingMedia.length > 0 ? (
              <p>
                {t("history.missingMedia", {
                  count: result.missingMedia.length,
                  files: result.missingMedia.map((m) => m.slice(m.lastIndexOf("/") + 1)).join(", "),
                })}
              </p>
            ) : null}
            <p>
              <Link to={editor}>{t("history.openEditor")}</Link>
            </p>
          </div>
        ) : result ? (
          <div className="history-message history-message--error">
            <p>{t(result.error?.code === "not_found" ? "history.restoreGone" : "history.restoreFailed")}</p>
          </div>
        ) : null}
      </div>

      <CompareForm
        articleId={history.id}
        versions={history.versions}
        from={compare?.from ?? history.versions[1]?.number ?? history.versions[0]?.number ?? "draft"}
        to={compare?.to ?? (history.versions[1] ? (history.versions[0]?.number ?? "draft") : "draft")}
      />
      {compare ? <HistoryDiff {...compare} headingRef={panel} /> : null}
      {view ? <HistoryVersion number={view.version.number} content={view.content} headingRef={panel} /> : null}

      <h2 id="history-versions-heading">{t("history.versionsHeading", { count: history.versions.length })}</h2>
      <HistoryList
        articleId={history.id}
        versions={history.versions}
        timeZone={timeZone}
        canRestore={canRestore}
        busy={busy}
        onRestore={(number, button) => {
          trigger.current = button;
          setAsking(number);
        }}
      />

      {asking !== null ? (
        <ConfirmDialog
          title={t("history.confirmTitle", { number: asking })}
          confirmLabel={t("history.confirmRestore")}
          onCancel={close}
          onConfirm={() => {
            const form = new FormData();
            form.set("intent", "restore");
            form.set("version", String(asking));
            submit(form, { method: "post", action: `/article/history?id=${history.id}` });
            close();
          }}
        >
          <p>{t("history.confirmBody")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
