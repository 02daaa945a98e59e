import type { VisitorStrings } from "../strings.server";
import { LanguageButton, MuseumBar, Shell } from "./shell";

/**
 * An article that exists but was never published (decision 041): its code and its address say so, in the
 * visitor's language, with status 404 and nothing counted. Nothing of the draft shows, not even its title.
 * `suspended`: the museum's guide is paused by an operator (decision 147), whatever the page; `closed`: the museum
 * was closed by an operator (decision 148).
 */
export function NotAvailablePage({
  suspended = false,
  closed = false,
  museumName,
  strings,
  lang,
  stringsLang,
  base,
  nonce,
}: {
  suspended?: boolean;
  closed?: boolean;
  museumName: string;
  strings: VisitorStrings;
  lang: string;
  stringsLang: string;
  base: string;
  nonce?: string;
}) {
  const title = closed ? strings.closedTitle : suspended ? strings.suspendedTitle : strings.notAvailableTitle;
  const body = closed ? strings.closedBody : suspended ? strings.suspendedBody : strings.notAvailableBody;
  return (
    <Shell lang={stringsLang} title={`${title} – ${museumName}`} description={body} nonce={nonce} bodyClass="v-page" robots="noindex">
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{title}</h1>
        <p>{body}</p>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={stringsLang} lang={lang} base={base} />
      </footer>
    </Shell>
  );
}
