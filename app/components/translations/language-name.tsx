import { findLanguage } from "~/translation/languages";

/** A language as staff read it: its name in the interface language, then its own name in its own script. */
export function LanguageName({ code, locale }: { code: string; locale: "fr" | "en" }) {
  const language = findLanguage(code);
  if (!language) return <span>{code}</span>;
  const name = language[locale];
  return (
    <span className="lang-name">
      {name}
      {language.endonym !== name ? (
        <>
          {" ("}
          <span className="lang-name__endonym" lang={language.code} dir={language.dir}>
            {language.endonym}
          </span>
          {")"}
        </>
      ) : null}
    </span>
  );
}

export const uiLocale = (language: string): "fr" | "en" => (language === "en" ? "en" : "fr");
