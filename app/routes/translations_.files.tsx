import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ImportReportView } from "~/components/xliff/import-report";
import { notFound } from "~/errors";
import { isLocale } from "~/i18n/config";
import { getMuseum } from "~/models/museums.server";
import { listLiveArticles, loadFolderIndex } from "~/models/tree.server";
import xliffStyles from "~/styles/xliff.css?url";
import { canReviewLanguage } from "~/teams/roles";
import { languageOptionLabel, languagesByLabel } from "~/translation/languages";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import type { ImportReport } from "~/xliff/report";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "xliff", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: xliffStyles }];

/**
 * `/translations/files`: "Files for translators" (decision 058). The export form is a plain GET to
 * `/translations/files/download`, which answers with the file itself, so it works without JavaScript;
 * the import form sends the file to `POST /api/manage/import_xliff` and shows its per-unit report.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "translations.review");
  return pageData(context, user);
}

/** What the page shows: the museum's folders and articles to export, and the languages the member reviews. */
async function pageData(context: LoaderFunctionArgs["context"], user: Awaited<ReturnType<typeof requireUser>>) {
  const [museum, articles, index] = await Promise.all([
    getMuseum(context.db, user.museumId),
    listLiveArticles(context.db, user.museumId),
    loadFolderIndex(context.db, user.museumId),
  ]);
  if (!museum) refusePage(notFound("Museum"));
  const folders: { id: number; path: string }[] = [];
  const walk = (parent: number | null, prefix: string[]) => {
    for (const folder of index.liveChildren(parent).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))) {
      if (folders.some((f) => f.id === folder.id)) continue;
      const path = [...prefix, folder.name];
      folders.push({ id: folder.id, path: path.join(" / ") });
      walk(folder.id, path);
    }
  };
  walk(null, []);
  const langs = languagesByLabel("en", museum.sourceLang)
    .map((l) => l.code)
    .filter((code) => canReviewLanguage(user, code));
  return {
    sourceLang: museum.sourceLang,
    articles: articles.map((a) => ({ id: a.id, name: a.unformatted_name })),
    folders,
    langs,
    // A translator limited to some languages gets theirs first.
    preferred: user.role === "translator" && user.languages.length > 0 ? (langs[0] ?? "") : "",
  };
}

type Outcome = { kind: "report"; report: ImportReport } | { kind: "error"; message: string } | null;

export default function TranslatorFiles() {
  const { articles, folders, langs, preferred } = useLoaderData<typeof pageData>();
  const { t, i18n } = useTranslation();
  const uiLocale = isLocale(i18n.language) ? i18n.language : "fr";
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const reportHeading = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const sorted = [...langs].sort((a, b) => languageOptionLabel(a, uiLocale).localeCompare(languageOptionLabel(b, uiLocale), uiLocale));

  useEffect(() => {
    // Focus follows the answer: the report's heading, or the refusal.
    if (outcome?.kind === "report") reportHeading.current?.focus();
    if (outcome?.kind === "error") errorRef.current?.focus();
  }, [outcome]);

  async function submitImport(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") {
      setOutcome({ kind: "error", message: t("xliff.import.noFile") });
      return;
    }
    if (!form.has("dryRun")) form.set("dryRun", "false");
    if (!form.has("applyStale")) form.set("applyStale", "false");
    setBusy(true);
    try {
      const response = await fetch("/api/manage/import_xliff", { method: "POST", body: form, credentials: "same-origin" });
      const body = (await response.json().catch(() => null)) as (ImportReport & { error?: ApiFailure["error"] }) | null;
      if (response.ok && body && !body.error) setOutcome({ kind: "report", report: body });
      else {
        const error = body?.error ?? { code: "unknown", message: response.statusText };
        const message =
          error.field === "file" && (error.code === "invalid_input" || error.code === "too_large")
            ? t(`xliff.import.fileError.${error.code}`)
            : apiErrorMessage(t, { ok: false, status: response.status, error });
        setOutcome({ kind: "error", message });
      }
    } catch {
      setOutcome({ kind: "error", message: t("errors.codes.network") });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page xliff">
      <header className="articles__header">
        <h1>{t("xliff.title")}</h1>
        <Link to="/dashboard" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("xliff.back")}
        </Link>
      </header>
      <p className="xliff__intro">{t("xliff.intro")}</p>

      <h2 id="xliff-export-heading">{t("xliff.export.heading")}</h2>
      <Form method="get" action="/translations/files/download" reloadDocument className="form xliff-form" aria-labelledby="xliff-export-heading">
        <label className="field">
          <span>{t("xliff.export.what")}</span>
          <select name="what" defaultValue="museum">
            <option value="museum">{t("xliff.export.museum")}</option>
            {folders.length > 0 ? (
              <optgroup label={t("xliff.export.folders")}>
                {folders.map((f) => (
                  <option key={f.id} value={`f${f.id}`}>
                    {f.path}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {articles.length > 0 ? (
              <optgroup label={t("xliff.export.articles")}>
                {articles.map((a) => (
                  <option key={a.id} value={`a${a.id}`}>
                    {a.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </label>
        <label className="field">
          <span>{t("xliff.language")}</span>
          <select name="lang" defaultValue={preferred || (sorted.includes("en") ? "en" : sorted[0])}>
            {sorted.map((code) => (
              <option key={code} value={code}>
                {languageOptionLabel(code, uiLocale)}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="xliff-form__versions">
          <legend>{t("xliff.export.version")}</legend>
          <label className="xliff-form__choice">
            <input type="radio" name="version" value="2.0" defaultChecked />
            <span>{t("xliff.export.v20")}</span>
          </label>
          <label className="xliff-form__choice">
            <input type="radio" name="version" value="1.2" />
            <span>{t("xliff.export.v12")}</span>
          </label>
        </fieldset>
        <button type="submit" className="button xliff-form__submit">
          <span aria-hidden="true">↓</span> {t("xliff.export.download")}
        </button>
      </Form>

      <h2 id="xliff-import-heading">{t("xliff.import.heading")}</h2>
      <p>{t("xliff.import.intro")}</p>
      <form
        method="post"
        action="/api/manage/import_xliff"
        encType="multipart/form-data"
        className="form xliff-form"
        aria-labelledby="xliff-import-heading"
        onSubmit={submitImport}
        aria-busy={busy}
      >
        <label className="field">
          <span>{t("xliff.import.file")}</span>
          <input type="file" name="file" accept=".xlf,.xliff,.sdlxliff,.mqxliff,.xml,application/xliff+xml" aria-describedby="xliff-file-help" />
          <small id="xliff-file-help">{t("xliff.import.fileHelp")}</small>
        </label>
        <label className="xliff-form__choice">
          <input type="checkbox" name="dryRun" value="true" />
          <span>{t("xliff.import.dryRun")}</span>
        </label>
        <label className="xliff-form__choice">
          <input type="checkbox" name="applyStale" value="true" />
          <span>{t("xliff.import.applyStale")}</span>
        </label>
        <button type="submit" className="button xliff-form__submit" aria-disabled={busy}>
          <span aria-hidden="true">↑</span> {busy ? t("xliff.import.busy") : t("xliff.import.submit")}
        </button>
      </form>
      <div aria-live="polite">
        {outcome?.kind === "error" ? (
          <p className="xliff__error" role="alert" tabIndex={-1} ref={errorRef}>
            {outcome.message}
          </p>
        ) : null}
      </div>
      {outcome?.kind === "report" ? <ImportReportView report={outcome.report} ref={reportHeading} /> : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
