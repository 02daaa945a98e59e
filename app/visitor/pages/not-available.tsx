import type { VisitorStrings } from "../strings.server";
import { LanguageButton, MuseumBar, Shell } from "./shell";

/**
 * An article that exists but was never published (decision 041): its code and its address say so, in the
 * visitor's language, with status 404 and nothing counted. Nothing of the draft shows, not even its title.
 */
export function NotAvailablePage({
  museumName,
  strings,
  lang,
  stringsLang,
  base,
  nonce,
}: {
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
      title={`${strings.notAvailableTitle} – ${museumName}`}
      description={strings.notAvailableBody}
      nonce={nonce}
      bodyClass="v-page"
      robots="noindex"
    >
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{strings.notAvailableTitle}</h1>
        <p>{strings.notAvailableBody}</p>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={stringsLang} lang={lang} base={base} />
      </footer>
    </Shell>
  );
}
