import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFieldError } from "../field-errors";
import { parseHexColor, toColorInputValue } from "../field-values";

interface ColorFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

/** The colour picker and its hex code, two ways to set one value; the code takes #abc or #aabbcc. */
export function ColorField({ id, value, onChange }: ColorFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const typedWrong = draft !== null && parseHexColor(draft) === null;
  const refused = useFieldError(`${id}-hex`);
  const invalid = typedWrong || refused !== undefined;
  const errorId = `${id}-hex-error`;
  return (
    <fieldset className="ef-group ef-color">
      <legend>{t("editor.fields.color.legend")}</legend>
      <div className="ef-color__row">
        <div className="field ef-field">
          <label htmlFor={`${id}-picker`}>{t("editor.fields.color.picker")}</label>
          <input id={`${id}-picker`} type="color" value={toColorInputValue(value)} onChange={(event) => onChange(event.target.value)} />
        </div>
        <div className="field ef-field">
          <label htmlFor={`${id}-hex`}>{t("editor.fields.color.hex")}</label>
          <input
            id={`${id}-hex`}
            type="text"
            value={draft ?? value}
            maxLength={7}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? errorId : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              const parsed = parseHexColor(event.target.value);
              if (parsed && parsed !== value) onChange(parsed);
            }}
            // An unfinished code is dropped on leaving: the field shows the colour actually kept.
            onBlur={() => setDraft(null)}
          />
        </div>
      </div>
      {invalid ? (
        <p id={errorId} className="ef-error">
          {typedWrong ? t("editor.fields.color.invalid") : refused}
        </p>
      ) : null}
    </fieldset>
  );
}
