import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { languageLabel, languagesByLabel } from "~/translation/languages";

/**
 * A translator's languages: checkboxes of the catalogue in a disclosure (a native <details>, keyboard and
 * screen-reader friendly), the chosen ones said in its summary. None ticked = every language.
 */
export function LanguagePicker({ name = "languages", defaultValue, invalid }: { name?: string; defaultValue: readonly string[]; invalid?: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const [chosen, setChosen] = useState<string[]>([...defaultValue]);
  const helpId = useId();
  const summary =
    chosen.length === 0
      ? t("team.allLanguages")
      : t("team.languagesChosen", {
          count: chosen.length,
          list: chosen.map((code) => languageLabel(code, locale)).join(", "),
        });
  return (
    <details className="language-picker">
      <summary>
        <span className="language-picker__label">{t("team.languages")}</span> <span className="language-picker__chosen">{summary}</span>
      </summary>
      <fieldset className="language-picker__list" aria-describedby={helpId} aria-invalid={invalid || undefined}>
        <legend className="visually-hidden">{t("team.languages")}</legend>
        <p id={helpId} className="muted language-picker__help">
          {t("team.languagesHelp")}
        </p>
        {languagesByLabel(locale).map((lang) => (
          <label key={lang.code} className="language-picker__option">
            <input
              type="checkbox"
              name={name}
              value={lang.code}
              checked={chosen.includes(lang.code)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setChosen((current) => (on ? [...current, lang.code] : current.filter((c) => c !== lang.code)));
              }}
            />
            <span>{languageLabel(lang.code, locale)}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
