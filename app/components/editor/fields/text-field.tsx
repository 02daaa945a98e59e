import { useFieldError } from "../field-errors";

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
  maxLength?: number;
  multiline?: boolean;
  readOnly?: boolean;
  hint?: string;
  /** Shown under the field and announced; marks the input invalid. */
  error?: string | null;
  type?: "text" | "url";
  onBlur?: () => void;
  onFocus?: () => void;
}

/** A labelled text input or textarea, with an optional hint and an error tied to it by aria-describedby. */
export function TextField({
  id,
  label,
  value,
  onChange,
  maxLength,
  multiline,
  readOnly,
  hint,
  error: ownError,
  type = "text",
  onBlur,
  onFocus,
}: TextFieldProps) {
  // The form's own check first (it says it while typing); else what a refused save found here.
  const refused = useFieldError(id);
  const error = ownError ?? refused;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    value,
    maxLength,
    readOnly,
    onBlur,
    onFocus,
    "aria-describedby": describedBy,
    "aria-invalid": error ? true : undefined,
  };
  return (
    <div className="field ef-field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={5} onChange={(event) => onChange?.(event.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          spellCheck={type === "url" ? false : undefined}
          autoComplete="off"
          onChange={(event) => onChange?.(event.target.value)}
        />
      )}
      {hint ? <small id={hintId}>{hint}</small> : null}
      {error ? (
        <p id={errorId} className="ef-error" role={ownError ? "alert" : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
