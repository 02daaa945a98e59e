import { useState } from "react";
import { clampInteger, isCompleteNumber } from "../field-values";

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
 * is allowed mid-edit), each complete number is sent at once, clamped, so the preview follows; on blur
 * the text becomes the clamped value. Never sends NaN.
 */
export function NumberField({ id, label, value, min, max, onChange, hint }: NumberFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const hintId = `${id}-hint`;
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
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => {
          const raw = event.target.value;
          setDraft(raw);
          if (isCompleteNumber(raw)) {
            const next = clampInteger(raw, min, max, value);
            if (next !== value) onChange(next);
          }
        }}
        onBlur={() => {
          if (draft === null) return;
          const next = clampInteger(draft, min, max, value);
          setDraft(null);
          if (next !== value) onChange(next);
        }}
      />
      {hint ? (
        <small id={hintId}>{hint}</small>
      ) : null}
    </div>
  );
}
