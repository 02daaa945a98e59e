import type { VisitorStrings } from "../strings.server";
import { LanguageButton, MuseumBar, Shell } from "./shell";

/** A museum's code that leads to no article yet (never linked, or its article is in the trash). */
export function NotLinkedPage({
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
    <Shell lang={stringsLang} title={`${strings.notLinkedTitle} – ${museumName}`} description={strings.notLinkedBody} nonce={nonce} bodyClass="v-page">
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{strings.notLinkedTitle}</h1>
        <p>{strings.notLinkedBody}</p>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={stringsLang} lang={lang} base={base} />
      </footer>
    </Shell>
  );
}
