import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFieldError } from "../field-errors";
import { numberProblem, readNumber } from "../field-values";

interface NumberFieldProps {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  hint?: string;
}

/**
 * An integer input: what is typed stays as typed while the field has focus (an empty box or a lone "-"
 * is allowed mid-edit) and each finished number is sent at once, so the preview follows. A number out of
 * range or not whole is kept and said beside the field (decision 069), never clamped silently: saving
 * is refused on it. Leaving an unfinished text shows the value kept. Never sends NaN.
 */
export function NumberField({ id, label, value, min, max, onChange, hint }: NumberFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const refused = useFieldError(id);
  const problem = numberProblem(value, min, max);
  const error = problem ? t(problem === "not_whole" ? "editorErrors.numberNotWhole" : "editorErrors.numberOutOfRange", { min, max }) : refused;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field ef-field ef-field--number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={draft ?? String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const raw = event.target.value;
          setDraft(raw);
          const next = readNumber(raw);
          if (next !== null && next !== value) onChange(next);
        }}
        onBlur={() => setDraft(null)}
      />
      {hint ? <small id={hintId}>{hint}</small> : null}
      {error ? (
        <p id={errorId} className="ef-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
