import type { VisitorStrings } from "../strings.server";
import { LanguageButton, Shell } from "./shell";

/**
 * An address that leads nowhere (unknown code, museum or article), in the visitor's language like every
 * visitor page, with the same language button: a visitor who mistyped a code still reads their language.
 */
export function NotFoundPage({ strings, lang, stringsLang, base }: { strings: VisitorStrings; lang: string; stringsLang: string; base: string }) {
  return (
    <Shell lang={stringsLang} title={strings.notFoundTitle} description={strings.notFoundBody} bodyClass="v-page">
      <main className="v-main">
        <h1>{strings.notFoundTitle}</h1>
        <p>{strings.notFoundBody}</p>
        <p>
          <a href="/">{strings.home}</a>
        </p>
      </main>
      <footer className="v-footer">
        <LanguageButton strings={strings} stringsLang={stringsLang} lang={lang} base={base} />
      </footer>
    </Shell>
  );
}
