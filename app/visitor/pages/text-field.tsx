/**
 * A visitor form's one text field (the report, a question): its label, the help under it, the refusal's reason
 * announced, and the textarea described by both. Ids follow `id`: `{id}-help`, `{id}-error`.
 */
export function VisitorTextArea({
  id,
  name,
  label,
  help,
  error,
  maxLength,
  rows,
  defaultValue,
}: {
  id: string;
  name: string;
  label: string;
  help: string;
  error?: string;
  maxLength: number;
  rows?: number;
  defaultValue?: string;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-help`} className="v-help">
        {help}
      </p>
      {error && (
        <p id={`${id}-error`} className="v-error" role="alert">
          {error}
        </p>
      )}
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        required
        defaultValue={defaultValue}
        aria-describedby={error ? `${id}-help ${id}-error` : `${id}-help`}
        aria-invalid={error ? "true" : undefined}
      />
    </>
  );
}
