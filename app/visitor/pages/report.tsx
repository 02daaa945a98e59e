import type { VisitorStrings } from "../strings.server";
import { href, MuseumBar, Shell } from "./shell";
import { VisitorTextArea } from "./text-field";

export function ReportForm({
  strings,
  base,
  keep,
  lang,
  message = "",
  error,
}: {
  strings: VisitorStrings;
  base: string;
  keep: string;
  lang: string;
  message?: string;
  error?: string;
}) {
  return (
    <form className="v-form" method="post" action={href(`${base}/report`, keep, {})}>
      <input type="hidden" name="lang" value={lang} />
      <VisitorTextArea
        id="v-message"
        name="message"
        label={strings.reportLabel}
        help={strings.reportHelp}
        error={error}
        maxLength={500}
        defaultValue={message}
      />
      <button type="submit" className="v-button">
        {strings.reportSend}
      </button>
    </form>
  );
}

export type ReportState =
  | { kind: "form"; message?: string; error?: string }
  | { kind: "thanks" }
  /** The page is read in the museum's own language: there is no translation to report (decision 034). */
  | { kind: "sourceLanguage"; alert: boolean };

export interface ReportPageProps {
  museumName: string;
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  base: string;
  keep: string;
  state: ReportState;
}

/** The report form on its own page (with the error that sent the visitor back), the thank-you, or why not. */
export function ReportPage({ museumName, strings, stringsLang, lang, base, keep, state }: ReportPageProps) {
  const title = state.kind === "thanks" ? strings.reportThanksTitle : strings.reportProblem;
  return (
    <Shell lang={stringsLang} title={`${title} – ${museumName}`} description={strings.reportProblem} bodyClass="v-page">
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{title}</h1>
        {state.kind === "thanks" && <p role="status">{strings.reportThanksBody}</p>}
        {state.kind === "form" && <ReportForm strings={strings} base={base} keep={keep} lang={lang} message={state.message} error={state.error} />}
        {state.kind === "sourceLanguage" && (
          <p className={state.alert ? "v-error" : undefined} role={state.alert ? "alert" : undefined}>
            {strings.reportSourceLanguage}
          </p>
        )}
        <p>
          <a href={href(base, keep, { lang })}>{strings.backToArticle}</a>
        </p>
      </main>
    </Shell>
  );
}
