import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { MappingEditor, PlanTable, type PlanAnswer } from "~/components/import/import-plan";
import { prepareImport } from "~/components/import/prepare";
import type { ColumnMapping } from "~/import/columns";
import importStylesheetUrl from "~/styles/import.css?url";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "import", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: importStylesheetUrl }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "content.edit");
  return null;
}

type Prepared = { file: File; images: Blob | null };
type Phase = "idle" | "preparing" | "checking" | "importing";

async function send(
  prepared: Prepared,
  mapping: ColumnMapping | null,
  dryRun: boolean,
): Promise<{ ok: true; answer: PlanAnswer } | { ok: false; failure: ApiFailure; answer?: PlanAnswer }> {
  const form = new FormData();
  if (mapping) form.append("mapping", JSON.stringify(mapping));
  form.append("file", prepared.file, prepared.file.name);
  if (prepared.images) form.append("images", prepared.images, "images.zip");
  try {
    const response = await fetch(`/api/manage/import_articles?dryRun=${dryRun}`, { method: "POST", body: form, credentials: "same-origin" });
    const data = (await response.json().catch(() => null)) as (PlanAnswer & { error?: ApiFailure["error"] }) | null;
    if (response.ok && data) return { ok: true, answer: data };
    const failure: ApiFailure = { ok: false, status: response.status, error: data?.error ?? { code: "unknown", message: response.statusText } };
    return { ok: false, failure, answer: data?.rows ? data : undefined };
  } catch (error) {
    return { ok: false, failure: { ok: false, status: 0, error: { code: "network", message: String(error) } } };
  }
}

const FILE_PROBLEMS = new Set(["wrong_type", "too_long", "too_many", "invalid"]);

/** A refused sheet said for what it is (what to save it as, which limit); anything else as every page says it. */
function importErrorMessage(t: TFunction, failure: ApiFailure): string {
  const { field, reason } = failure.error;
  if (field === "file" && reason && FILE_PROBLEMS.has(reason)) return t(`import.fileProblems.${reason}`);
  return apiErrorMessage(t, failure);
}

export default function ImportPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === "en" ? "en" : "fr";
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState("");
  const [problem, setProblem] = useState("");
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [answer, setAnswer] = useState<PlanAnswer | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [mappingChanged, setMappingChanged] = useState(false);
  const planHeading = useRef<HTMLHeadingElement>(null);
  const problemRef = useRef<HTMLParagraphElement>(null);
  const [focusTarget, setFocusTarget] = useState<"plan" | "problem" | null>(null);
  useEffect(() => {
    if (focusTarget === "plan") planHeading.current?.focus();
    if (focusTarget === "problem") problemRef.current?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const busy = phase !== "idle";

  async function check(files: Prepared, chosen: ColumnMapping | null) {
    setPhase("checking");
    const result = await send(files, chosen, true);
    setPhase("idle");
    if (result.ok) {
      setAnswer(result.answer);
      setMapping(result.answer.mapping);
      setMappingChanged(false);
      setFocusTarget("plan");
    } else fail(importErrorMessage(t, result.failure));
  }

  function fail(message: string) {
    setProblem(message);
    setFocusTarget("problem");
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    const images = data.get("images");
    setProblem("");
    setAnswer(null);
    if (!(file instanceof File) || file.size === 0) return fail(t("import.chooseFile"));
    setPhase("preparing");
    const ready = await prepareImport(file, images instanceof File && images.size > 0 ? images : null, (done, total) =>
      setProgress(t("import.preparing", { done, total })),
    );
    setProgress("");
    if (!ready.ok) {
      setPhase("idle");
      return fail(t(`import.prepareProblems.${ready.problem}`));
    }
    const files = { file: ready.file, images: ready.images };
    setPrepared(files);
    await check(files, null);
  }

  async function confirm() {
    if (!prepared || !mapping) return;
    setPhase("importing");
    setProblem("");
    const result = await send(prepared, mapping, false);
    setPhase("idle");
    if (result.ok) {
      setAnswer(result.answer);
      setPrepared(null);
      setFocusTarget("plan");
    } else {
      if (result.answer) setAnswer(result.answer);
      fail(importErrorMessage(t, result.failure));
    }
  }

  const canConfirm = answer?.dryRun && answer.failed === 0 && answer.created + answer.updated > 0 && !mappingChanged;

  return (
    <section className="page import">
      <header className="import__header">
        <h1>{t("import.title")}</h1>
        <Link to="/articles" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("import.backToArticles")}
        </Link>
      </header>
      <p className="import__intro">{t("import.intro")}</p>
      <p className="import__templates">
        {t("import.templates")}{" "}
        <a href={`/import/template?lang=${lang}&format=csv`} download>
          {t("import.templateCsv")}
        </a>{" "}
        ·{" "}
        <a href={`/import/template?lang=${lang}&format=xlsx`} download>
          {t("import.templateXlsx")}
        </a>
      </p>
      <form className="import-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="import-file">{t("import.fileLabel")}</label>
          <small id="import-file-help">{t("import.fileHelp")}</small>
          <input
            id="import-file"
            type="file"
            name="file"
            accept=".csv,.tsv,.txt,.xlsx,.ods,.zip,text/csv"
            aria-describedby="import-file-help"
            required
            disabled={busy}
          />
        </div>
        <div className="field">
          <label htmlFor="import-images">{t("import.imagesLabel")}</label>
          <small id="import-images-help">{t("import.imagesHelp")}</small>
          <input id="import-images" type="file" name="images" accept=".zip,application/zip" aria-describedby="import-images-help" disabled={busy} />
        </div>
        <button type="submit" className="button import-form__submit" disabled={busy}>
          {phase === "checking" || phase === "preparing" ? t("import.checking") : t("import.check")}
        </button>
        <p className="muted" aria-live="polite">
          {progress}
        </p>
      </form>
      <p ref={problemRef} tabIndex={-1} className="form__error import__problem" role="alert" hidden={problem === ""}>
        {problem}
      </p>
      {answer && mapping && answer.dryRun ? (
        <MappingEditor
          headers={answer.headers}
          mapping={mapping}
          disabled={busy}
          onChange={(next) => {
            setMapping(next);
            setMappingChanged(true);
          }}
        />
      ) : null}
      {answer && answer.dryRun && mappingChanged && prepared ? (
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => check(prepared, mapping)}>
          {t("import.checkAgain")}
        </button>
      ) : null}
      {answer ? <PlanTable ref={planHeading} answer={answer} /> : null}
      {answer?.dryRun ? (
        <div className="import__confirm">
          <p className="muted">
            {answer.failed > 0 ? t("import.fixFirst") : answer.created + answer.updated === 0 ? t("import.nothingToDo") : t("import.draftNote")}
          </p>
          {answer.created + answer.updated > 0 ? (
            <button type="button" className="button" disabled={!canConfirm || busy} onClick={confirm}>
              {phase === "importing" ? t("import.importing") : t("import.confirm", { count: answer.created + answer.updated })}
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
