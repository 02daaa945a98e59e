import { findLanguage, LANGUAGES, type Language } from "~/translation/languages";
import type { VisitorStrings } from "../strings.server";
import { href, MuseumBar, Shell } from "./shell";

/** Lowercase, accents removed: what the language search compares (the inline script does the same). */
export function searchKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

function languageNames(language: Language): string {
  return searchKey([language.endonym, language.en, language.fr, language.code].join(" "));
}

export interface LanguagesPageProps {
  /** The museum's name; none for an address that leads nowhere. */
  museumName?: string;
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  likely: readonly string[];
  query: string;
  base: string;
  keep: string;
  nonce?: string;
  /** The words of the link back to the page (a tour, the keypad); "Back to the article" by default. */
  backLabel?: string;
}

function LanguageItem({ language, current, base, keep }: { language: Language; current: string; base: string; keep: string }) {
  const other = language.en !== language.endonym ? language.en : "";
  return (
    <li data-names={languageNames(language)}>
      <a href={href(base, keep, { lang: language.code })} aria-current={language.code === current ? "true" : undefined}>
        <span className="v-endonym" lang={language.code} dir={language.dir}>
          {language.endonym}
        </span>
        {other && (
          <span className="v-exonym" lang="en" dir="ltr">
            {other}
          </span>
        )}
      </a>
    </li>
  );
}

/** Every catalogue language by its own name, the likely ones first; a GET search works without JavaScript. */
export function LanguagesPage(props: LanguagesPageProps) {
  const { strings, lang, base, keep } = props;
  const key = searchKey(props.query);
  const matches = (language: Language) => key === "" || languageNames(language).includes(key);
  const likely = props.likely.map((code) => findLanguage(code)).filter((l): l is Language => l !== undefined && matches(l));
  const all = [...LANGUAGES].filter(matches).sort((a, b) => a.endonym.localeCompare(b.endonym, "en"));
  return (
    <Shell
      lang={props.stringsLang}
      title={props.museumName ? `${strings.chooseLanguage} – ${props.museumName}` : strings.chooseLanguage}
      description={strings.chooseLanguage}
      nonce={props.nonce}
      bodyClass="v-page"
      script
    >
      {props.museumName && <MuseumBar name={props.museumName} />}
      <main className="v-main">
        <p>
          <a href={href(base, keep, { lang })}>{props.backLabel ?? strings.backToArticle}</a>
        </p>
        <h1>{strings.chooseLanguage}</h1>
        <form className="v-search" method="get" action={`${base}/languages`} role="search">
          <label htmlFor="v-q">{strings.search}</label>
          <input type="hidden" name="lang" value={lang} />
          {keep && [...new URLSearchParams(keep)].map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
          <input id="v-q" type="search" name="q" defaultValue={props.query} autoComplete="off" />
          <button type="submit" className="v-button">
            {strings.searchButton}
          </button>
        </form>
        {likely.length > 0 && key === "" && (
          <>
            <h2>{strings.suggested}</h2>
            <ul className="v-langs">
              {likely.map((language) => (
                <LanguageItem key={language.code} language={language} current={lang} base={base} keep={keep} />
              ))}
            </ul>
          </>
        )}
        <h2>{key === "" ? strings.allLanguages : strings.searchResults}</h2>
        <p id="v-none" className="v-none" role="status" hidden={all.length > 0}>
          {strings.noMatch}
        </p>
        <ul className="v-langs">
          {all.map((language) => (
            <LanguageItem key={language.code} language={language} current={lang} base={base} keep={keep} />
          ))}
        </ul>
      </main>
    </Shell>
  );
}
