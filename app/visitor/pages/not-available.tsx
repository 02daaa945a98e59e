import type { VisitorStrings } from "../strings.server";
import { LanguageButton, MuseumBar, Shell } from "./shell";

/**
 * An article that exists but was never published (decision 041): its code and its address say so, in the
 * visitor's language, with status 404 and nothing counted. Nothing of the draft shows, not even its title.
 * `suspended`: the museum's guide is paused by an operator (decision 147), whatever the page.
 */
export function NotAvailablePage({
  suspended = false,
  museumName,
  strings,
  lang,
  stringsLang,
  base,
  nonce,
}: {
  suspended?: boolean;
  museumName: string;
  strings: VisitorStrings;
  lang: string;
  stringsLang: string;
  base: string;
  nonce?: string;
}) {
  return (
    <Shell
      lang={stringsLang}
      title={`${suspended ? strings.suspendedTitle : strings.notAvailableTitle} – ${museumName}`}
      description={suspended ? strings.suspendedBody : strings.notAvailableBody}
      nonce={nonce}
      bodyClass="v-page"
      robots="noindex"
    >
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{suspended ? strings.suspendedTitle : strings.notAvailableTitle}</h1>
        <p>{suspended ? strings.suspendedBody : strings.notAvailableBody}</p>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={stringsLang} lang={lang} base={base} />
      </footer>
    </Shell>
  );
}
