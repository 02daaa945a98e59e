import { useFieldError } from "../field-errors";

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  hint?: string;
}

export function SelectField<T extends string>({ id, label, value, options, onChange, hint }: SelectFieldProps<T>) {
  const hintId = `${id}-hint`;
  const error = useFieldError(id);
  const describedBy = [hint ? hintId : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field ef-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? <small id={hintId}>{hint}</small> : null}
      {error ? (
        <p id={`${id}-error`} className="ef-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
