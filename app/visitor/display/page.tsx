import type { VisitorStrings } from "../strings.server";
import { MuseumBar, Shell, uiLang } from "../pages/shell";
import type { DisplayChoices } from "./choices";

/** The display choices page (decision 097): a plain form, no script; "Apply" keeps them and goes back. */
export function DisplayPage({
  strings,
  stringsLang,
  lang,
  back,
  choices,
}: {
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  back: string;
  choices: DisplayChoices;
}) {
  const ui = uiLang(stringsLang, lang);
  const text = [
    [0, strings.textNormal],
    [1, strings.textLarger],
    [2, strings.textLargest],
  ] as const;
  return (
    <Shell lang={stringsLang} title={strings.displayTitle} description={strings.displayHelp} bodyClass="v-page" robots="noindex">
      <MuseumBar name="Muselingo" />
      <main className="v-main" {...ui}>
        <h1>{strings.displayTitle}</h1>
        <p className="v-help">{strings.displayHelp}</p>
        <form className="v-form v-display" method="post" action={`/display?${new URLSearchParams({ back })}`}>
          <fieldset>
            <legend>{strings.textSize}</legend>
            {text.map(([value, label]) => (
              <label key={value} className="v-choice">
                <input type="radio" name="text" value={value} defaultChecked={choices.text === value} />
                <span style={value ? { fontSize: `${1 + value * 0.25}em` } : undefined}>{label}</span>
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend className="ml-visually-hidden">{strings.displayTitle}</legend>
            <label className="v-choice">
              <input type="checkbox" name="contrast" value="1" defaultChecked={choices.contrast} />
              <span>{strings.highContrast}</span>
            </label>
            <label className="v-choice">
              <input type="checkbox" name="spacing" value="1" defaultChecked={choices.spacing} />
              <span>{strings.moreSpacing}</span>
            </label>
          </fieldset>
          <button type="submit" className="v-button">
            {strings.applyDisplay}
          </button>
        </form>
        <p>
          <a href={back}>{strings.backToPage}</a>
        </p>
      </main>
    </Shell>
  );
}
